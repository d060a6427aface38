/**
 * Pull request records (docs/pulls.md "Records and timeline"): create, list, get, update, close,
 * reopen, timeline, the number space shared with issues, refs/pull/N/head — through the real router
 * on real pushed repositories.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { readRef } from "@/server/git/pull-refs";
import { callerFor } from "../helpers";
import {
  codeOf,
  git,
  member,
  messageOf,
  remoteOf,
  seededWorkTree,
  startGitServer,
  type Member,
  type Server,
  type WorkTree,
} from "./pulls-fixtures";

let server: Server;
let owner: Member, writer: Member, reader: Member, reader2: Member, stranger: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
let main: string;

/** Pushes a new branch `name` off main with one commit; returns its tip. */
async function branch(name: string, file = `${name}.txt`): Promise<string> {
  await wt.run("checkout", "--quiet", "-B", name, "main");
  const sha = await wt.commit(file, `${name}\n`);
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  return sha;
}

function input(sourceBranch: string, headSha: string, extra: Record<string, unknown> = {}) {
  return { repoId: repo.id, title: `Add ${sourceBranch}`, sourceBranch, targetBranch: "main", headSha, baseSha: main, ...extra };
}

beforeAll(async () => {
  server = await startGitServer();
  [owner, writer, reader, reader2, stranger] = await Promise.all([
    member("own"),
    member("wri"),
    member("rea"),
    member("reb"),
    member("str"),
  ]);
  repo = await owner.as.repos.create({ name: `p${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: writer.user.username, role: "write" });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: reader.user.username, role: "read" });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: reader2.user.username, role: "read" });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  main = await wt.sha("main");
});

afterAll(async () => {
  await server.close();
});

describe("pulls.create", () => {
  it("opens a pull request with the spec's shape, a shared number, refs/pull/N/head and an opened event", async () => {
    const head = await branch("feature-a");
    const issue = await owner.as.issues.create({ repoId: repo.id, title: "an issue first" });
    const pr = await writer.as.pulls.create(input("feature-a", head, { body: "why" }));
    expect(pr).toMatchObject({
      title: "Add feature-a",
      body: "why",
      state: "open",
      sourceBranch: "feature-a",
      targetBranch: "main",
      headSha: head,
      baseSha: main,
      authorId: writer.user.id,
      author: { id: writer.user.id, username: writer.user.username, name: null },
      labels: [],
      isDraft: false,
      mergedAt: null,
      closedAt: null,
    });
    expect(pr.number).toBe(issue.number + 1);
    expect(pr.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await readRef(repoGitDir(owner.user.username, repo.name), `refs/pull/${pr.number}/head`)).toBe(head);
    // the shared counter: the next issue takes the number after the pull request's
    const next = await owner.as.issues.create({ repoId: repo.id, title: "an issue after" });
    expect(next.number).toBe(pr.number + 1);
    const timeline = await writer.as.pulls.timeline({ prId: pr.id });
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({ type: "opened", actor: { id: writer.user.id }, data: { headSha: head, baseSha: main } });
  });

  it("answers issues.get for a pull request's number with a clear NOT_FOUND, and pulls.get for an issue's", async () => {
    const head = await branch("feature-b");
    const pr = await writer.as.pulls.create(input("feature-b", head));
    const err = owner.as.issues.get({ repoId: repo.id, number: pr.number });
    expect(await codeOf(err)).toBe("NOT_FOUND");
    expect(await messageOf(owner.as.issues.get({ repoId: repo.id, number: pr.number }))).toMatch(
      new RegExp(`#${pr.number} is a pull request`),
    );
    const issue = await owner.as.issues.create({ repoId: repo.id, title: "plain" });
    expect(await messageOf(owner.as.pulls.get({ repoId: repo.id, number: issue.number }))).toMatch(/pull request #\d+ not found/);
  });

  it("refuses a moved branch, unknown branches, the same branch, and a second open pull request for the same source → target", async () => {
    const head = await branch("feature-c");
    expect(await messageOf(writer.as.pulls.create(input("feature-c", main)))).toMatch(/the branch moved/);
    expect(await codeOf(writer.as.pulls.create(input("feature-c", main)))).toBe("CONFLICT");
    expect(await codeOf(writer.as.pulls.create(input("nope", head)))).toBe("BAD_REQUEST");
    expect(await messageOf(writer.as.pulls.create(input("feature-c", head, { targetBranch: "gone" })))).toMatch(
      /branch "gone" does not exist/,
    );
    expect(await messageOf(writer.as.pulls.create(input("main", main)))).toMatch(/same branch/);
    expect(await codeOf(writer.as.pulls.create(input("feature-c", head, { baseSha: "a".repeat(40) })))).toBe("BAD_REQUEST");
    expect(await codeOf(writer.as.pulls.create(input("feature-c", head, { title: "" })))).toBe("BAD_REQUEST");
    expect(await codeOf(writer.as.pulls.create(input("feature-c", head, { title: "x".repeat(257) })))).toBe("BAD_REQUEST");
    expect(await codeOf(writer.as.pulls.create(input("feature-c", head, { headSha: "HEAD" })))).toBe("BAD_REQUEST");
    const first = await writer.as.pulls.create(input("feature-c", head));
    const dup = writer.as.pulls.create(input("feature-c", head));
    expect(await messageOf(dup)).toMatch(new RegExp(`#${first.number} is already open`));
    expect(await codeOf(writer.as.pulls.create(input("feature-c", head)))).toBe("CONFLICT");
  });

  it("lets read-level members open pull requests (as GitHub), hides private repositories from strangers", async () => {
    const head = await branch("feature-d");
    const pr = await reader.as.pulls.create(input("feature-d", head, { isDraft: true }));
    expect(pr).toMatchObject({ isDraft: true, authorId: reader.user.id });
    expect(await codeOf(stranger.as.pulls.create(input("feature-d", head)))).toBe("NOT_FOUND");
    expect(await codeOf((await callerFor(null)).pulls.create(input("feature-d", head)))).toBe("NOT_FOUND");
    expect(await codeOf(stranger.as.pulls.list({ repoId: repo.id }))).toBe("NOT_FOUND");
    expect(await codeOf(stranger.as.pulls.timeline({ prId: pr.id }))).toBe("NOT_FOUND");
  });
});

describe("pulls.list and pulls.get", () => {
  it("lists newest first with author and labels, filters by state and author, pages", async () => {
    const all = await owner.as.pulls.list({ repoId: repo.id, limit: 100 });
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((p) => p.number)).toEqual([...all.map((p) => p.number)].sort((a, b) => b - a));
    const label = await owner.as.issues.createLabel({ repoId: repo.id, name: "needs-review", color: "#00ff00" });
    const label2 = await owner.as.issues.createLabel({ repoId: repo.id, name: "api", color: "#0000ff" });
    const db = await getDb();
    await db.pullRequestLabel.createMany({
      data: [
        { pullRequestId: all[0].id, labelId: label.id },
        { pullRequestId: all[0].id, labelId: label2.id },
      ],
    });
    const [top] = await owner.as.pulls.list({ repoId: repo.id, limit: 1 });
    expect(top.labels).toEqual([
      { id: label2.id, name: "api", color: "#0000ff" },
      { id: label.id, name: "needs-review", color: "#00ff00" },
    ]);
    expect(top.author).toMatchObject({ username: expect.any(String) });
    const mine = await owner.as.pulls.list({ repoId: repo.id, authorId: reader.user.id });
    expect(mine.length).toBe(1);
    expect(mine[0].authorId).toBe(reader.user.id);
    const page2 = await owner.as.pulls.list({ repoId: repo.id, limit: 2, offset: 2 });
    expect(page2.map((p) => p.id)).toEqual(all.slice(2, 4).map((p) => p.id));
    expect(await owner.as.pulls.list({ repoId: repo.id, state: "merged" })).toEqual([]);
    expect(await codeOf(owner.as.pulls.list({ repoId: repo.id, limit: 101 }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.as.pulls.list({ repoId: repo.id, state: "draft" as "open" }))).toBe("BAD_REQUEST");
  });

  it("gets by number with requestedReviewers, no stack, no sourceRepo for same-repository pull requests", async () => {
    const [pr] = await owner.as.pulls.list({ repoId: repo.id, limit: 1 });
    const db = await getDb();
    await db.pullRequestReviewRequest.create({ data: { pullRequestId: pr.id, reviewerId: reader.user.id } });
    const got = await reader.as.pulls.get({ repoId: repo.id, number: pr.number });
    expect(got).toMatchObject({
      id: pr.id,
      number: pr.number,
      requestedReviewers: 1,
      sourceRepo: null,
      mergedBy: null,
      mergeSha: null,
      sourceDeleted: false,
    });
    expect(got.labels.length).toBe(2);
    expect("stack" in got).toBe(false);
  });
});

describe("pulls.update, close, reopen", () => {
  it("lets the author or a writer edit, refuses other read-level members, and records each change", async () => {
    const head = await branch("feature-e");
    const pr = await reader.as.pulls.create(input("feature-e", head));
    await reader.as.pulls.update({ prId: pr.id, title: "Better title", isDraft: true });
    await writer.as.pulls.update({ prId: pr.id, body: "details", isDraft: false });
    expect(await codeOf(reader2.as.pulls.update({ prId: pr.id, title: "mine now" }))).toBe("FORBIDDEN");
    expect(await codeOf(reader2.as.pulls.close({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await codeOf(stranger.as.pulls.update({ prId: pr.id, title: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf(writer.as.pulls.update({ prId: pr.id, title: "" }))).toBe("BAD_REQUEST");
    const same = await writer.as.pulls.update({ prId: pr.id, title: "Better title" }); // unchanged: no event
    expect(same).toMatchObject({ title: "Better title", body: "details", isDraft: false });
    const types = (await owner.as.pulls.timeline({ prId: pr.id })).map((e) => [e.type, e.data.field ?? null]);
    expect(types).toEqual([
      ["opened", null],
      ["edited", "title"],
      ["converted_to_draft", null],
      ["edited", "body"],
      ["ready_for_review", null],
    ]);
    const edited = (await owner.as.pulls.timeline({ prId: pr.id }))[1];
    expect(edited.data).toEqual({ field: "title", from: "Add feature-e", to: "Better title" });
  });

  it("closes and reopens (author), refuses reopening an open or merged one or one whose branch is gone", async () => {
    const head = await branch("feature-f");
    const pr = await reader.as.pulls.create(input("feature-f", head));
    const closed = await reader.as.pulls.close({ prId: pr.id });
    expect(closed.state).toBe("closed");
    expect(closed.closedAt).not.toBeNull();
    expect(await codeOf(reader.as.pulls.close({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf(reader.as.pulls.update({ prId: pr.id, isDraft: true }))).toBe("PRECONDITION_FAILED");
    const reopened = await reader.as.pulls.reopen({ prId: pr.id });
    expect(reopened).toMatchObject({ state: "open", closedAt: null });
    expect(await codeOf(reader.as.pulls.reopen({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
    // a merged one cannot be reopened or edited
    const db = await getDb();
    await db.pullRequest.update({ where: { id: pr.id }, data: { state: "merged", mergedAt: new Date() } });
    expect(await codeOf(owner.as.pulls.reopen({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf(owner.as.pulls.update({ prId: pr.id, title: "late" }))).toBe("PRECONDITION_FAILED");
    // source branch deleted while closed
    const head2 = await branch("feature-g");
    const pr2 = await writer.as.pulls.create(input("feature-g", head2));
    await writer.as.pulls.close({ prId: pr2.id });
    await wt.push(":feature-g");
    expect(await messageOf(writer.as.pulls.reopen({ prId: pr2.id }))).toMatch(/no longer exists/);
    const types = (await owner.as.pulls.timeline({ prId: pr.id })).map((e) => e.type);
    expect(types).toEqual(["opened", "closed", "reopened"]);
  });

  it("reopens at the branch's new tip when it moved while closed", async () => {
    const head = await branch("feature-h");
    const pr = await writer.as.pulls.create(input("feature-h", head));
    await writer.as.pulls.close({ prId: pr.id });
    await wt.run("checkout", "--quiet", "feature-h");
    const tip = await wt.commit("h2.txt", "more\n");
    await wt.push("feature-h");
    await wt.run("checkout", "--quiet", "main");
    expect((await writer.as.pulls.get({ repoId: repo.id, number: pr.number })).headSha).toBe(head); // closed: not followed
    const reopened = await writer.as.pulls.reopen({ prId: pr.id });
    expect(reopened.headSha).toBe(tip);
    expect(await readRef(repoGitDir(owner.user.username, repo.name), `refs/pull/${pr.number}/head`)).toBe(tip);
    const last = (await writer.as.pulls.timeline({ prId: pr.id })).at(-1);
    expect(last).toMatchObject({ type: "pushed", data: { commits: 1, before: head, after: tip } });
  });
});

describe("concurrent creates", () => {
  it("of the same source → target: exactly one opens, the rest are CONFLICT, no stray refs; numbers stay distinct alongside issues", async () => {
    const head = await branch("race");
    const results = await Promise.allSettled([
      ...Array.from({ length: 8 }, () => writer.as.pulls.create(input("race", head))),
      ...Array.from({ length: 4 }, (_, i) => owner.as.issues.create({ repoId: repo.id, title: `racing issue ${i}` })),
    ]);
    const pulls = results.slice(0, 8);
    const won = pulls
      .filter((r) => r.status === "fulfilled")
      .map((r) => (r as PromiseFulfilledResult<{ number: number; id: string }>).value);
    expect(won).toHaveLength(1);
    for (const r of pulls.filter((x) => x.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
    const issues = results.slice(8).map((r) => (r as PromiseFulfilledResult<{ number: number }>).value.number);
    expect(new Set([won[0].number, ...issues]).size).toBe(5);
    const db = await getDb();
    expect(await db.pullRequest.count({ where: { repoId: repo.id, sourceBranch: "race" } })).toBe(1);
    const refs = (await git(wt.dir, "ls-remote", "origin", "refs/pull/*")).split("\n").filter(Boolean);
    const numbers = (await db.pullRequest.findMany({ where: { repoId: repo.id }, select: { number: true } }))
      .map((p) => `refs/pull/${p.number}/head`)
      .sort();
    expect(refs.map((l) => l.split("\t")[1]).sort()).toEqual(numbers);
  });
});
