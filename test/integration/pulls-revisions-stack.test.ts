/**
 * Approvals in a stack across restacks (docs/pulls.md "Revisions", "Stacks"; gitlab-org/gitlab#372602):
 * each pull request's change is its diff against its own base branch, so after the bottom branch
 * is amended and the stack rebased onto it, the pull requests above keep their approvals (their
 * own patch is unchanged) and only the amended one's goes stale. When the bottom pull request is
 * merged, svc's restack retargets the next one: a base change, not a head move, so no revision;
 * after a squash merge the author rebases it onto the target and its approval stays too.
 * Real git over smart HTTP, the real router.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let w: WorkTree;

const lines = (edit: Record<number, string> = {}) => Array.from({ length: 12 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

beforeAll(async () => {
  t = await team("revs");
  await t.wt.commit("f.txt", lines(), "twelve lines");
  await t.wt.push("main");
  w = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("revisions in a stack", () => {
  it("a restack keeps the approvals of the pull requests whose own patch is unchanged; the amended one's goes stale", async () => {
    for (const pattern of ["main", "stack/*"])
      await t.owner.as.branchProtection.upsert({
        repoId: t.repo.id,
        pattern,
        requiredApprovals: 1,
        dismissStaleApprovals: true,
        allowForcePush: pattern !== "main",
        enforceAdmins: false,
      });
    // main ← stack/a (line 2) ← stack/b (line 6) ← stack/c (line 10), one pull request each
    await w.run("checkout", "--quiet", "-B", "stack/a", "origin/main");
    await w.commit("f.txt", lines({ 2: "a" }), "a");
    await w.run("checkout", "--quiet", "-B", "stack/b");
    await w.commit("f.txt", lines({ 2: "a", 6: "b" }), "b");
    await w.run("checkout", "--quiet", "-B", "stack/c");
    await w.commit("f.txt", lines({ 2: "a", 6: "b", 10: "c" }), "c");
    await w.push("stack/a", "stack/b", "stack/c");
    const open = async (branch: string, target: string) =>
      t.writer.as.pulls.create({
        repoId: t.repo.id,
        title: branch,
        sourceBranch: branch,
        targetBranch: target,
        headSha: await w.sha(branch),
        baseSha: await w.sha(target === "main" ? "origin/main" : target),
      });
    const [a, b, c] = [await open("stack/a", "main"), await open("stack/b", "stack/a"), await open("stack/c", "stack/b")];
    const stack = await t.writer.as.stacks.create({
      repoId: t.repo.id,
      name: "abc",
      baseBranch: "main",
      branches: ["stack/a", "stack/b", "stack/c"],
    });
    expect((await t.reader.as.stacks.get({ stackId: stack.id })).branches.map((x) => x.pr?.number)).toEqual([a.number, b.number, c.number]);
    const approve = async (pr: { id: string }) =>
      t.owner.as.pulls.addReview({
        prId: pr.id,
        commitSha: (await t.reader.as.pulls.revisions({ prId: pr.id })).at(-1)!.headSha,
        state: "approved",
      });
    const approvals = { a: await approve(a), b: await approve(b), c: await approve(c) };
    const dismissal = async (pr: { id: string }, reviewId: string) =>
      (await t.reader.as.pulls.reviews({ prId: pr.id })).find((r) => r.id === reviewId)!.dismissal;
    const revs = (pr: { id: string }) => t.reader.as.pulls.revisions({ prId: pr.id });
    const before = { a: await revs(a), b: await revs(b), c: await revs(c) };
    // each change is its own line: three different patch ids
    expect(new Set([before.a[0].patchId, before.b[0].patchId, before.c[0].patchId]).size).toBe(3);

    // the bottom is amended; the stack is rebased onto it and pushed at once
    const oldA = await w.sha("stack/a");
    const oldB = await w.sha("stack/b");
    await w.run("checkout", "--quiet", "stack/a");
    await w.commit("f.txt", lines({ 2: "A (amended)" }), "a amended");
    await w.run("reset", "--quiet", "--soft", "HEAD~2");
    await w.run("commit", "--quiet", "-m", "a");
    await w.run("rebase", "--quiet", "--onto", "stack/a", oldA, "stack/b");
    await w.run("rebase", "--quiet", "--onto", "stack/b", oldB, "stack/c");
    await w.push("--force", "stack/a", "stack/b", "stack/c");

    const after = { a: await revs(a), b: await revs(b), c: await revs(c) };
    for (const [name, list] of Object.entries(after)) {
      expect(
        list.map((r) => [r.number, r.forced]),
        name,
      ).toEqual([
        [1, false],
        [2, true],
      ]);
      expect(list[1].headSha, name).toBe(await w.sha(`stack/${name}`));
    }
    // each merge base is the new tip of its own base branch
    expect(after.b[1].baseSha).toBe(await w.sha("stack/a"));
    expect(after.c[1].baseSha).toBe(await w.sha("stack/b"));
    expect(after.a[1].patchId).not.toBe(before.a[0].patchId);
    expect(after.b[1].patchId).toBe(before.b[0].patchId);
    expect(after.c[1].patchId).toBe(before.c[0].patchId);
    expect(await dismissal(a, approvals.a.id)).toMatchObject({ reason: "stale" });
    expect(await dismissal(b, approvals.b.id)).toBeNull();
    expect(await dismissal(c, approvals.c.id)).toBeNull();
    // the interdiff of b and c is empty (their change did not change), a's is the amended line
    expect(await t.reader.as.pulls.compareRevisions({ prId: b.id, from: 1, to: 2 })).toMatchObject({ empty: true, replayed: true });
    expect(await t.reader.as.pulls.compareRevisions({ prId: c.id, from: 1, to: 2 })).toMatchObject({ empty: true, replayed: true });
    const amend = await t.reader.as.pulls.compareRevisions({ prId: a.id, from: 1, to: 2 });
    expect(amend.files[0].hunks.flatMap((h) => h.lines.filter((l) => l.type !== "context").map((l) => `${l.type}:${l.content}`))).toEqual([
      "delete:a",
      "add:A (amended)",
    ]);
    expect((await t.reader.as.pulls.checkMergeability({ prId: b.id })).requirements.filter((r) => !r.satisfied)).toEqual([]);

    // a is approved again and merged with a merge commit: svc's restack retargets b to main —
    // a base change, not a head move: no revision, the approval stands (b's change is still its line)
    await approve(a);
    await t.owner.as.pulls.merge({ prId: a.id, strategy: "merge" });
    const bNow = await t.reader.as.pulls.get({ repoId: t.repo.id, number: b.number });
    expect(bNow.targetBranch).toBe("main");
    expect((await t.reader.as.pulls.timeline({ prId: b.id })).filter((e) => e.type === "base_changed")).toHaveLength(1);
    expect((await revs(b)).map((r) => r.number)).toEqual([1, 2]);
    expect(await dismissal(b, approvals.b.id)).toBeNull();
    expect((await t.reader.as.pulls.checkMergeability({ prId: b.id })).requirements.filter((r) => !r.satisfied)).toEqual([]);

    // b is squash-merged: c is retargeted to main, then rebased onto it by its author (the usual
    // restack after a squash): revision 3 has c's own patch again, so c's approval stays
    await t.owner.as.pulls.merge({ prId: b.id, strategy: "squash" });
    expect((await t.reader.as.pulls.get({ repoId: t.repo.id, number: c.number })).targetBranch).toBe("main");
    expect((await revs(c)).map((r) => r.number)).toEqual([1, 2]);
    await w.run("fetch", "--quiet", "origin");
    await w.run("rebase", "--quiet", "--onto", "origin/main", "stack/b", "stack/c");
    await w.push("--force", "stack/c");
    const cRevs = await revs(c);
    expect(cRevs.at(-1)).toMatchObject({ number: 3, forced: true, baseSha: await w.sha("origin/main"), patchId: before.c[0].patchId });
    expect(await dismissal(c, approvals.c.id)).toBeNull();
    expect((await t.reader.as.pulls.checkMergeability({ prId: c.id })).requirements.filter((r) => !r.satisfied)).toEqual([]);
    expect(await t.reader.as.pulls.compareRevisions({ prId: c.id, from: 1, to: 3 })).toMatchObject({ empty: true });
  });
});
