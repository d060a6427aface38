/**
 * The review reads make a constant number of queries (no N+1; docs/performance.md "Review reads"):
 * counted with Prisma's query event log on a second client over the same database plus the
 * statements of the read path (server/db/read.ts observeReads), calling the services directly, as
 * issues-queries does. A pull request with 1 thread, then with 120 threads of 3 replies across 12
 * files (some made on an older head, so the outdated check runs git), pending comments of others,
 * reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { listPullComments } from "@/server/services/pulls/list-comments";
import { listReviews } from "@/server/services/pulls/list-reviews";
import { listReviewers } from "@/server/services/pulls/reviewers";
import { createCaller } from "@/server/api/root";
import { actorOf } from "../helpers";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";
import { countingDb, type CountingDb } from "./query-count";

let server: Server;
let owner: Member, reader: Member;
let db: Db;
let counting: CountingDb;
let wt: WorkTree;
let repo: { id: string; name: string };
let reviewRepo: Parameters<typeof listPullComments>[2];

const FILES = 12;
const content = (f: number, tag: string) => Array.from({ length: 40 }, (_, i) => `${tag} file ${f} line ${i + 1}`).join("\n") + "\n";

/** A pull request changing FILES files (every line), pushed twice: returns its id and both heads. */
async function openPull(name: string) {
  await wt.run("checkout", "--quiet", "-B", name, "main");
  for (let f = 0; f < FILES; f++) await wt.commit(`dir/f${f}.txt`, content(f, "v1"));
  const first = await wt.sha("HEAD");
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  const pr = await owner.as.pulls.create({
    repoId: repo.id,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: first,
    baseSha: await wt.sha("main"),
  });
  await wt.run("checkout", "--quiet", name);
  const head = await wt.commit("dir/f0.txt", content(0, "v2"));
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  return { id: pr.id, first, head };
}

beforeAll(async () => {
  counting = await countingDb();
  db = counting.db;
  server = await startGitServer();
  [owner, reader] = await Promise.all([member("qown"), member("qrea")]);
  repo = await owner.as.repos.create({ name: `q${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  reviewRepo = {
    id: repo.id,
    gitDir: repoGitDir(owner.user.username, repo.name),
    permission: "admin",
    ownerId: owner.user.id,
    isPrivate: false,
    owner: owner.user.username,
    name: repo.name,
  };
}, 120_000);

afterAll(async () => {
  await counting.close();
  await server.close();
});

const count = (fn: () => Promise<unknown>) => counting.count(fn);

/** `roots` threads with 3 replies each, inline on the files (half on the older head), every 10th general, plus others' pending comments. */
async function seed(prId: string, first: string, head: string, roots: number): Promise<void> {
  const g = await getDb();
  for (let i = 0; i < roots; i++) {
    const inline = i % 10 !== 0;
    const pos = inline
      ? {
          path: `dir/f${Math.floor(i / 2) % FILES}.txt`,
          line: (i % 40) + 1,
          side: "RIGHT",
          endLine: (i % 40) + 1,
          commitSha: i % 2 ? first : head,
          diffHunk: "@@ -0,0 +1,40 @@",
        }
      : {};
    const root = await g.pullRequestComment.create({
      data: { pullRequestId: prId, authorId: i % 3 ? owner.user.id : reader.user.id, body: `root ${i}`, ...pos },
    });
    await g.pullRequestComment.createMany({
      data: [1, 2, 3].map((k) => ({
        pullRequestId: prId,
        authorId: k % 2 ? reader.user.id : owner.user.id,
        body: `reply ${i}.${k}`,
        replyToId: root.id,
        ...pos,
      })),
    });
    if (i % 7 === 0)
      await g.pullRequestComment.create({
        data: { pullRequestId: prId, authorId: reader.user.id, body: `pending ${i}`, isPending: true, ...pos },
      });
  }
}

describe("constant query counts", () => {
  it("pulls.comments and pulls.getFileComments: the pull request (with the authorization query via tRPC) and ONE comments statement, at 1 or 120 threads", async () => {
    const small = await openPull("small");
    const big = await openPull("big");
    await seed(small.id, small.first, small.head, 1);
    await seed(big.id, big.first, big.head, 120);
    const ownerActor = actorOf(owner.user);
    const threads = await listPullComments(db, ownerActor, reviewRepo, big.id);
    expect(threads).toHaveLength(120);
    expect(threads.every((t) => t.replies.length === 3)).toBe(true);
    expect(threads.some((t) => t.isPending)).toBe(false); // the reader's pending comments are hidden from the owner
    // dir/f0.txt changed on the second push: its threads made on the first head are outdated, no other
    const stale = threads.filter((t) => t.commitSha === big.first && t.path === "dir/f0.txt").map((t) => t.id);
    expect(stale.length).toBeGreaterThan(0);
    expect(threads.filter((t) => t.isOutdated).map((t) => t.id)).toEqual(stale);
    expect((await listPullComments(db, actorOf(reader.user), reviewRepo, big.id)).length).toBeGreaterThan(120);
    const one = await count(() => listPullComments(db, ownerActor, reviewRepo, small.id));
    const many = await count(() => listPullComments(db, ownerActor, reviewRepo, big.id));
    expect(one).toBe(2);
    expect(many).toBe(one);
    expect(await count(() => listPullComments(db, ownerActor, reviewRepo, big.id, "dir/f3.txt"))).toBe(2);
    expect(await count(() => listPullComments(db, null, reviewRepo, big.id))).toBe(2);
    // through the router: the authorization query reads the pull request's columns too (byPullIdWithHead)
    const caller = createCaller({ db, headers: new Headers(), actor: ownerActor, publicUrl: "http://localhost", requestId: "queries" });
    expect(await count(() => caller.pulls.comments({ prId: big.id }))).toBe(2);
    expect(await count(() => caller.pulls.getFileComments({ prId: big.id, path: "dir/f1.txt" }))).toBe(2);
  }, 120_000);

  it("pulls.reviews and pulls.reviewers do not grow with the number of reviews", async () => {
    const pr = await openPull("reviews");
    const g = await getDb();
    const review = (authorId: string, i: number) => ({
      pullRequestId: pr.id,
      authorId,
      state: i % 2 ? "approved" : "commented",
      body: `r${i}`,
      commitSha: pr.head,
    });
    await g.pullRequestReview.create({ data: review(reader.user.id, 0) });
    const few = await count(() => listReviews(db, reviewRepo, pr.id));
    const fewReviewers = await count(() => listReviewers(db, reviewRepo, pr.id));
    for (let i = 1; i < 60; i++) await g.pullRequestReview.create({ data: review(i % 2 ? reader.user.id : owner.user.id, i) });
    expect(await listReviews(db, reviewRepo, pr.id)).toHaveLength(60);
    expect(await count(() => listReviews(db, reviewRepo, pr.id))).toBe(few);
    expect(await count(() => listReviewers(db, reviewRepo, pr.id))).toBe(fewReviewers);
    expect(few).toBeLessThanOrEqual(4);
  }, 120_000);
});
