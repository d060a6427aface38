/**
 * What the merge box offers after a merge (docs/pulls.md "Delete and restore the branch",
 * "Revert"; issue #22 item 12): pulls.headBranch, pulls.deleteBranch, pulls.restoreBranch and
 * pulls.revert through the real router on a real repository — permissions, restore onto a taken
 * name, the revert of a merge commit, a squash and a rebase, and a conflicting revert that writes
 * nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { codeOf, issueWorld, messageOf } from "./issues-fixtures";
import { commitFiles, git, initWork, refsOf, rev } from "./merge-fixtures";

type World = Awaited<ReturnType<typeof issueWorld>> & { db: Db; gitDir: string; work: string };
let w: World;
const prs: Record<string, { id: string; number: number; headSha: string; title: string }> = {};

/** `git ls-tree` of `sha` as {path: blob content} for the files of the fixture. */
function files(sha: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of git(w.gitDir, ["ls-tree", "-r", "--name-only", sha]).split("\n").filter(Boolean))
    out[line] = git(w.gitDir, ["show", `${sha}:${line}`]);
  return out;
}

/** The pushed objects and refs, to check that a refused call wrote nothing. */
const footprint = () => `${refsOf(w.gitDir)}\n${git(w.gitDir, ["count-objects", "-v"])}`;

beforeAll(async () => {
  const base = await issueWorld({ isPrivate: true });
  const db = await getDb();
  const repo = await db.repository.findUniqueOrThrow({ where: { id: base.repoId }, select: { name: true } });
  const gitDir = repoGitDir(base.owner.username, repo.name);
  const work = initWork({ "a.txt": "a\n", "f.txt": "base\n" });
  const branch = (name: string, commits: Record<string, string>[]) => {
    git(work, ["checkout", "-q", "-b", name, "main"]);
    commits.forEach((c, i) => commitFiles(work, c, `${name} ${i + 1}`, "Bob"));
  };
  branch("feat/merged", [{ "m.txt": "m\n" }]);
  branch("feat/squashed", [{ "a.txt": "a\nsquash 1\n" }, { "a.txt": "a\nsquash 2\n" }]);
  branch("feat/rebased", [{ "r1.txt": "r1\n" }, { "r2.txt": "r2\n" }]);
  branch("feat/clash", [{ "f.txt": "clash\n" }]);
  git(work, ["checkout", "-q", "main"]);
  git(work, ["push", "-q", gitDir, "main", "feat/merged", "feat/squashed", "feat/rebased", "feat/clash"]);
  w = { ...base, db, gitDir, work };
  const main = rev(gitDir, "refs/heads/main");
  for (const name of ["feat/merged", "feat/squashed", "feat/rebased", "feat/clash"]) {
    const headSha = rev(gitDir, `refs/heads/${name}`);
    const pr = await w.as.writer.pulls.create({
      repoId: w.repoId,
      title: `Add ${name}`,
      sourceBranch: name,
      targetBranch: "main",
      headSha,
      baseSha: main,
    });
    prs[name] = { id: pr.id, number: pr.number, headSha, title: pr.title };
  }
});

describe("pulls.deleteBranch / pulls.restoreBranch", () => {
  it("deletes and restores a closed or merged pull request's branch for writers only", async () => {
    const pr = prs["feat/merged"];
    // open: nothing to offer, and deleting is refused
    expect(await w.as.owner.pulls.headBranch({ prId: pr.id })).toEqual({
      branch: "feat/merged",
      sha: pr.headSha,
      canDelete: false,
      canRestore: false,
      canRevert: false,
    });
    expect(await codeOf(w.as.owner.pulls.deleteBranch({ prId: pr.id }))).toBe("PRECONDITION_FAILED");

    await w.as.owner.pulls.merge({ prId: pr.id, strategy: "merge" });
    expect(await w.as.writer.pulls.headBranch({ prId: pr.id })).toMatchObject({ canDelete: true, canRestore: false, canRevert: true });
    expect(await w.as.reader.pulls.headBranch({ prId: pr.id })).toMatchObject({ canDelete: false, canRestore: false, canRevert: false });
    // a reader may not; a stranger and anonymous callers do not see the private repository
    expect(await codeOf(w.as.reader.pulls.deleteBranch({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.pulls.deleteBranch({ prId: pr.id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.anon.pulls.deleteBranch({ prId: pr.id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.reader.pulls.restoreBranch({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.pulls.restoreBranch({ prId: pr.id }))).toBe("NOT_FOUND");
    expect(refsOf(w.gitDir)).toContain("refs/heads/feat/merged");

    expect(await w.as.writer.pulls.deleteBranch({ prId: pr.id })).toMatchObject({ sha: null, canDelete: false, canRestore: true });
    expect(refsOf(w.gitDir)).not.toContain("refs/heads/feat/merged");
    expect(await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).toMatchObject({ sourceDeleted: true });
    expect(await codeOf(w.as.writer.pulls.deleteBranch({ prId: pr.id }))).toBe("PRECONDITION_FAILED");

    expect(await w.as.writer.pulls.restoreBranch({ prId: pr.id })).toMatchObject({ sha: pr.headSha, canDelete: true, canRestore: false });
    expect(rev(w.gitDir, "refs/heads/feat/merged")).toBe(pr.headSha);
    expect(await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).toMatchObject({ sourceDeleted: false });
    const events = await w.db.pullRequestEvent.findMany({ where: { pullRequestId: pr.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.type).slice(-2)).toEqual(["source_deleted", "source_restored"]);

    // the name is taken again: restore refuses, the other branch stays
    await w.as.writer.pulls.deleteBranch({ prId: pr.id });
    const other = rev(w.gitDir, "refs/heads/main");
    git(w.gitDir, ["update-ref", "refs/heads/feat/merged", other]);
    expect(await messageOf(w.as.writer.pulls.restoreBranch({ prId: pr.id }))).toMatch(/already exists/);
    expect(await codeOf(w.as.writer.pulls.restoreBranch({ prId: pr.id }))).toBe("CONFLICT");
    expect(rev(w.gitDir, "refs/heads/feat/merged")).toBe(other);
    // a branch that moved past the pull request's head is not deleted
    expect(await codeOf(w.as.writer.pulls.deleteBranch({ prId: pr.id }))).toBe("CONFLICT");
    expect(rev(w.gitDir, "refs/heads/feat/merged")).toBe(other);
  });
});

describe("pulls.revert", () => {
  it("opens a pull request undoing a merge commit, a squash and a rebase", async () => {
    await w.as.owner.pulls.merge({ prId: prs["feat/squashed"].id, strategy: "squash" });
    await w.as.owner.pulls.merge({ prId: prs["feat/rebased"].id, strategy: "rebase" });
    const main = rev(w.gitDir, "refs/heads/main");
    expect(files(main)).toEqual({ "a.txt": "a\nsquash 2\n", "f.txt": "base\n", "m.txt": "m\n", "r1.txt": "r1\n", "r2.txt": "r2\n" });
    // permissions first: nothing is written for them
    expect(await codeOf(w.as.reader.pulls.revert({ prId: prs["feat/merged"].id }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.pulls.revert({ prId: prs["feat/merged"].id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.anon.pulls.revert({ prId: prs["feat/merged"].id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.pulls.revert({ prId: prs["feat/clash"].id }))).toBe("PRECONDITION_FAILED"); // still open

    const undone: Record<string, string[]> = { "feat/merged": ["m.txt"], "feat/squashed": [], "feat/rebased": ["r1.txt", "r2.txt"] };
    for (const [name, gone] of Object.entries(undone)) {
      const pr = prs[name];
      const revert = await w.as.writer.pulls.revert({ prId: pr.id });
      expect(revert).toMatchObject({
        title: `Revert "${pr.title}"`,
        body: `Reverts #${pr.number}`,
        sourceBranch: `revert-${pr.number}-${name}`,
        targetBranch: "main",
        state: "open",
      });
      const head = rev(w.gitDir, `refs/heads/revert-${pr.number}-${name}`);
      expect(rev(w.gitDir, `${head}^1`)).toBe(main); // one commit on the target's tip
      const expected = files(main);
      for (const f of gone) delete expected[f];
      if (name === "feat/squashed") expected["a.txt"] = "a\n";
      expect(files(head)).toEqual(expected);
      expect(git(w.gitDir, ["log", "-1", "--format=%B", head])).toMatch(new RegExp(`^Revert "Add ${name}"\\n\\nThis reverts commit`));
    }
    // a second revert of the same pull request gets the next free name
    const again = await w.as.writer.pulls.revert({ prId: prs["feat/merged"].id });
    expect(again.sourceBranch).toBe(`revert-${prs["feat/merged"].number}-feat/merged-2`);
  });

  it("refuses a revert that conflicts with later changes, writing nothing", async () => {
    const pr = prs["feat/clash"];
    await w.as.owner.pulls.merge({ prId: pr.id, strategy: "merge" });
    // main changes the reverted lines again
    git(w.work, ["fetch", "-q", w.gitDir, "main"]);
    git(w.work, ["reset", "-q", "--hard", "FETCH_HEAD"]);
    commitFiles(w.work, { "f.txt": "later\n" }, "change f again");
    git(w.work, ["push", "-q", w.gitDir, "main"]);
    const before = footprint();
    const pulls = await w.db.pullRequest.count({ where: { repoId: w.repoId } });
    expect(await codeOf(w.as.writer.pulls.revert({ prId: pr.id }))).toBe("CONFLICT");
    expect(await messageOf(w.as.writer.pulls.revert({ prId: pr.id }))).toMatch(/cannot be reverted automatically.*1 file \(f\.txt\)/);
    expect(footprint()).toBe(before);
    expect(await w.db.pullRequest.count({ where: { repoId: w.repoId } })).toBe(pulls);
  });
});
