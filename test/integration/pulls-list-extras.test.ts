/**
 * The pull request pages' extensions (docs/pulls.md "Pages"): pulls.counts (per-state counts for
 * the list tabs and the repository header) and pulls.recentBranches (the "Compare & pull request"
 * banner, from reflog times) — through the real router on pushed repositories.
 */
import { utimesSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoGitDir } from "@/server/git/paths";
import { getDb } from "@/server/db";
import { callerFor } from "../helpers";
import { codeOf, member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member, reader: Member;
let repo: { id: string; name: string };
let wt: WorkTree;

async function pushBranch(name: string): Promise<string> {
  await wt.run("checkout", "--quiet", "-B", name, "main");
  const sha = await wt.commit(`${name}.txt`, `${name}\n`);
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  return sha;
}

beforeAll(async () => {
  server = await startGitServer();
  [owner, reader] = await Promise.all([member("own"), member("rea")]);
  repo = await owner.as.repos.create({ name: `x${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: reader.user.username, role: "read" });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
});

afterAll(async () => {
  await server.close();
});

describe("pulls.recentBranches", () => {
  it("offers branches pushed in the last hour without an open pull request, to writers only", async () => {
    const main = await wt.sha("main");
    const a = await pushBranch("feature/a");
    await pushBranch("feature-b");
    const names = (await owner.as.pulls.recentBranches({ repoId: repo.id })).map((b) => b.name).sort();
    expect(names).toEqual(["feature-b", "feature/a"]); // never the default branch
    expect(await reader.as.pulls.recentBranches({ repoId: repo.id })).toEqual([]);
    expect(await codeOf((await callerFor(null)).pulls.recentBranches({ repoId: repo.id }))).toBe("NOT_FOUND");

    // an open pull request from the branch hides it
    await owner.as.pulls.create({
      repoId: repo.id,
      title: "A",
      sourceBranch: "feature/a",
      targetBranch: "main",
      headSha: a,
      baseSha: main,
    });
    expect((await owner.as.pulls.recentBranches({ repoId: repo.id })).map((b) => b.name)).toEqual(["feature-b"]);

    // a push more than an hour ago is no longer recent (the reflog's time is the push's)
    const old = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    utimesSync(path.join(repoGitDir(owner.user.username, repo.name), "logs/refs/heads/feature-b"), old, old);
    expect(await owner.as.pulls.recentBranches({ repoId: repo.id })).toEqual([]);

    // a deleted branch is gone from the banner
    await pushBranch("gone");
    await wt.push(":gone");
    expect((await owner.as.pulls.recentBranches({ repoId: repo.id })).map((b) => b.name)).not.toContain("gone");
  });

  it("offers no branch whose pull request was merged (squash or rebase) or closed after its last push, until it is pushed again", async () => {
    const recent = async () => (await owner.as.pulls.recentBranches({ repoId: repo.id })).map((b) => b.name);
    for (const [branch, strategy] of [
      ["fix/squashed", "squash"],
      ["fix/rebased", "rebase"],
    ] as const) {
      const head = await pushBranch(branch);
      const pr = await owner.as.pulls.create({
        repoId: repo.id,
        title: branch,
        sourceBranch: branch,
        targetBranch: "main",
        headSha: head,
        baseSha: await wt.sha("main"),
      });
      await owner.as.pulls.merge({ prId: pr.id, strategy });
      expect(await recent()).not.toContain(branch);
    }
    const closedHead = await pushBranch("fix/closed");
    const closed = await owner.as.pulls.create({
      repoId: repo.id,
      title: "closed",
      sourceBranch: "fix/closed",
      targetBranch: "main",
      headSha: closedHead,
      baseSha: await wt.sha("main"),
    });
    await owner.as.pulls.close({ prId: closed.id });
    expect(await recent()).not.toContain("fix/closed");
    // pushed after the merge (a reflog time after mergedAt): offered again, as on GitHub
    await wt.run("checkout", "--quiet", "fix/squashed");
    await wt.commit("more.txt", "more\n");
    await wt.push("fix/squashed");
    await wt.run("checkout", "--quiet", "main");
    await expect.poll(recent).toContain("fix/squashed");
  });
});

describe("pulls.counts", () => {
  it("counts open, closed and merged pull requests, optionally by author", async () => {
    const main = await wt.sha("main");
    const c = await pushBranch("counted");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "C",
      sourceBranch: "counted",
      targetBranch: "main",
      headSha: c,
      baseSha: main,
    });
    const before = await owner.as.pulls.counts({ repoId: repo.id });
    expect(before.open).toBeGreaterThanOrEqual(2);
    await owner.as.pulls.close({ prId: pr.id });
    const after = await reader.as.pulls.counts({ repoId: repo.id });
    expect(after).toEqual({ open: before.open - 1, closed: before.closed + 1, merged: before.merged });
    expect(await owner.as.pulls.counts({ repoId: repo.id, authorId: reader.user.id })).toEqual({ open: 0, closed: 0, merged: 0 });
    expect(await codeOf(owner.as.pulls.counts({ repoId: repo.id, authorId: "nope" }))).toBe("BAD_REQUEST");
  });
});

describe("pulls.viewedFiles / pulls.setFileViewed", () => {
  it("keeps each reader's own marks with the blob they saw; anonymous callers have none and cannot mark", async () => {
    const main = await wt.sha("main");
    const head = await pushBranch("viewed");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "V",
      sourceBranch: "viewed",
      targetBranch: "main",
      headSha: head,
      baseSha: main,
    });
    const blob = "a".repeat(40);
    expect(await owner.as.pulls.setFileViewed({ prId: pr.id, path: "viewed.txt", viewed: true, blobSha: blob })).toEqual({
      path: "viewed.txt",
      viewed: true,
    });
    await owner.as.pulls.setFileViewed({ prId: pr.id, path: "gone.txt", viewed: true, blobSha: null });
    expect(await owner.as.pulls.viewedFiles({ prId: pr.id })).toEqual([
      // neither is the head's version: the mark keeps only the blob the caller saw, and does not apply
      { path: "gone.txt", blobSha: null, patchId: null, state: "changed", revision: 1 },
      { path: "viewed.txt", blobSha: blob, patchId: null, state: "changed", revision: 1 },
    ]);
    expect(await reader.as.pulls.viewedFiles({ prId: pr.id })).toEqual([]); // marks are per reader
    // marking again moves the mark to the newer blob; unmarking removes it
    await owner.as.pulls.setFileViewed({ prId: pr.id, path: "viewed.txt", viewed: true, blobSha: "b".repeat(40) });
    await owner.as.pulls.setFileViewed({ prId: pr.id, path: "gone.txt", viewed: false });
    expect(await owner.as.pulls.viewedFiles({ prId: pr.id })).toEqual([
      { path: "viewed.txt", blobSha: "b".repeat(40), patchId: null, state: "changed", revision: 1 },
    ]);
    expect(await codeOf(owner.as.pulls.setFileViewed({ prId: pr.id, path: "x", viewed: true, blobSha: "nothex" }))).toBe("BAD_REQUEST");
    // a reader of the (private) repository may mark; a stranger does not see the pull request
    expect(await codeOf(reader.as.pulls.setFileViewed({ prId: pr.id, path: "viewed.txt", viewed: true }))).toBe("OK");
    // without a blob, the mark is the head's version: it applies
    expect(await reader.as.pulls.viewedFiles({ prId: pr.id })).toEqual([
      {
        path: "viewed.txt",
        blobSha: expect.stringMatching(/^[0-9a-f]{40}$/),
        patchId: expect.stringMatching(/^[0-9a-f]{40}$/),
        state: "viewed",
        revision: 1,
      },
    ]);
    expect(await codeOf((await callerFor(null)).pulls.setFileViewed({ prId: pr.id, path: "viewed.txt", viewed: true }))).toBe("NOT_FOUND");
  });
});

describe("pulls.list row extras: commentCount and reviewDecision", () => {
  it("counts submitted, undeleted comments and derives the decision from each reviewer's latest review", async () => {
    const db = await getDb();
    const main = await wt.sha("main");
    const head = await pushBranch("reviewed");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "R",
      sourceBranch: "reviewed",
      targetBranch: "main",
      headSha: head,
      baseSha: main,
    });
    const row = async () => (await reader.as.pulls.list({ repoId: repo.id })).find((p) => p.id === pr.id)!;
    expect(await row()).toMatchObject({ commentCount: 0, reviewDecision: null });

    const comment = (extra: Record<string, unknown> = {}) =>
      db.pullRequestComment.create({ data: { pullRequestId: pr.id, authorId: reader.user.id, body: "hm", ...extra } });
    await comment();
    await comment({ isPending: true }); // not submitted: not counted
    await comment({ deletedAt: new Date(), body: "" }); // deleted root: not counted
    expect((await row()).commentCount).toBe(1);

    await db.pullRequestReviewRequest.create({ data: { pullRequestId: pr.id, reviewerId: reader.user.id } });
    expect((await row()).reviewDecision).toBe("review_required");
    const review = (state: string, at: number) =>
      db.pullRequestReview.create({
        data: { pullRequestId: pr.id, authorId: reader.user.id, state, commitSha: head, createdAt: new Date(Date.now() + at) },
      });
    await review("changes_requested", 1_000);
    expect((await row()).reviewDecision).toBe("changes_requested");
    await review("commented", 2_000); // a plain comment does not change the decision
    expect((await row()).reviewDecision).toBe("changes_requested");
    await review("approved", 3_000); // the same reviewer's later approval replaces the request for changes
    expect((await row()).reviewDecision).toBe("approved");
  });
});
