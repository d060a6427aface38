/**
 * Each review records the revision it was made on (docs/pulls.md "Revisions"): pulls.reviews,
 * pulls.addReview, pulls.dismissReview and the timeline's `reviewed` events carry `revision` (the
 * revision whose head is the review's commitSha, as comments do); after a force-push the reviewer's
 * pulls.sinceReview names the range from their review's revision to the newest and its interdiff's
 * file count. Real git over smart HTTP, tRPC callers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneOf, codeOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;

const lines = (edit: Record<number, string> = {}) => Array.from({ length: 12 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

beforeAll(async () => {
  t = await team("rvr");
  await t.wt.commit("f.txt", lines(), "twelve lines");
  await t.wt.push("main");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("review revision", () => {
  it("a review on revision 1 reports 1 after a force-push made revision 2; sinceReview names 1 → 2", async () => {
    await writerWt.run("checkout", "--quiet", "-B", "feat", "origin/main");
    const inner = await writerWt.commit("f.txt", lines({ 2: "two" }));
    const first = await writerWt.commit("f.txt", lines({ 2: "two", 10: "ten" }));
    await writerWt.push("feat");
    const pr = await t.writer.as.pulls.create({
      repoId: t.repo.id,
      title: "feat",
      sourceBranch: "feat",
      targetBranch: "main",
      headSha: first,
      baseSha: await writerWt.sha("origin/main"),
    });
    const approval = await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: first, state: "approved" });
    expect(approval).toMatchObject({ commitSha: first, revision: 1, isStale: false });
    // a commit of the pull request that was never its head is no revision
    const early = await t.reader.as.pulls.addReview({ prId: pr.id, commitSha: inner, state: "commented", body: "first commit" });
    expect(early.revision).toBeNull();
    // the newest revision is the one reviewed: nothing since
    expect(await t.owner.as.pulls.sinceReview({ prId: pr.id })).toBeNull();

    // main moves; the writer rebases onto it, amends line 10 and force-pushes: revision 2
    await t.wt.run("pull", "--quiet", "origin", "main");
    await t.wt.commit("upstream.txt", "upstream\n");
    await t.wt.push("main");
    await writerWt.run("fetch", "--quiet", "origin");
    await writerWt.run("rebase", "--quiet", "origin/main");
    await writerWt.commit("f.txt", lines({ 2: "two", 10: "TEN" }));
    const second = await writerWt.sha("HEAD");
    await writerWt.push("--force", "feat");
    const revs = await t.reader.as.pulls.revisions({ prId: pr.id });
    expect(revs.map((r) => [r.number, r.headSha, r.forced])).toEqual([
      [1, first, false],
      [2, second, true],
    ]);
    const later = await t.reader2.as.pulls.addReview({ prId: pr.id, commitSha: second, state: "commented", body: "looks fine" });
    expect(later.revision).toBe(2);

    // pulls.reviews: each review keeps its revision
    const reviews = await t.reader.as.pulls.reviews({ prId: pr.id });
    expect(reviews.map((r) => [r.id, r.revision, r.isStale])).toEqual([
      [approval.id, 1, true],
      [early.id, null, true],
      [later.id, 2, false],
    ]);
    // the timeline's reviewed events too
    const events = (await t.reader.as.pulls.timeline({ prId: pr.id })).filter((e) => e.type === "reviewed");
    expect(events.map((e) => [e.data.reviewId, e.data.revision])).toEqual([
      [approval.id, 1],
      [early.id, null],
      [later.id, 2],
    ]);

    // since the owner's review: revision 1 → 2, one file (the amended f.txt; main's upstream.txt is left out)
    expect(await t.owner.as.pulls.sinceReview({ prId: pr.id })).toEqual({ from: 1, to: 2, files: 1 });
    // reviewed the newest revision, a review on no revision, or no review at all: nothing
    expect(await t.reader2.as.pulls.sinceReview({ prId: pr.id })).toBeNull();
    expect(await t.reader.as.pulls.sinceReview({ prId: pr.id })).toBeNull();
    expect(await t.writer.as.pulls.sinceReview({ prId: pr.id })).toBeNull();
    expect(await codeOf(t.stranger.as.pulls.sinceReview({ prId: pr.id }))).toBe("NOT_FOUND");

    // a dismissed review still says which revision it was made on
    const dismissed = await t.owner.as.pulls.dismissReview({ reviewId: approval.id, reason: "superseded" });
    expect(dismissed).toMatchObject({ revision: 1, dismissal: { reason: "superseded" } });
  });
});
