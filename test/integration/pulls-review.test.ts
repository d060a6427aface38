/**
 * Pull request review (docs/pulls.md "Review"): reviews, inline / multi-line / threaded / pending
 * comments, suggestions, resolve, edit and delete, outdated threads — through the real router on
 * real pushed repositories (docs/pulls.md "Review"). Labels and reviewers:
 * pulls-review-people.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { actorOf, callerFor } from "../helpers";
import { codeOf, messageOf, team, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member, writer: Member, reader: Member, reader2: Member, stranger: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
let main: string;

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, k) => f(k + 1));
const file = (ls: string[]) => ls.join("\n") + "\n";
/** main's src/app.ts: "line 1" … "line 30". */
const BASE = lines(30);
/** The feature's: line 10 rewritten, a line added after line 20 (new line 21). */
const FEATURE = [...BASE.slice(0, 9), "changed 10", ...BASE.slice(10, 20), "added 21", ...BASE.slice(20)];

let n = 0;
/** Pushes a branch off main with src/app.ts = `content` and opens a pull request by `writer`. */
async function openPull(content: string[] = FEATURE) {
  const name = `topic-${++n}`;
  await wt.run("checkout", "--quiet", "-B", name, "main");
  const head = await wt.commit("src/app.ts", file(content));
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  const pr = await writer.as.pulls.create({
    repoId: repo.id,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: main,
  });
  return { ...pr, branch: name };
}

/** Commits `content` as src/app.ts on `branch` and pushes; returns the new head. */
async function push(branch: string, content: string[]): Promise<string> {
  await wt.run("checkout", "--quiet", branch);
  const sha = await wt.commit("src/app.ts", file(content));
  await wt.push(branch);
  await wt.run("checkout", "--quiet", "main");
  return sha;
}

beforeAll(async () => {
  ({ server, owner, writer, reader, reader2, stranger, repo, wt } = await team("r"));
  await wt.commit("src/app.ts", file(BASE), "app");
  await wt.commit("other.txt", "other\n", "other");
  await wt.push("main");
  main = await wt.sha("main");
});

afterAll(async () => {
  await server.close();
});

describe("pulls.addComment", () => {
  it("adds general and inline comments (RIGHT added line, LEFT deleted line, a range) with their hunk", async () => {
    const pr = await openPull();
    const general = await reader.as.pulls.addComment({ prId: pr.id, body: "looks good" });
    expect(general).toMatchObject({
      body: "looks good",
      path: null,
      line: null,
      side: null,
      commitSha: null,
      replyToId: null,
      isPending: false,
      author: { id: reader.user.id },
      isDeleted: false,
    });
    const right = await reader.as.pulls.addComment({ prId: pr.id, body: "why?", path: "src/app.ts", line: 10 });
    expect(right).toMatchObject({ path: "src/app.ts", line: 10, side: "RIGHT", startLine: null, endLine: 10, commitSha: pr.headSha });
    expect(right.diffHunk).toMatch(/^@@ -7,7 \+7,7 @@/);
    expect(right.diffHunk!.split("\n").slice(-2)).toEqual(["-line 10", "+changed 10"]);
    const left = await reader.as.pulls.addComment({
      prId: pr.id,
      body: "was fine",
      path: "src/app.ts",
      line: 10,
      side: "LEFT",
      commitSha: pr.headSha,
    });
    expect(left).toMatchObject({ side: "LEFT", line: 10 });
    expect(left.diffHunk!.split("\n").at(-1)).toBe("-line 10");
    const range = await reader.as.pulls.addComment({
      prId: pr.id,
      body: "these",
      path: "src/app.ts",
      startLine: 19,
      endLine: 22,
      line: 22,
    });
    expect(range).toMatchObject({ startLine: 19, endLine: 22, line: 22, side: "RIGHT" });
    // startLine equal to line is a one-line comment
    expect(await reader.as.pulls.addComment({ prId: pr.id, body: "one", path: "src/app.ts", startLine: 21, line: 21 })).toMatchObject({
      startLine: null,
      line: 21,
    });
  });

  it("refuses positions outside the diff, bad ranges and commits that are not the pull request's", async () => {
    const pr = await openPull();
    const at = (extra: Record<string, unknown>) =>
      reader.as.pulls.addComment({ prId: pr.id, body: "x", path: "src/app.ts", line: 10, ...extra } as never);
    expect(await messageOf(at({ path: "other.txt", line: 1 }))).toMatch(/"other.txt" is not changed by pull request/);
    expect(await messageOf(at({ path: "nope.txt" }))).toMatch(/not changed/);
    expect(await messageOf(at({ line: 2 }))).toMatch(/line 2 \(RIGHT\) of "src\/app.ts" is not part of the diff/);
    expect(await messageOf(at({ line: 25, side: "LEFT" }))).toMatch(/line 25 \(LEFT\).*not part of the diff/);
    expect(await messageOf(at({ startLine: 12, line: 10 }))).toMatch(/startLine 12 is after endLine 10/);
    expect(await messageOf(at({ startLine: 8, line: 20 }))).toMatch(/span two hunks/);
    expect(await messageOf(at({ line: 10, endLine: 11 }))).toMatch(/line \(10\) and endLine \(11\) must be equal/);
    expect(await messageOf(reader.as.pulls.addComment({ prId: pr.id, body: "x", line: 3 }))).toMatch(/line need a path/);
    expect(await messageOf(reader.as.pulls.addComment({ prId: pr.id, body: "x", path: "src/app.ts" }))).toMatch(/needs line/);
    expect(await messageOf(at({ commitSha: main }))).toMatch(/is not a commit of pull request #\d+: it is already on main/);
    expect(await messageOf(at({ commitSha: "0".repeat(40) }))).toMatch(/no such commit/);
    const other = await openPull(lines(31));
    expect(await messageOf(at({ commitSha: other.headSha }))).toMatch(/head does not contain it/);
    for (const bad of [
      { body: "" },
      { body: "   " },
      { body: "x".repeat(65_537) },
      { line: 0 },
      { side: "MIDDLE" },
      { commitSha: "abc" },
    ]) {
      expect(await codeOf(at(bad))).toBe("BAD_REQUEST");
    }
    expect(await codeOf(at({ body: "x".repeat(65_536) }))).toBe("OK");
  });

  it("threads: a reply to a reply attaches to the root and inherits the position; other pull requests' comments are not found", async () => {
    const pr = await openPull();
    const root = await reader.as.pulls.addComment({ prId: pr.id, body: "root", path: "src/app.ts", line: 21 });
    const r1 = await writer.as.pulls.addComment({ prId: pr.id, body: "reply", replyToId: root.id, path: "ignored.txt", line: 99 });
    expect(r1).toMatchObject({ replyToId: root.id, path: "src/app.ts", line: 21, side: "RIGHT", commitSha: root.commitSha });
    const r2 = await reader.as.pulls.addComment({ prId: pr.id, body: "reply to reply", replyToId: r1.id });
    expect(r2.replyToId).toBe(root.id);
    const threads = await owner.as.pulls.comments({ prId: pr.id });
    expect(threads).toHaveLength(1);
    expect(threads[0].replies.map((r) => r.body)).toEqual(["reply", "reply to reply"]);
    const elsewhere = await openPull();
    expect(await codeOf(reader.as.pulls.addComment({ prId: elsewhere.id, body: "x", replyToId: root.id }))).toBe("NOT_FOUND");
  });

  it("anyone who can read may comment, with a repo:write token; strangers and anonymous callers cannot", async () => {
    const pr = await openPull();
    expect(await codeOf(stranger.as.pulls.addComment({ prId: pr.id, body: "hi" }))).toBe("NOT_FOUND");
    expect(await codeOf((await callerFor(null)).pulls.addComment({ prId: pr.id, body: "hi" }))).toBe("NOT_FOUND");
    const readOnlyToken = await callerFor(actorOf(reader.user, ["repo:read"]));
    expect(await messageOf(readOnlyToken.pulls.addComment({ prId: pr.id, body: "hi" }))).toMatch(/repo:write/);
    expect(await codeOf(readOnlyToken.pulls.comments({ prId: pr.id }))).toBe("OK");
  });
});

describe("pending comments and pulls.addReview", () => {
  it("keeps pending comments to their author, then attaches them to the submitted review", async () => {
    const pr = await openPull();
    const p1 = await reader.as.pulls.addComment({ prId: pr.id, body: "pending one", path: "src/app.ts", line: 10, pending: true });
    const p2 = await reader.as.pulls.addComment({ prId: pr.id, body: "pending two", pending: true });
    expect(p1.isPending).toBe(true);
    const reply = await reader.as.pulls.addComment({ prId: pr.id, body: "my own reply", replyToId: p1.id });
    expect(reply.isPending).toBe(true); // a reply to a pending comment is part of the same review
    expect((await writer.as.pulls.comments({ prId: pr.id })).map((t) => t.id)).toEqual([]);
    expect((await writer.as.pulls.getFileComments({ prId: pr.id, path: "src/app.ts" })).map((t) => t.id)).toEqual([]);
    expect((await reader.as.pulls.comments({ prId: pr.id })).map((t) => t.id)).toEqual([p1.id, p2.id]);
    // others cannot reach it by id either
    expect(await codeOf(writer.as.pulls.addComment({ prId: pr.id, body: "x", replyToId: p1.id }))).toBe("NOT_FOUND");
    expect(await codeOf(owner.as.pulls.deleteComment({ commentId: p1.id }))).toBe("NOT_FOUND");
    const review = await reader.as.pulls.addReview({ prId: pr.id, state: "commented", commitSha: pr.headSha });
    expect(review).toMatchObject({
      state: "commented",
      body: null,
      commitSha: pr.headSha,
      isStale: false,
      commentCount: 3,
      author: { id: reader.user.id, username: reader.user.username },
    });
    const seen = await writer.as.pulls.comments({ prId: pr.id });
    expect(seen.map((t) => [t.id, t.isPending, t.reviewId])).toEqual([
      [p1.id, false, review.id],
      [p2.id, false, review.id],
    ]);
    expect(seen[0].replies.map((r) => r.id)).toEqual([reply.id]);
  });

  it("refuses the author's approval or request for changes, an empty comment review, and a commit outside the pull request", async () => {
    const pr = await openPull();
    expect(await messageOf(writer.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: pr.headSha }))).toMatch(
      /cannot approve your own pull request/,
    );
    expect(await codeOf(writer.as.pulls.addReview({ prId: pr.id, state: "changes_requested", body: "hm", commitSha: pr.headSha }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(writer.as.pulls.addReview({ prId: pr.id, state: "commented", body: "note to self", commitSha: pr.headSha }))).toBe(
      "OK",
    );
    expect(await messageOf(reader.as.pulls.addReview({ prId: pr.id, state: "commented", commitSha: pr.headSha }))).toMatch(
      /needs a body or pending comments/,
    );
    expect(
      await messageOf(reader.as.pulls.addReview({ prId: pr.id, state: "changes_requested", body: " ", commitSha: pr.headSha })),
    ).toMatch(/needs a body/);
    expect(await messageOf(reader.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: main }))).toMatch(
      /not a commit of pull request/,
    );
    expect(await codeOf(reader.as.pulls.addReview({ prId: pr.id, state: "rejected" as never, commitSha: pr.headSha }))).toBe("BAD_REQUEST");
    expect(await codeOf(stranger.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: pr.headSha }))).toBe("NOT_FOUND");
    expect((await reader.as.pulls.reviews({ prId: pr.id })).map((r) => r.author?.id)).toEqual([writer.user.id]);
  });

  it("lists reviews oldest first, marks reviews of an older head stale, writes `reviewed` events, and refuses verdicts once closed", async () => {
    const pr = await openPull();
    const first = await reader.as.pulls.addReview({ prId: pr.id, state: "changes_requested", body: "fix it", commitSha: pr.headSha });
    const head2 = await push(pr.branch, [...FEATURE, "more"]);
    const second = await reader2.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: head2 });
    // an older commit of the pull request is still one of its commits
    await owner.as.pulls.addReview({ prId: pr.id, state: "commented", body: "on the first commit", commitSha: pr.headSha });
    const reviews = await writer.as.pulls.reviews({ prId: pr.id });
    expect(reviews.map((r) => [r.id, r.state, r.isStale])).toEqual([
      [first.id, "changes_requested", true],
      [second.id, "approved", false],
      [reviews[2].id, "commented", true],
    ]);
    expect(reviews[0]).toMatchObject({
      body: "fix it",
      commitSha: pr.headSha,
      commentCount: 0,
      author: { id: reader.user.id, name: null },
    });
    const events = (await writer.as.pulls.timeline({ prId: pr.id })).filter((e) => e.type === "reviewed");
    expect(events.map((e) => [e.actor?.id, e.data.state, e.data.reviewId])).toEqual([
      [reader.user.id, "changes_requested", first.id],
      [reader2.user.id, "approved", second.id],
      [owner.user.id, "commented", reviews[2].id],
    ]);
    await writer.as.pulls.close({ prId: pr.id });
    expect(await messageOf(reader.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: head2 }))).toMatch(
      /is closed: only comments/,
    );
    expect(await codeOf(reader.as.pulls.addReview({ prId: pr.id, state: "commented", body: "late", commitSha: head2 }))).toBe("OK");
  });
});

describe("editing, deleting, resolving", () => {
  it("updateComment: the author only", async () => {
    const pr = await openPull();
    const c = await reader.as.pulls.addComment({ prId: pr.id, body: "tpyo" });
    expect(c.editedAt).toBeNull();
    const edited = await reader.as.pulls.updateComment({ commentId: c.id, body: "typo" });
    expect(edited).toMatchObject({ id: c.id, body: "typo", editedAt: expect.any(String) });
    expect(Date.parse(edited.editedAt!)).toBeGreaterThanOrEqual(Date.parse(c.createdAt));
    // the list read (on the driver) carries the marker too
    const listed = (await reader.as.pulls.comments({ prId: pr.id })).find((t) => t.id === c.id);
    expect(listed?.editedAt).toBe(edited.editedAt);
    expect(await messageOf(owner.as.pulls.updateComment({ commentId: c.id, body: "mine now" }))).toMatch(/only the comment's author/);
    expect(await codeOf(writer.as.pulls.updateComment({ commentId: c.id, body: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(reader.as.pulls.updateComment({ commentId: c.id, body: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(stranger.as.pulls.updateComment({ commentId: c.id, body: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf(reader.as.pulls.updateComment({ commentId: "00000000-0000-4000-8000-000000000000", body: "x" }))).toBe("NOT_FOUND");
  });

  it("deleteComment: own or write permission; a root with replies stays readable, without replies it goes", async () => {
    const pr = await openPull();
    const root = await reader.as.pulls.addComment({ prId: pr.id, body: "root", path: "src/app.ts", line: 10 });
    const reply = await reader2.as.pulls.addComment({ prId: pr.id, body: "reply", replyToId: root.id });
    const lonely = await reader.as.pulls.addComment({ prId: pr.id, body: "lonely" });
    expect(await messageOf(reader2.as.pulls.deleteComment({ commentId: root.id }))).toMatch(/author or someone with write permission/);
    expect(await reader.as.pulls.deleteComment({ commentId: root.id })).toEqual({ id: root.id, deleted: true, kept: true });
    let threads = await writer.as.pulls.comments({ prId: pr.id });
    expect(threads[0]).toMatchObject({ id: root.id, isDeleted: true, body: "", author: null, path: "src/app.ts" });
    expect(threads[0].replies.map((r) => r.body)).toEqual(["reply"]);
    expect(await codeOf(reader.as.pulls.updateComment({ commentId: root.id, body: "back" }))).toBe("PRECONDITION_FAILED");
    expect(await writer.as.pulls.deleteComment({ commentId: lonely.id })).toMatchObject({ kept: false });
    // the last reply of a deleted root takes the root with it
    await reader2.as.pulls.deleteComment({ commentId: reply.id });
    threads = await writer.as.pulls.comments({ prId: pr.id });
    expect(threads).toEqual([]);
    expect(await codeOf(reader.as.pulls.deleteComment({ commentId: root.id }))).toBe("NOT_FOUND");
  });

  it("resolve / unresolve: the thread's author or write permission, through the root only", async () => {
    const pr = await openPull();
    const root = await reader.as.pulls.addComment({ prId: pr.id, body: "root", path: "src/app.ts", line: 21 });
    const reply = await reader2.as.pulls.addComment({ prId: pr.id, body: "reply", replyToId: root.id });
    const general = await reader.as.pulls.addComment({ prId: pr.id, body: "general" });
    expect(await codeOf(reader2.as.pulls.resolveComment({ commentId: root.id }))).toBe("FORBIDDEN");
    expect(await messageOf(reader.as.pulls.resolveComment({ commentId: reply.id }))).toMatch(
      new RegExp(`resolve its thread through the first comment \\(${root.id}\\)`),
    );
    expect(await messageOf(reader.as.pulls.resolveComment({ commentId: general.id }))).toMatch(/only inline review threads/);
    const resolved = await reader.as.pulls.resolveComment({ commentId: root.id });
    expect(resolved).toMatchObject({ isResolved: true, resolvedBy: { id: reader.user.id } });
    expect(await writer.as.pulls.resolveComment({ commentId: root.id })).toMatchObject({ resolvedBy: { id: reader.user.id } }); // idempotent
    expect((await owner.as.pulls.comments({ prId: pr.id }))[0]).toMatchObject({
      isResolved: true,
      resolvedBy: { username: reader.user.username },
    });
    expect(await writer.as.pulls.unresolveComment({ commentId: root.id })).toMatchObject({
      isResolved: false,
      resolvedBy: null,
      resolvedAt: null,
    });
  });
});

describe("outdated threads", () => {
  it("is outdated when a push changes the commented lines, and only moves when other lines change", async () => {
    const pr = await openPull();
    const onChanged = await reader.as.pulls.addComment({ prId: pr.id, body: "A", path: "src/app.ts", line: 10 });
    const onAdded = await reader.as.pulls.addComment({ prId: pr.id, body: "B", path: "src/app.ts", line: 21 });
    const range = await reader.as.pulls.addComment({ prId: pr.id, body: "C", path: "src/app.ts", startLine: 7, line: 9 });
    const left = await reader.as.pulls.addComment({ prId: pr.id, body: "D", path: "src/app.ts", line: 10, side: "LEFT" });
    const fresh = await reader.as.pulls.comments({ prId: pr.id });
    expect(fresh.map((t) => t.isOutdated)).toEqual([false, false, false, false]);
    // rewrite line 10 again: A is outdated; B, C and the LEFT thread are not
    const v2 = [...FEATURE];
    v2[9] = "changed again 10";
    await push(pr.branch, v2);
    let threads = await reader.as.pulls.getFileComments({ prId: pr.id, path: "src/app.ts" });
    const byBody = () => Object.fromEntries(threads.map((t) => [t.body, [t.isOutdated, t.currentStartLine, t.currentLine]]));
    expect(byBody()).toEqual({ A: [true, null, null], B: [false, null, 21], C: [false, 7, 9], D: [false, null, 10] });
    expect(threads.find((t) => t.id === onChanged.id)!.diffHunk).toMatch(/\+changed 10$/);
    // two lines inserted at the top: nothing else changes, the threads move down
    await push(pr.branch, ["top 1", "top 2", ...v2]);
    threads = await reader.as.pulls.getFileComments({ prId: pr.id, path: "src/app.ts" });
    expect(byBody()).toEqual({ A: [true, null, null], B: [false, null, 23], C: [false, 9, 11], D: [false, null, 10] });
    // a line inserted inside C's range outdates it
    const v4 = ["top 1", "top 2", ...v2.slice(0, 7), "wedge", ...v2.slice(7)];
    await push(pr.branch, v4);
    threads = await reader.as.pulls.getFileComments({ prId: pr.id, path: "src/app.ts" });
    expect(byBody().C).toEqual([true, null, null]);
    expect(byBody().B).toEqual([false, null, 24]);
    expect([onAdded.id, range.id, left.id].every((id) => threads.some((t) => t.id === id))).toBe(true);
  });
});

describe("pulls.addSuggestion", () => {
  it("stores the suggestion on a RIGHT range; LEFT is refused with a clear message", async () => {
    const pr = await openPull();
    const s = await reader.as.pulls.addSuggestion({ prId: pr.id, body: "better:", suggestion: "fixed 10\n", path: "src/app.ts", line: 10 });
    expect(s).toMatchObject({ suggestion: "fixed 10\n", side: "RIGHT", line: 10, path: "src/app.ts", body: "better:" });
    const multi = await reader.as.pulls.addSuggestion({
      prId: pr.id,
      body: "",
      suggestion: "a\nb\n",
      path: "src/app.ts",
      startLine: 20,
      line: 21,
    });
    expect(multi).toMatchObject({ startLine: 20, line: 21 });
    expect(
      await messageOf(
        reader.as.pulls.addSuggestion({ prId: pr.id, body: "", suggestion: "x", path: "src/app.ts", line: 10, side: "LEFT" }),
      ),
    ).toMatch(/side must be RIGHT/);
    expect(await codeOf(reader.as.pulls.addSuggestion({ prId: pr.id, body: "", suggestion: "x", path: "src/app.ts", line: 2 }))).toBe(
      "BAD_REQUEST",
    );
    const [thread] = await writer.as.pulls.comments({ prId: pr.id });
    expect(thread.suggestion).toBe("fixed 10\n");
  });
});

describe("outdated LEFT threads", () => {
  it("a LEFT thread is outdated when the merge base's lines change (the target merged into the source)", async () => {
    const pr = await openPull();
    const left = await reader.as.pulls.addComment({ prId: pr.id, body: "L", path: "src/app.ts", line: 23, side: "LEFT" });
    // main rewrites line 23; the branch merges main (no conflict: the branch changed 10 and added after 20)
    const mainV = [...BASE];
    mainV[22] = "main 23";
    await wt.run("checkout", "--quiet", "main");
    await wt.commit("src/app.ts", file(mainV), "main edits 23");
    await wt.push("main");
    await wt.run("checkout", "--quiet", pr.branch);
    await wt.run("merge", "--quiet", "--no-edit", "main");
    await wt.push(pr.branch);
    await wt.run("checkout", "--quiet", "main");
    const [t] = await reader.as.pulls.comments({ prId: pr.id });
    expect(t).toMatchObject({ id: left.id, side: "LEFT", isOutdated: true });
    main = await wt.sha("main");
  });
});

describe("missing commits", () => {
  it("answers CONFLICT (never 500) when the head is gone, and marks threads on vanished commits outdated", async () => {
    const db = await getDb();
    const counter = await db.repository.update({
      where: { id: repo.id },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    const ghost = "c".repeat(40);
    const pr = await db.pullRequest.create({
      data: {
        repoId: repo.id,
        sourceRepoId: repo.id,
        number: counter.nextIssueNumber - 1,
        title: "ghost",
        sourceBranch: "ghost",
        targetBranch: "main",
        headSha: ghost,
        baseSha: main,
        authorId: writer.user.id,
      },
    });
    expect(await messageOf(reader.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: ghost }))).toMatch(
      /head commit cccccccccc of pull request #\d+ is missing/,
    );
    expect(await codeOf(reader.as.pulls.addComment({ prId: pr.id, body: "x", path: "a.txt", line: 1 }))).toBe("CONFLICT");
    await db.pullRequestComment.create({
      data: {
        pullRequestId: pr.id,
        authorId: reader.user.id,
        body: "old",
        path: "a.txt",
        line: 1,
        endLine: 1,
        side: "RIGHT",
        commitSha: "d".repeat(40),
      },
    });
    await db.pullRequestComment.create({
      data: {
        pullRequestId: pr.id,
        authorId: reader.user.id,
        body: "left",
        path: "a.txt",
        line: 1,
        endLine: 1,
        side: "LEFT",
        commitSha: "d".repeat(40),
      },
    });
    const threads = await reader.as.pulls.comments({ prId: pr.id });
    expect(threads.map((t) => [t.body, t.isOutdated, t.currentLine])).toEqual([
      ["old", true, null],
      ["left", true, null],
    ]);
  });
});
