/**
 * Pull request revisions and approvals by patch identity (docs/pulls.md "Revisions"): revision 1
 * at creation, one per push with the stable patch id of merge base → head; a rebase onto a moved
 * target keeps the patch id and, with dismissStaleApprovals, the approval; an amended change gets
 * a new patch id and dismisses it. Revisions are synthesized from the timeline for pull requests
 * that have none. Real git over smart HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { cloneOf, codeOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;

const lines = (edit: Record<number, string> = {}) => Array.from({ length: 12 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

beforeAll(async () => {
  t = await team("rev");
  await t.wt.commit("f.txt", lines(), "twelve lines");
  await t.wt.push("main");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("pulls.revisions", () => {
  it("records revisions with patch ids; a rebase keeps the approval, an amended change dismisses it", async () => {
    await t.owner.as.branchProtection.upsert({
      repoId: t.repo.id,
      pattern: "main",
      requiredApprovals: 1,
      dismissStaleApprovals: true,
      enforceAdmins: false,
    });
    await writerWt.run("checkout", "--quiet", "-B", "feat", "origin/main");
    const first = await writerWt.commit("f.txt", lines({ 2: "two" }));
    await writerWt.push("feat");
    const pr = await t.writer.as.pulls.create({
      repoId: t.repo.id,
      title: "feat",
      sourceBranch: "feat",
      targetBranch: "main",
      headSha: first,
      baseSha: await writerWt.sha("origin/main"),
    });
    const mainAtOpen = await writerWt.sha("origin/main");
    let revs = await t.writer.as.pulls.revisions({ prId: pr.id });
    expect(revs).toEqual([
      expect.objectContaining({
        number: 1,
        headSha: first,
        baseSha: mainAtOpen,
        forced: false,
        pushedBy: { username: t.writer.user.username },
      }),
    ]);
    expect(revs[0].patchId).toMatch(/^[0-9a-f]{40}$/);

    // a push: revision 2, another change, another patch id
    const second = await writerWt.commit("f.txt", lines({ 2: "two", 3: "three" }));
    await writerWt.push("feat");
    revs = await t.writer.as.pulls.revisions({ prId: pr.id });
    expect(revs.map((r) => [r.number, r.headSha, r.forced])).toEqual([
      [1, first, false],
      [2, second, false],
    ]);
    expect(revs[1].patchId).toMatch(/^[0-9a-f]{40}$/);
    expect(revs[1].patchId).not.toBe(revs[0].patchId);
    const approval = await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: second, state: "approved" });
    const note = await t.owner.as.pulls.addComment({ prId: pr.id, body: "nice", path: "f.txt", line: 3, side: "RIGHT", commitSha: second });

    // main moves with a commit touching the same file at other lines; the writer rebases onto it
    await t.wt.run("pull", "--quiet", "origin", "main");
    await t.wt.commit("f.txt", lines({ 11: "eleven upstream" }));
    await t.wt.push("main");
    await writerWt.run("fetch", "--quiet", "origin");
    await writerWt.run("rebase", "--quiet", "origin/main");
    const rebased = await writerWt.sha("HEAD");
    await writerWt.push("--force", "feat");
    revs = await t.writer.as.pulls.revisions({ prId: pr.id });
    expect(revs.at(-1)).toMatchObject({ number: 3, headSha: rebased, baseSha: await writerWt.sha("origin/main"), forced: true });
    expect(revs[2].patchId).toBe(revs[1].patchId);
    let reviews = await t.writer.as.pulls.reviews({ prId: pr.id });
    expect(reviews.find((r) => r.id === approval.id)?.dismissal ?? null).toBeNull();
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).requirements.filter((r) => !r.satisfied)).toEqual([]);

    // an amended change line: a new patch id, the approval is stale
    await writerWt.commit("f.txt", lines({ 2: "two", 3: "THREE", 11: "eleven upstream" }));
    await writerWt.run("reset", "--quiet", "--soft", "HEAD~2");
    await writerWt.run("commit", "--quiet", "-m", "squashed");
    const amended = await writerWt.sha("HEAD");
    await writerWt.push("--force", "feat");
    revs = await t.writer.as.pulls.revisions({ prId: pr.id });
    expect(revs.at(-1)).toMatchObject({ number: 4, headSha: amended, forced: true });
    expect(revs[3].patchId).not.toBe(revs[2].patchId);
    reviews = await t.writer.as.pulls.reviews({ prId: pr.id });
    expect(reviews.find((r) => r.id === approval.id)?.dismissal).toMatchObject({ reason: "stale" });

    // the interdiff: the rebase (2 → 3) changed nothing in the change; the amend (3 → 4) is line 3 only
    const rebase = await t.reader.as.pulls.compareRevisions({ prId: pr.id, from: 2, to: 3 });
    expect(rebase).toMatchObject({ empty: true, totalFiles: 0, replayed: true, rebaseConflicted: false });
    expect(rebase.fromRevision).toMatchObject({ number: 2, headSha: second });
    const amend = await t.reader.as.pulls.compareRevisions({ prId: pr.id, from: 3, to: 4 });
    expect(amend.empty).toBe(false);
    expect(amend.files.map((f) => f.newPath)).toEqual(["f.txt"]);
    const changed = amend.files[0].hunks.flatMap((h) => h.lines.filter((l) => l.type !== "context").map((l) => `${l.type}:${l.content}`));
    expect(changed).toEqual(["delete:three", "add:THREE"]);
    // the whole change since the approval, base movement left out: revision 2 → 4 is the same one line
    expect((await t.reader.as.pulls.compareRevisions({ prId: pr.id, from: 2, to: 4 })).files.map((f) => f.newPath)).toEqual(["f.txt"]);
    expect(await codeOf(t.reader.as.pulls.compareRevisions({ prId: pr.id, from: 2, to: 99 }))).toBe("NOT_FOUND");
    expect(await codeOf(t.stranger.as.pulls.compareRevisions({ prId: pr.id, from: 2, to: 3 }))).toBe("NOT_FOUND");

    // each comment names the revision it was made on
    const threads = await t.reader.as.pulls.comments({ prId: pr.id });
    expect(threads.find((c) => c.id === note.id)).toMatchObject({ commitSha: second, revision: 2 });

    // readers list; strangers and anonymous callers do not see the pull request
    expect((await t.reader.as.pulls.revisions({ prId: pr.id })).map((r) => r.number)).toEqual([1, 2, 3, 4]);
    expect(await codeOf(t.stranger.as.pulls.revisions({ prId: pr.id }))).toBe("NOT_FOUND");

    // a pull request without stored revisions gets them from its timeline, stored once
    await (await getDb()).pullRequestRevision.deleteMany({ where: { pullRequestId: pr.id } });
    const synthesized = await t.reader.as.pulls.revisions({ prId: pr.id });
    expect(synthesized.map((r) => [r.number, r.headSha, r.forced, r.pushedBy?.username])).toEqual(
      revs.map((r) => [r.number, r.headSha, r.forced, r.pushedBy?.username]),
    );
    expect(synthesized[3].patchId).toBe(revs[3].patchId);
    expect(await (await getDb()).pullRequestRevision.count({ where: { pullRequestId: pr.id } })).toBe(4);
    // the next push numbers on from them
    const fifth = await writerWt.commit("g.txt", "g\n");
    await writerWt.push("feat");
    expect((await t.reader.as.pulls.revisions({ prId: pr.id })).at(-1)).toMatchObject({ number: 5, headSha: fifth, forced: false });
  });
});
