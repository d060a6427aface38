/**
 * The pull request inbox (docs/pulls.md "Inbox"): inboxAwaitingReview, inboxMyPrs,
 * inboxParticipated and inboxSummary across repositories, through the real router. Rows (pull
 * requests, review requests, reviews, comments) are made with Prisma: those procedures belong to
 * another part. Readability is re-checked in the SQL (a removed collaborator loses the repository's
 * pull requests at once); each list is ONE statement (Prisma's query events plus the read path's),
 * readyToMerge then a fixed number more (its branch protection evaluation).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/server/db";
import { createCaller } from "@/server/api/root";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { countingDb, type CountingDb } from "./query-count";
import { codeOf, type Caller } from "./issues-fixtures";

let db: Db;
let alice: Profile, bob: Profile, carol: Profile;
let as: { alice: Caller; bob: Caller; carol: Caller };
/** R1 bob's private (alice writes), R2 carol's public (alice not a member), R3 carol's private (alice reads until removed), R4 alice's private. */
const repos: Record<"r1" | "r2" | "r3" | "r4", { id: string; owner: string; name: string }> = {} as never;
const prs: Record<string, { id: string; number: number; repoId: string }> = {};
let clock = Date.parse("2026-01-01T00:00:00Z");

/** A pull request row in `repo` by `author`; each one "updated" a minute after the previous. */
async function pull(key: string, repo: keyof typeof repos, author: Profile, extra: { state?: string; isDraft?: boolean } = {}) {
  clock += 60_000;
  const r = await db.$transaction(async (tx) => {
    const counter = await tx.repository.update({
      where: { id: repos[repo].id },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    return tx.pullRequest.create({
      data: {
        repoId: repos[repo].id,
        sourceRepoId: repos[repo].id,
        number: counter.nextIssueNumber - 1,
        title: key,
        sourceBranch: key,
        targetBranch: "main",
        headSha: "a".repeat(40),
        baseSha: "b".repeat(40),
        authorId: author.id,
        state: extra.state ?? "open",
        isDraft: extra.isDraft ?? false,
        mergedAt: extra.state === "merged" ? new Date(clock) : null,
        closedAt: extra.state === "closed" ? new Date(clock) : null,
        createdAt: new Date(clock),
        updatedAt: new Date(clock),
      },
    });
  });
  prs[key] = r;
  return r;
}
const request = (key: string, who: Profile) =>
  db.pullRequestReviewRequest.create({ data: { pullRequestId: prs[key].id, reviewerId: who.id } });
const review = (key: string, who: Profile, state: string, at: number) =>
  db.pullRequestReview.create({
    data: { pullRequestId: prs[key].id, authorId: who.id, state, commitSha: "a".repeat(40), createdAt: new Date(at) },
  });
const comment = (key: string, who: Profile, extra: { isPending?: boolean; deletedAt?: Date } = {}) =>
  db.pullRequestComment.create({ data: { pullRequestId: prs[key].id, authorId: who.id, body: "hm", ...extra } });
const titles = (list: { title: string }[]) => list.map((p) => p.title);

beforeAll(async () => {
  db = await getDb();
  [alice, bob, carol] = await Promise.all([makeUser("ali"), makeUser("bob"), makeUser("car")]);
  as = { alice: await callerFor(actorOf(alice)), bob: await callerFor(actorOf(bob)), carol: await callerFor(actorOf(carol)) };
  const make = async (key: keyof typeof repos, c: Caller, isPrivate: boolean) => {
    const r = await c.repos.create({ name: `${key}${Math.random().toString(36).slice(2, 7)}`, isPrivate });
    repos[key] = { id: r.id, owner: r.owner, name: r.name };
  };
  await make("r1", as.bob, true);
  await make("r2", as.carol, false);
  await make("r3", as.carol, true);
  await make("r4", as.alice, true);
  await as.bob.repos.addCollaborator({ repoId: repos.r1.id, username: alice.username, role: "write" });
  await as.carol.repos.addCollaborator({ repoId: repos.r3.id, username: alice.username, role: "read" });

  // awaiting alice's review
  await pull("a-requested", "r1", bob);
  await request("a-requested", alice);
  await pull("a-draft", "r1", bob, { isDraft: true });
  await request("a-draft", alice);
  await pull("a-closed", "r1", bob, { state: "closed" });
  await request("a-closed", alice);
  await pull("a-other", "r1", bob);
  await request("a-other", carol);
  await pull("a-r3", "r3", carol);
  await request("a-r3", alice);
  // alice's own
  await pull("m-none", "r4", alice);
  await pull("m-approved", "r1", alice);
  await review("m-approved", bob, "approved", clock);
  await pull("m-approved-requested", "r1", alice);
  await review("m-approved-requested", bob, "approved", clock);
  await request("m-approved-requested", carol);
  await pull("m-approval-withdrawn", "r1", alice);
  await review("m-approval-withdrawn", bob, "approved", clock - 1000);
  await review("m-approval-withdrawn", bob, "changes_requested", clock);
  await pull("m-changes-then-approved", "r1", alice);
  await review("m-changes-then-approved", bob, "changes_requested", clock - 1000);
  await review("m-changes-then-approved", bob, "approved", clock);
  await pull("m-commented", "r2", alice);
  await review("m-commented", carol, "commented", clock);
  await pull("m-draft", "r1", alice, { isDraft: true });
  await pull("m-merged", "r1", alice, { state: "merged" });
  // participated
  await comment("a-requested", alice);
  await pull("p-reviewed-merged", "r2", carol, { state: "merged" });
  await review("p-reviewed-merged", alice, "approved", clock);
  await pull("p-closed", "r2", carol, { state: "closed" });
  await comment("p-closed", alice);
  await pull("p-pending-only", "r2", carol);
  await comment("p-pending-only", alice, { isPending: true });
  await pull("p-deleted-only", "r2", carol);
  await comment("p-deleted-only", alice, { deletedAt: new Date() });
  await comment("m-none", alice); // her own: not "participated"
  await pull("p-r3", "r3", carol);
  await comment("p-r3", alice);
  await review("p-r3", alice, "commented", clock);
  await pull("p-unrelated", "r2", carol);
  await comment("p-unrelated", bob);
  // a label, to compare the item's shape with pulls.list's
  const label = await db.label.create({ data: { repoId: repos.r1.id, name: "Bug", nameLower: "bug", color: "#d73a4a" } });
  await db.pullRequestLabel.create({ data: { pullRequestId: prs["a-requested"].id, labelId: label.id } });
});

describe("pulls inbox", () => {
  it("awaiting review: open pull requests with the caller's pending request, drafts included, newest activity first", async () => {
    expect(titles(await as.alice.pulls.inboxAwaitingReview({}))).toEqual(["a-r3", "a-draft", "a-requested"]);
    // carol's requests are in bob's private repository, which she cannot read
    expect(await as.carol.pulls.inboxAwaitingReview({})).toEqual([]);
    expect(titles(await as.alice.pulls.inboxAwaitingReview({ repoId: repos.r1.id }))).toEqual(["a-draft", "a-requested"]);
    // the item: pulls.list's pull request plus its repository
    const [item] = await as.alice.pulls.inboxAwaitingReview({ repoId: repos.r1.id, offset: 1 });
    const listed = (await as.bob.pulls.list({ repoId: repos.r1.id })).find((p) => p.id === item.id);
    expect(item).toEqual({ ...listed, repo: repos.r1 });
    expect(item.labels).toEqual([{ id: expect.any(String), name: "Bug", color: "#d73a4a" }]);
  });

  it("my pull requests: open, not draft, and either a pending request or no standing approval from someone else", async () => {
    expect(titles(await as.alice.pulls.inboxMyPrs({}))).toEqual(["m-commented", "m-approval-withdrawn", "m-approved-requested", "m-none"]);
    expect(titles(await as.alice.pulls.inboxMyPrs({ repoId: repos.r2.id }))).toEqual(["m-commented"]); // a public repository she is not a member of
  });

  it("ready to merge: the caller's other open, non-draft pull requests — approved by someone else, no pending request", async () => {
    expect(titles(await as.alice.pulls.inboxReadyToMerge({}))).toEqual(["m-changes-then-approved", "m-approved"]);
    expect(await as.alice.pulls.inboxReadyToMerge({ repoId: repos.r2.id })).toEqual([]);
    expect(await as.bob.pulls.inboxReadyToMerge({})).toEqual([]);
    // with "Your pull requests" it is every open, non-draft pull request of hers, each in one list
    const mine = [...titles(await as.alice.pulls.inboxMyPrs({})), ...titles(await as.alice.pulls.inboxReadyToMerge({}))];
    expect(new Set(mine).size).toBe(mine.length);
    expect(mine.sort()).toEqual(
      ["m-approval-withdrawn", "m-approved", "m-approved-requested", "m-changes-then-approved", "m-commented", "m-none"].sort(),
    );
  });

  it("participated: commented (published) or reviewed, not authored; state open, closed (closed or merged) or all", async () => {
    expect(titles(await as.alice.pulls.inboxParticipated({}))).toEqual(["p-r3", "a-requested"]);
    expect(titles(await as.alice.pulls.inboxParticipated({ state: "closed" }))).toEqual(["p-closed", "p-reviewed-merged"]);
    expect(titles(await as.alice.pulls.inboxParticipated({ state: "all" }))).toEqual([
      "p-r3",
      "p-closed",
      "p-reviewed-merged",
      "a-requested",
    ]);
    expect(titles(await as.alice.pulls.inboxParticipated({ state: "all", limit: 2, offset: 1 }))).toEqual([
      "p-closed",
      "p-reviewed-merged",
    ]);
    expect(titles(await as.alice.pulls.inboxParticipated({ state: "all", offset: 10 }))).toEqual([]);
  });

  it("summary counts the three lists (participated: open ones), per repository too", async () => {
    expect(await as.alice.pulls.inboxSummary({})).toEqual({ awaitingReview: 3, myPrs: 4, readyToMerge: 2, participated: 2 });
    expect(await as.alice.pulls.inboxSummary({ repoId: repos.r1.id })).toEqual({
      awaitingReview: 2,
      myPrs: 2,
      readyToMerge: 2,
      participated: 1,
    });
    expect(await as.bob.pulls.inboxSummary({})).toEqual({ awaitingReview: 0, myPrs: 2, readyToMerge: 0, participated: 5 }); // his reviews of four of alice's, his comment on p-unrelated
  });

  it("inboxAwaitingCount (the top navigation's badge) is the summary's awaitingReview alone", async () => {
    expect(await as.alice.pulls.inboxAwaitingCount()).toEqual({ awaitingReview: 3 });
    expect(await as.bob.pulls.inboxAwaitingCount()).toEqual({ awaitingReview: 0 });
  });

  it("a removed collaborator's inbox no longer shows that repository's pull requests; an unreadable repoId lists nothing", async () => {
    await as.carol.repos.removeCollaborator({ repoId: repos.r3.id, username: alice.username });
    expect(titles(await as.alice.pulls.inboxAwaitingReview({}))).toEqual(["a-draft", "a-requested"]);
    expect(titles(await as.alice.pulls.inboxParticipated({}))).toEqual(["a-requested"]);
    expect(await as.alice.pulls.inboxSummary({})).toEqual({ awaitingReview: 2, myPrs: 4, readyToMerge: 2, participated: 1 });
    expect(await as.alice.pulls.inboxAwaitingCount()).toEqual({ awaitingReview: 2 });
    expect(await as.alice.pulls.inboxAwaitingReview({ repoId: repos.r3.id })).toEqual([]);
    expect(await as.alice.pulls.inboxSummary({ repoId: repos.r3.id })).toEqual({
      awaitingReview: 0,
      myPrs: 0,
      readyToMerge: 0,
      participated: 0,
    });
    await as.carol.repos.addCollaborator({ repoId: repos.r3.id, username: alice.username, role: "read" });
    expect(titles(await as.alice.pulls.inboxAwaitingReview({}))).toEqual(["a-r3", "a-draft", "a-requested"]);
  });

  it("needs a signed-in caller with repo:read; bad input is BAD_REQUEST", async () => {
    expect(await codeOf((await callerFor(null)).pulls.inboxSummary({}))).toBe("UNAUTHORIZED");
    expect(await codeOf((await callerFor(null)).pulls.inboxAwaitingCount())).toBe("UNAUTHORIZED");
    expect(await codeOf((await callerFor(actorOf(alice, ["user:read"]))).pulls.inboxAwaitingCount())).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(actorOf(alice, ["user:read"]))).pulls.inboxMyPrs({}))).toBe("FORBIDDEN");
    expect(await (await callerFor(actorOf(alice, ["repo:read"]))).pulls.inboxSummary({})).toMatchObject({ myPrs: 4 });
    for (const input of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { repoId: "r1" }, { limit: 1.5 }])
      expect(await codeOf(as.alice.pulls.inboxAwaitingReview(input as never))).toBe("BAD_REQUEST");
    expect(await codeOf(as.alice.pulls.inboxParticipated({ state: "merged" as never }))).toBe("BAD_REQUEST");
  });
});

describe("one statement per list", () => {
  let counting: CountingDb;
  beforeAll(async () => {
    counting = await countingDb();
  });
  afterAll(() => counting.close());

  it("each list and the summary is one query through tRPC (readyToMerge a fixed few), whatever the page", async () => {
    const caller = createCaller({
      db: counting.db,
      headers: new Headers(),
      actor: actorOf(alice),
      publicUrl: "http://localhost",
      requestId: "test",
    });
    const { count } = counting;
    expect(await count(() => caller.pulls.inboxAwaitingReview({}))).toBe(1);
    expect(await count(() => caller.pulls.inboxMyPrs({ limit: 100 }))).toBe(4); // the split of the approved ones too
    expect(await count(() => caller.pulls.inboxParticipated({ state: "all", limit: 1 }))).toBe(1);
    expect(await count(() => caller.pulls.inboxParticipated({ repoId: repos.r2.id }))).toBe(1);
    // readyToMerge: its SQL candidates, then their mergeability cache rows and their repositories'
    // rules (none protected here), whatever the number of candidates (branch-protection-ready.test.ts)
    expect(await count(() => caller.pulls.inboxReadyToMerge({}))).toBe(3);
    expect(await count(() => caller.pulls.inboxSummary({}))).toBe(4); // the counts, then readyToMerge's evaluation
    expect(await count(() => caller.pulls.inboxSummary({ repoId: repos.r2.id }))).toBe(1); // no candidate: the counts alone
    expect(await count(() => caller.pulls.inboxAwaitingCount())).toBe(1);
  });
});
