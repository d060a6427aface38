/**
 * Review that survives a rebase (issue #24's tests; docs/pulls.md "Revisions", "Interdiff",
 * "Review"): a pull request with threads on two changed lines and one multi-line thread, approved;
 * the target gets commits that shift the commented lines; the head is rebased onto it and
 * force-pushed → the interdiff is empty, every thread is current at its new lines, the approval
 * counts and is not stale. Then one of the two lines is amended and force-pushed → the interdiff
 * is exactly that line, its thread is outdated, the others stay current, the approval is stale
 * (and, with dismissStaleApprovals, dismissed). Real git over smart HTTP, the real router.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let w: WorkTree;

/** 30 numbered lines with `edit` replacing some, `before` inserting lines before an (original) line number. */
function file(edit: Record<number, string> = {}, before: Record<number, string[]> = {}): string {
  const out: string[] = [];
  for (let i = 1; i <= 30; i++) out.push(...(before[i] ?? []), edit[i] ?? `line ${i}`);
  return out.join("\n") + "\n";
}
const FEATURE = { 10: "ten (feature)", 15: "fifteen (feature)", 20: "twenty (feature)" };

beforeAll(async () => {
  t = await team("revr");
  await t.wt.commit("f.txt", file(), "thirty lines");
  await t.wt.push("main");
  w = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("review across a rebase", () => {
  it("a pure rebase keeps threads (moved) and the approval; amending one line outdates only its thread and makes the approval stale", async () => {
    await t.owner.as.branchProtection.upsert({
      repoId: t.repo.id,
      pattern: "main",
      requiredApprovals: 1,
      dismissStaleApprovals: true,
      enforceAdmins: false,
    });
    await w.run("checkout", "--quiet", "-B", "feat", "origin/main");
    const first = await w.commit("f.txt", file(FEATURE), "feature");
    await w.push("feat");
    const pr = await t.writer.as.pulls.create({
      repoId: t.repo.id,
      title: "feat",
      sourceBranch: "feat",
      targetBranch: "main",
      headSha: first,
      baseSha: await w.sha("origin/main"),
    });
    const comment = (line: number, startLine?: number) =>
      t.owner.as.pulls.addComment({ prId: pr.id, body: `on ${line}`, path: "f.txt", line, startLine, side: "RIGHT", commitSha: first });
    const ten = await comment(10);
    const twenty = await comment(20);
    const range = await comment(16, 14); // lines 14–16, around the changed line 15
    const approval = await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: first, state: "approved" });
    const thread = async (id: string) => (await t.reader.as.pulls.comments({ prId: pr.id })).find((c) => c.id === id)!;
    const review = async () => (await t.reader.as.pulls.reviews({ prId: pr.id })).find((r) => r.id === approval.id)!;
    const unmet = async () => (await t.reader.as.pulls.checkMergeability({ prId: pr.id })).requirements.filter((r) => !r.satisfied);
    expect(await unmet()).toEqual([]);

    // (1) the target moves: 3 lines at the top (every thread moves), 2 lines between 17 and 18
    // (the line-20 thread moves further), and a change at line 28 (nothing moves)
    await t.wt.run("pull", "--quiet", "origin", "main");
    await t.wt.commit("f.txt", file({}, { 1: ["top 1", "top 2", "top 3"] }), "three lines on top");
    await t.wt.commit("f.txt", file({}, { 1: ["top 1", "top 2", "top 3"], 18: ["mid 1", "mid 2"] }), "two lines in the middle");
    await t.wt.commit("f.txt", file({ 28: "twenty-eight (main)" }, { 1: ["top 1", "top 2", "top 3"], 18: ["mid 1", "mid 2"] }), "line 28");
    await t.wt.push("main");
    await w.run("fetch", "--quiet", "origin");
    await w.run("rebase", "--quiet", "origin/main");
    const rebased = await w.sha("HEAD");
    await w.push("--force", "feat");

    const revs = await t.reader.as.pulls.revisions({ prId: pr.id });
    expect(revs.map((r) => [r.number, r.headSha, r.forced])).toEqual([
      [1, first, false],
      [2, rebased, true],
    ]);
    expect(revs[1].baseSha).toBe(await w.sha("origin/main"));
    expect(revs[1].patchId).toBe(revs[0].patchId);
    expect(await t.reader.as.pulls.compareRevisions({ prId: pr.id, from: 1, to: 2 })).toMatchObject({
      empty: true,
      totalFiles: 0,
      replayed: true,
      rebaseConflicted: false,
    });
    expect(await thread(ten.id)).toMatchObject({ isOutdated: false, currentLine: 13, currentStartLine: null });
    expect(await thread(twenty.id)).toMatchObject({ isOutdated: false, currentLine: 25, currentStartLine: null });
    expect(await thread(range.id)).toMatchObject({ isOutdated: false, startLine: 14, line: 16, currentStartLine: 17, currentLine: 19 });
    // the approval counts and is not stale: it approved this change
    expect(await review()).toMatchObject({ dismissal: null, isStale: false });
    expect(await unmet()).toEqual([]);

    // (2) one of the two lines is amended and force-pushed
    await w.commit(
      "f.txt",
      file({ ...FEATURE, 20: "twenty (amended)", 28: "twenty-eight (main)" }, { 1: ["top 1", "top 2", "top 3"], 18: ["mid 1", "mid 2"] }),
    );
    await w.run("reset", "--quiet", "--soft", "HEAD~2");
    await w.run("commit", "--quiet", "-m", "feature");
    const amended = await w.sha("HEAD");
    await w.push("--force", "feat");
    const after = await t.reader.as.pulls.revisions({ prId: pr.id });
    expect(after.at(-1)).toMatchObject({ number: 3, headSha: amended, forced: true, baseSha: await w.sha("origin/main") });
    expect(after[2].patchId).not.toBe(after[1].patchId);
    for (const [from, to] of [
      [2, 3],
      [1, 3],
    ]) {
      const inter = await t.reader.as.pulls.compareRevisions({ prId: pr.id, from, to });
      expect(inter.files.map((f) => f.newPath)).toEqual(["f.txt"]);
      expect(inter.files[0].hunks.flatMap((h) => h.lines.filter((l) => l.type !== "context").map((l) => `${l.type}:${l.content}`))).toEqual(
        ["delete:twenty (feature)", "add:twenty (amended)"],
      );
    }
    expect(await thread(twenty.id)).toMatchObject({ isOutdated: true, currentLine: null });
    expect(await thread(ten.id)).toMatchObject({ isOutdated: false, currentLine: 13 });
    expect(await thread(range.id)).toMatchObject({ isOutdated: false, currentStartLine: 17, currentLine: 19 });
    expect(await review()).toMatchObject({ isStale: true, dismissal: { reason: "stale" } });
    expect((await unmet()).map((r) => r.kind)).toEqual(["approvals"]);
  });

  it("without dismissStaleApprovals an approval of another patch is shown stale and still counts", async () => {
    await t.owner.as.branchProtection.upsert({
      repoId: t.repo.id,
      pattern: "main",
      requiredApprovals: 1,
      dismissStaleApprovals: false,
      enforceAdmins: false,
    });
    await w.run("fetch", "--quiet", "origin");
    await w.run("checkout", "--quiet", "-B", "feat2", "origin/main");
    const first = await w.commit("g.txt", "one\ntwo\n", "g");
    await w.push("feat2");
    const pr = await t.writer.as.pulls.create({
      repoId: t.repo.id,
      title: "feat2",
      sourceBranch: "feat2",
      targetBranch: "main",
      headSha: first,
      baseSha: await w.sha("origin/main"),
    });
    const approval = await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: first, state: "approved" });
    const state = async () => {
      const r = (await t.reader.as.pulls.reviews({ prId: pr.id })).find((x) => x.id === approval.id)!;
      const reviewer = (await t.reader.as.pulls.reviewers({ prId: pr.id })).find((x) => x.reviewId === approval.id)!;
      expect(reviewer.isStale).toBe(r.isStale);
      return { isStale: r.isStale, dismissal: r.dismissal };
    };
    expect(await state()).toEqual({ isStale: false, dismissal: null });
    // a commit that changes nothing in the change (an empty commit): another head, the same patch
    await w.run("commit", "--quiet", "--allow-empty", "-m", "nothing");
    await w.push("feat2");
    expect(await state()).toEqual({ isStale: false, dismissal: null });
    // a review of the older head answers the same
    expect(await t.reader.as.pulls.addReview({ prId: pr.id, commitSha: first, state: "commented", body: "ok" })).toMatchObject({
      isStale: false,
    });
    await w.commit("g.txt", "one\nTWO\n", "g changed");
    await w.push("feat2");
    expect(await state()).toEqual({ isStale: true, dismissal: null });
    expect((await t.reader.as.pulls.checkMergeability({ prId: pr.id })).requirements.filter((r) => !r.satisfied)).toEqual([]);
  });
});
