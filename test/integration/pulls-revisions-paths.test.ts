/**
 * Every path that moves a pull request's head records exactly one revision (docs/pulls.md
 * "Revisions"), with who moved it, whether it was forced, the merge base with the target at that
 * time and the stable patch id of merge base → head: `git push`, force-push, a committed
 * suggestion, a conflict resolution (the target merged into the head), reopening after pushes
 * made while closed. A push that does not move the head (the branch deleted and pushed back at
 * the same commit) records none. Real git over smart HTTP, the real router.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;

const lines = (edit: Record<number, string> = {}) => Array.from({ length: 12 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

/** `git diff -U0 base head | git patch-id --stable` in `dir`, computed here independently of svc. */
function patchId(dir: string, base: string, head: string): string {
  const diff = execFileSync("git", ["diff", "-U0", base, head], { cwd: dir });
  return execFileSync("git", ["patch-id", "--stable"], { cwd: dir, input: diff }).toString().split(" ")[0];
}

beforeAll(async () => {
  t = await team("revp");
  await t.wt.commit("f.txt", lines(), "twelve lines");
  await t.wt.push("main");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("revisions: one per head move, whatever moved it", () => {
  it("push, force-push, suggestion commit, conflict resolution, reopen; a push that leaves the head records none", async () => {
    const w = writerWt;
    await w.run("checkout", "--quiet", "-B", "feat", "origin/main");
    const first = await w.commit("f.txt", lines({ 2: "two" }));
    await w.push("feat");
    const pr = await t.writer.as.pulls.create({
      repoId: t.repo.id,
      title: "feat",
      sourceBranch: "feat",
      targetBranch: "main",
      headSha: first,
      baseSha: await w.sha("origin/main"),
    });
    const revisions = () => t.reader.as.pulls.revisions({ prId: pr.id });
    /** The one revision a step added: the list grew by exactly one, and it is that head's. */
    const added = async (before: number, head: string) => {
      const revs = await revisions();
      expect(revs.map((r) => r.number)).toEqual(Array.from({ length: before + 1 }, (_, i) => i + 1));
      const last = revs.at(-1)!;
      expect(last.headSha).toBe(head);
      return last;
    };
    await w.run("fetch", "--quiet", "origin");
    const mainTip = () => w.run("rev-parse", "origin/main");

    // 1: opened
    let rev = await added(0, first);
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: false, pushedBy: { username: t.writer.user.username } });
    expect(rev.patchId).toBe(patchId(w.dir, await mainTip(), first));

    // 2: git push (fast-forward)
    const second = await w.commit("f.txt", lines({ 2: "two", 4: "four" }));
    await w.push("feat");
    rev = await added(1, second);
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: false, pushedBy: { username: t.writer.user.username } });
    expect(rev.patchId).toBe(patchId(w.dir, await mainTip(), second));

    // 3: force-push (amend)
    await w.run("commit", "--quiet", "--amend", "-m", "amended");
    const amended = await w.sha("HEAD");
    await w.push("--force", "feat");
    rev = await added(2, amended);
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: true, pushedBy: { username: t.writer.user.username } });
    // the amend changed the message only: same change, same patch id
    expect(rev.patchId).toBe((await revisions())[1].patchId);

    // 4: the owner commits a suggestion to the head branch
    const suggestion = await t.owner.as.pulls.addSuggestion({
      prId: pr.id,
      path: "f.txt",
      line: 4,
      side: "RIGHT",
      commitSha: amended,
      body: "",
      suggestion: "FOUR",
    });
    const applied = await t.owner.as.pulls.applySuggestion({ commentId: suggestion.id });
    rev = await added(3, applied.commitSha);
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: false, pushedBy: { username: t.owner.user.username } });
    await w.run("pull", "--quiet", "--ff-only", "origin", "feat");
    expect(rev.patchId).toBe(patchId(w.dir, await mainTip(), applied.commitSha));
    expect(rev.patchId).not.toBe((await revisions())[2].patchId);

    // 5: the target moves with a conflicting line; the owner resolves it in svc (merges main into the head)
    await t.wt.run("pull", "--quiet", "origin", "main");
    await t.wt.commit("f.txt", lines({ 2: "two (main)", 12: "twelve (main)" }));
    await t.wt.push("main");
    const conflicts = await t.owner.as.pulls.getConflicts({ prId: pr.id });
    expect(conflicts.files.map((f) => f.path)).toEqual(["f.txt"]);
    const resolved = await t.owner.as.pulls.resolveConflicts({
      prId: pr.id,
      files: [{ path: "f.txt", content: lines({ 2: "two (both)", 4: "FOUR", 12: "twelve (main)" }) }],
      expectedHeadSha: applied.commitSha,
    });
    rev = await added(4, resolved.commitSha);
    await w.run("pull", "--quiet", "--ff-only", "origin", "feat");
    await w.run("fetch", "--quiet", "origin");
    // the merge base is now the target's tip (it was merged in): the change is the head's own lines against it
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: false, pushedBy: { username: t.owner.user.username } });
    expect(rev.patchId).toBe(patchId(w.dir, await mainTip(), resolved.commitSha));

    // a push that deletes the branch and one that restores it at the same commit: the head never moved
    await w.push(":feat");
    await w.push("feat");
    await added(4, resolved.commitSha);

    // 6: pushes while closed record nothing; reopening catches up with ONE revision, by the reopener
    await t.writer.as.pulls.close({ prId: pr.id });
    await w.commit("g.txt", "g\n");
    const closedTip = await w.commit("g.txt", "g\ng\n");
    await w.push("feat");
    await added(4, resolved.commitSha);
    await t.owner.as.pulls.reopen({ prId: pr.id });
    rev = await added(5, closedTip);
    expect(rev).toMatchObject({ baseSha: await mainTip(), forced: false, pushedBy: { username: t.owner.user.username } });
    expect(rev.patchId).toBe(patchId(w.dir, await mainTip(), closedTip));

    // the timeline has one push event per revision after the first
    const pushes = (await t.reader.as.pulls.timeline({ prId: pr.id })).filter((e) => e.type === "pushed" || e.type === "force_pushed");
    expect(pushes.map((e) => e.type)).toEqual(["pushed", "force_pushed", "pushed", "pushed", "pushed"]);
  });
});
