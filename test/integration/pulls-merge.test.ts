/**
 * pulls.checkMergeability, pulls.merge and pulls.getConflicts through the real router on real
 * repositories (docs/pulls.md "Mergeability", "Merge strategies", "After a merge"): reasons a pull
 * request cannot merge, the cache, each strategy, what happens after a merge (issues closed,
 * restack, branch deletion), permissions, 20 concurrent merges, a merge racing a push to the
 * target.
 */
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { mergePullRequest } from "@/server/services/pulls/merge";
import { authorizeRepo } from "@/server/services/repos/access";
import { actorOf, callerFor, makeUser } from "../helpers";
import { codeOf, issueWorld } from "./issues-fixtures";
import { commitFiles, git, initWork, refsOf, rev } from "./merge-fixtures";

/** A world with a pushed repository: main, feature (clean, "Fixes #1" in a commit), clash (conflicts with main), stacked (on feature). */
async function mergeWorld() {
  const w = await issueWorld({ isPrivate: true });
  const db = await getDb();
  const repo = await db.repository.findUniqueOrThrow({ where: { id: w.repoId }, select: { name: true } });
  const gitDir = repoGitDir(w.owner.username, repo.name);
  // issues #1 (closed by the merge), #2 (not referenced)
  const i1 = await w.as.owner.issues.create({ repoId: w.repoId, title: "bug one" });
  const i2 = await w.as.owner.issues.create({ repoId: w.repoId, title: "bug two" });
  const work = initWork({ "a.txt": "a\n", "f.txt": "base\n" });
  git(work, ["checkout", "-q", "-b", "feature"]);
  commitFiles(work, { "b.txt": "b\n" }, "add b", "Bob");
  commitFiles(work, { "c.txt": "c\n" }, `add c\n\nFixes #${i1.number}`, "Carol");
  git(work, ["checkout", "-q", "-b", "stacked"]);
  commitFiles(work, { "d.txt": "d\n" }, "add d", "Bob");
  git(work, ["checkout", "-q", "-b", "clash", "main"]);
  commitFiles(work, { "f.txt": "clash\n" }, "clash f", "Bob");
  git(work, ["checkout", "-q", "main"]);
  commitFiles(work, { "f.txt": "main\n" }, "main f");
  git(work, ["push", "-q", gitDir, "main", "feature", "stacked", "clash"]);
  const tip = (b: string) => rev(gitDir, `refs/heads/${b}`);
  return { ...w, db, gitDir, work, tip, issues: [i1, i2] };
}
type World = Awaited<ReturnType<typeof mergeWorld>>;

/** Inserts a pull request row (the records part's create is another part's), numbered from the repository's shared counter. */
async function insertPull(
  w: World,
  source: string,
  target = "main",
  extra: { isDraft?: boolean; title?: string; body?: string; state?: string } = {},
) {
  return w.db.$transaction(async (tx) => {
    const counter = await tx.repository.update({
      where: { id: w.repoId },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    return tx.pullRequest.create({
      data: {
        repoId: w.repoId,
        number: counter.nextIssueNumber - 1,
        title: extra.title ?? `merge ${source}`,
        body: extra.body ?? null,
        state: extra.state ?? "open",
        isDraft: extra.isDraft ?? false,
        sourceRepoId: w.repoId,
        sourceBranch: source,
        targetBranch: target,
        headSha: w.tip(source),
        baseSha: w.tip(target),
        authorId: w.writer.id,
      },
    });
  });
}

describe("pulls.checkMergeability", () => {
  it("answers canMerge with ahead/behind, caches per (target tip, head), and names every reason it cannot merge", async () => {
    const w = await mergeWorld();
    const pr = await insertPull(w, "feature");
    const first = await w.as.reader.pulls.checkMergeability({ prId: pr.id });
    expect(first).toEqual({
      requirements: [],
      canBypassRequirements: false,
      autoMerge: null,
      canMerge: true,
      conflicts: [],
      aheadBy: 2,
      behindBy: 1,
    });
    // written after the answer
    await expect
      .poll(() => w.db.pullRequestMergeability.findUnique({ where: { pullRequestId: pr.id } }))
      .toMatchObject({ baseTip: w.tip("main"), headSha: pr.headSha, canMerge: true });
    expect(await w.as.reader.pulls.checkMergeability({ prId: pr.id })).toEqual(first);

    const clash = await insertPull(w, "clash");
    expect(await w.as.owner.pulls.checkMergeability({ prId: clash.id })).toEqual({
      canMerge: false,
      conflicts: ["f.txt"],
      aheadBy: 1,
      behindBy: 1,
      error: "the merge has conflicts in 1 file",
      requirements: [],
      canBypassRequirements: false,
      autoMerge: null,
    });
    const draft = await insertPull(w, "feature", "main", { isDraft: true });
    // a draft gets the real counts and conflicts, canMerge false with the draft reason (issue #22 item 4)
    expect(await w.as.owner.pulls.checkMergeability({ prId: draft.id })).toEqual({
      canMerge: false,
      conflicts: [],
      aheadBy: 2,
      behindBy: 1,
      error: "the pull request is a draft; mark it ready for review first",
      requirements: [],
      canBypassRequirements: false,
      autoMerge: null,
    });
    const draftClash = await insertPull(w, "clash", "main", { isDraft: true });
    expect(await w.as.owner.pulls.checkMergeability({ prId: draftClash.id })).toMatchObject({
      canMerge: false,
      conflicts: ["f.txt"],
      error: expect.stringMatching(/draft/),
    });
    await expect(w.as.owner.pulls.merge({ prId: draft.id })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    const closed = await insertPull(w, "feature", "main", { state: "closed" });
    expect((await w.as.owner.pulls.checkMergeability({ prId: closed.id })).error).toMatch(/closed/);
    const nothing = await insertPull(w, "feature", "stacked");
    expect(await w.as.owner.pulls.checkMergeability({ prId: nothing.id })).toMatchObject({
      canMerge: false,
      aheadBy: 0,
      error: expect.stringMatching(/nothing to merge/),
    });
    git(w.gitDir, ["update-ref", "-d", "refs/heads/clash"]);
    expect(await w.as.owner.pulls.checkMergeability({ prId: clash.id })).toMatchObject({
      canMerge: false,
      error: 'the source branch "clash" was deleted',
    });
    // a new target tip is a cache miss
    git(w.work, ["checkout", "-q", "main"]);
    commitFiles(w.work, { "e.txt": "e\n" }, "main e");
    git(w.work, ["push", "-q", w.gitDir, "main"]);
    expect(await w.as.owner.pulls.checkMergeability({ prId: pr.id })).toEqual({
      canMerge: true,
      conflicts: [],
      aheadBy: 2,
      behindBy: 2,
      requirements: [],
      canBypassRequirements: false,
      autoMerge: null,
    });
    expect(await w.as.stranger.pulls.checkMergeability({ prId: pr.id }).catch((e) => e.code)).toBe("NOT_FOUND");
  });
});

describe("pulls.merge", () => {
  it("merge: moves the target by the merge commit, records the merge, closes the referenced issue only, restacks, deletes the branch", async () => {
    const w = await mergeWorld();
    const pr = await insertPull(w, "feature", "main", { title: "Feature" });
    const child = await insertPull(w, "stacked", "feature");
    const before = w.tip("main");
    const merged = await w.as.writer.pulls.merge({ prId: pr.id, deleteBranch: true });
    expect(merged).toMatchObject({
      id: pr.id,
      number: pr.number,
      state: "merged",
      mergeStrategy: "merge",
      branchDeleted: true,
      author: { id: w.writer.id },
    });
    expect(merged.mergedAt).toEqual(expect.any(String));
    expect(w.tip("main")).toBe(merged.mergeSha);
    expect(git(w.gitDir, ["log", "-1", "--format=%P%n%B", merged.mergeSha])).toBe(
      `${before} ${pr.headSha}\nMerge pull request #${pr.number} from ${w.owner.username}/feature\n\nFeature\n\n`,
    );
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id }, include: { events: true } });
    expect(row).toMatchObject({
      state: "merged",
      mergedById: w.writer.id,
      mergeSha: merged.mergeSha,
      mergeStrategy: "merge",
      sourceDeleted: true,
    });
    expect(row.events.map((e) => e.type)).toEqual(["merged", "source_deleted"]);
    expect(git(w.gitDir, ["for-each-ref", "refs/heads/feature"])).toBe("");
    // issues: #1 closed naming the pull request, #2 untouched
    const [i1, i2] = await Promise.all(w.issues.map((i) => w.as.owner.issues.get({ repoId: w.repoId, number: i.number })));
    expect(i1).toMatchObject({ state: "closed", status: "done" });
    expect(i2).toMatchObject({ state: "open" });
    const acts = await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i1!.number });
    expect(acts.find((a) => a.field === "pull_request")).toMatchObject({
      action: "status_changed",
      newValue: `${w.owner.username}/${(await w.db.repository.findUniqueOrThrow({ where: { id: w.repoId } })).name}#${pr.number}`,
    });
    // restack: the stacked pull request now targets main
    const c = await w.db.pullRequest.findUniqueOrThrow({ where: { id: child.id }, include: { events: true } });
    expect(c).toMatchObject({ targetBranch: "main", baseSha: merged.mergeSha, state: "open" });
    expect(c.events).toMatchObject([{ type: "base_changed", data: JSON.stringify({ from: "feature", to: "main", reason: "restack" }) }]);
    // merging again: precondition failed, nothing moves
    expect(await codeOf(w.as.owner.pulls.merge({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
    git(w.gitDir, ["fsck", "--strict"]);
  });

  it("squash and rebase: one commit by the author with co-author trailers; replayed commits keeping authors", async () => {
    const w = await mergeWorld();
    const a = await insertPull(w, "feature", "main", { title: "Squashed" });
    const before = w.tip("main");
    const s = await w.as.owner.pulls.merge({ prId: a.id, strategy: "squash" });
    const writer = await w.db.user.findUniqueOrThrow({ where: { id: w.writer.id } });
    expect(git(w.gitDir, ["log", "-1", "--format=%P|%an|%cn|%B", s.mergeSha])).toBe(
      `${before}|${writer.name ?? writer.username}|${w.owner.username}|Squashed (#${a.number})\n\n* add b\n* add c\n\nCo-authored-by: Bob <bob@example.com>\nCo-authored-by: Carol <carol@example.com>\n\n`,
    );
    expect(git(w.gitDir, ["rev-parse", `${s.mergeSha}^{tree}`])).toBe(git(w.gitDir, ["merge-tree", "--write-tree", before, a.headSha]));
    const b = await insertPull(w, "stacked", "main");
    const r = await w.as.owner.pulls.merge({ prId: b.id, strategy: "rebase", message: "ignored" });
    // as git rebase does: "add b" and "add c" become empty on top of the squash commit and are dropped
    expect(
      git(w.gitDir, ["log", "--format=%an|%s", `${s.mergeSha}..${r.mergeSha}`])
        .trim()
        .split("\n"),
    ).toEqual(["Bob|add d"]);
    expect(w.tip("main")).toBe(r.mergeSha);
    git(w.gitDir, ["fsck", "--strict"]);
  });

  it("rebase stopping at a commit that does not apply (while a merge would be clean): CONFLICT naming it, nothing changed", async () => {
    const w = await mergeWorld();
    git(w.work, ["checkout", "-q", "-b", "flipflop", w.tip("feature")]);
    const flip = commitFiles(w.work, { "f.txt": "flip\n" }, "flip f", "Bob");
    commitFiles(w.work, { "f.txt": "base\n" }, "flop f back", "Bob");
    git(w.work, ["push", "-q", w.gitDir, "flipflop"]);
    const pr = await insertPull(w, "flipflop");
    expect((await w.as.owner.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(true);
    const refsBefore = refsOf(w.gitDir);
    await expect(w.as.owner.pulls.merge({ prId: pr.id, strategy: "rebase" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`commit ${flip.slice(0, 12)} does not apply on main (conflicts in f.txt)`),
    });
    expect(refsOf(w.gitDir)).toBe(refsBefore);
    expect(await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).toMatchObject({ state: "open", mergeSha: null });
    expect(git(w.gitDir, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(1);
    const merged = await w.as.owner.pulls.merge({ prId: pr.id, strategy: "merge" });
    expect(w.tip("main")).toBe(merged.mergeSha);
  });

  it("refuses: read permission, a read-only token, conflicts (with the reason), unknown strategy", async () => {
    const w = await mergeWorld();
    const pr = await insertPull(w, "feature");
    const clash = await insertPull(w, "clash");
    expect(await codeOf(w.as.reader.pulls.merge({ prId: pr.id }))).toBe("FORBIDDEN");
    const readOnly = await callerFor(actorOf(w.owner, ["repo:read"]));
    expect(await codeOf(readOnly.pulls.merge({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.pulls.merge({ prId: pr.id }))).toBe("NOT_FOUND");
    await expect(w.as.owner.pulls.merge({ prId: clash.id })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: "cannot merge: the merge has conflicts in 1 file",
    });
    await expect(w.as.owner.pulls.merge({ prId: pr.id, strategy: "octopus" as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/strategy must be one of merge, squash, rebase/),
    });
    expect(w.tip("main")).toBe(rev(w.work, "main"));
  });

  it("of 20 concurrent merges exactly one succeeds; git fsck clean; DB and refs agree", async () => {
    const w = await mergeWorld();
    const pr = await insertPull(w, "feature");
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        w.as.owner.pulls.merge({ prId: pr.id, strategy: (["merge", "squash", "rebase"] as const)[i % 3] }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect(["PRECONDITION_FAILED", "CONFLICT"]).toContain((r.reason as { code: string }).code);
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id }, include: { events: true } });
    expect(row.state).toBe("merged");
    expect(w.tip("main")).toBe(row.mergeSha);
    expect(row.events.filter((e) => e.type === "merged")).toHaveLength(1);
    git(w.gitDir, ["fsck", "--strict"]);
    expect(git(w.gitDir, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(1);
  });

  it("a push to the target landing during the merge fails it cleanly: CONFLICT, pull request still open, the push kept", async () => {
    const w = await mergeWorld();
    const pr = await insertPull(w, "feature");
    git(w.work, ["checkout", "-q", "main"]);
    const pushed = commitFiles(w.work, { "z.txt": "z\n" }, "pushed meanwhile");
    // the push lands after mergeability was checked, just before the claim: the transaction start
    const racing = new Proxy(w.db, {
      get(target, prop, receiver) {
        if (prop === "$transaction")
          return (...args: unknown[]) => {
            git(w.work, ["push", "-q", w.gitDir, "main"]);
            return (target.$transaction as (...a: unknown[]) => unknown)(...args);
          };
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    const repo = await authorizeRepo(w.db, actorOf(w.owner), { repoId: w.repoId }, "write");
    const refsBefore = refsOf(w.gitDir);
    await expect(mergePullRequest(racing, actorOf(w.owner), repo, pr.id, { strategy: "merge" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/target branch "main" moved/),
    });
    expect(w.tip("main")).toBe(pushed);
    expect(refsOf(w.gitDir)).toBe(refsBefore.replace(/^\w+ refs\/heads\/main$/m, `${pushed} refs/heads/main`));
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id }, include: { events: true } });
    expect(row).toMatchObject({ state: "open", mergeSha: null, mergedAt: null });
    expect(row.events).toEqual([]);
    expect((await w.as.owner.issues.get({ repoId: w.repoId, number: w.issues[0]!.number })).state).toBe("open");
    git(w.gitDir, ["fsck", "--strict"]);
  });

  it("a pull request from a fork: the source branch is looked up in the fork, the head read from the target, the fork's branch never deleted", async () => {
    const w = await mergeWorld();
    const fork = await w.as.writer.repos.create({ name: `fork${Math.random().toString(36).slice(2, 8)}`, isPrivate: false });
    const forkDir = repoGitDir(w.writer.username, fork.name);
    git(w.work, ["push", "-q", forkDir, "feature:refs/heads/topic"]);
    const pr = await w.db.$transaction(async (tx) => {
      const counter = await tx.repository.update({
        where: { id: w.repoId },
        data: { nextIssueNumber: { increment: 1 } },
        select: { nextIssueNumber: true },
      });
      const number = counter.nextIssueNumber - 1;
      // the records part keeps refs/pull/<number>/head in the target; here the push stands in for its fetch
      git(w.work, ["push", "-q", w.gitDir, `feature:refs/pull/${number}/head`]);
      return tx.pullRequest.create({
        data: {
          repoId: w.repoId,
          number,
          title: "From a fork",
          sourceRepoId: fork.id,
          sourceBranch: "topic",
          targetBranch: "main",
          headSha: w.tip("feature"),
          baseSha: w.tip("main"),
          authorId: w.writer.id,
        },
      });
    });
    git(w.gitDir, ["update-ref", "-d", "refs/heads/feature"]); // the target has no branch of that name: only the pull ref holds the head
    expect(await w.as.owner.pulls.checkMergeability({ prId: pr.id })).toEqual({
      canMerge: true,
      conflicts: [],
      aheadBy: 2,
      behindBy: 1,
      requirements: [],
      canBypassRequirements: false,
      autoMerge: null,
    });
    const merged = await w.as.owner.pulls.merge({ prId: pr.id, deleteBranch: true });
    expect(merged).toMatchObject({ state: "merged", branchDeleted: false });
    expect(git(w.gitDir, ["log", "-1", "--format=%s", merged.mergeSha]).trim()).toBe(
      `Merge pull request #${pr.number} from ${w.writer.username}/topic`,
    );
    expect(git(forkDir, ["rev-parse", "refs/heads/topic"]).trim()).toBe(pr.headSha);
    const other = await insertPull(w, "stacked");
    git(forkDir, ["update-ref", "-d", "refs/heads/topic"]);
    await w.db.pullRequest.update({ where: { id: other.id }, data: { sourceRepoId: fork.id, sourceBranch: "topic" } });
    expect((await w.as.owner.pulls.checkMergeability({ prId: other.id })).error).toBe('the source branch "topic" was deleted');
  });

  it("closes owner/repo#N only in repositories the merger can write", async () => {
    const w = await mergeWorld();
    const other = await makeUser("oth");
    const otherCaller = await callerFor(actorOf(other));
    const theirs = await otherCaller.repos.create({ name: `x${Math.random().toString(36).slice(2, 8)}`, isPrivate: false });
    const foreign = await otherCaller.issues.create({ repoId: theirs.id, title: "not ours" });
    const mine = await w.as.owner.repos.create({ name: `y${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
    const own = await w.as.owner.issues.create({ repoId: mine.id, title: "ours" });
    const pr = await insertPull(w, "feature", "main", {
      body: `Resolves ${other.username}/${theirs.name}#${foreign.number}; closes ${w.owner.username}/${mine.name}#${own.number}`,
    });
    await w.as.owner.pulls.merge({ prId: pr.id });
    expect((await otherCaller.issues.get({ repoId: theirs.id, number: foreign.number })).state).toBe("open");
    expect((await w.as.owner.issues.get({ repoId: mine.id, number: own.number })).state).toBe("closed");
  });
});

describe("pulls.getConflicts", () => {
  it("lists the conflicting files with target, source and base sides", async () => {
    const w = await mergeWorld();
    const clash = await insertPull(w, "clash");
    const pr = await insertPull(w, "feature");
    expect(await w.as.reader.pulls.getConflicts({ prId: clash.id })).toMatchObject({
      hasConflicts: true,
      truncated: false,
      files: [{ path: "f.txt", ours: "main\n", theirs: "clash\n", base: "base\n", isBinary: false, kind: "content" }],
    });
    // extension: git's diff3 merge, the conflicts view's regions (markers 31 characters long)
    const [open, mid, sep, close] = ["<", "|", "=", ">"].map((c) => c.repeat(31));
    expect((await w.as.reader.pulls.getConflicts({ prId: clash.id })).files[0]!.merged).toBe(
      `${open} ours\nmain\n${mid} base\nbase\n${sep}\nclash\n${close} theirs\n`,
    );
    expect(await w.as.reader.pulls.getConflicts({ prId: pr.id })).toEqual({ hasConflicts: false, files: [], truncated: false });
  });
});
