/**
 * Commit statuses and check runs through svc's GitHub-compatible REST API (/api/v3) over real HTTP,
 * with real git (issue #23; docs/api.md "REST: commit statuses and check runs").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { pullChannel, subscribe } from "@/server/events/bus";
import { makeToken } from "../helpers";
import { team, type Team } from "./pulls-fixtures";

let t: Team;
let api: string;
let sha: string;

beforeAll(async () => {
  t = await team("st");
  api = `${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}`;
  sha = await t.wt.sha("HEAD");
  await t.wt.run("tag", "v1");
  await t.wt.push("v1");
});
afterAll(() => t.server.close());

async function call(method: string, path: string, auth: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: "application/vnd.github+json" };
  if (auth) headers.authorization = auth;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${api}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & Record<string, never> };
}
const bearer = (token: string) => `Bearer ${token}`;
const ghToken = (token: string) => `token ${token}`;

describe("REST commit statuses", () => {
  it("creates a status with either header form, in GitHub's shape", async () => {
    const a = await call("POST", `/statuses/${sha}`, bearer(t.writer.token), {
      state: "pending",
      target_url: "https://ci.example/build/1",
      description: "building",
      context: "ci/build",
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      state: "pending",
      description: "building",
      target_url: "https://ci.example/build/1",
      context: "ci/build",
      creator: { login: t.writer.user.username, type: "User" },
    });
    expect(typeof a.body.id).toBe("number");
    expect(a.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const b = await call("POST", `/statuses/${sha}`, ghToken(t.owner.token), { state: "success" });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ context: "default", description: null, target_url: null, creator: { login: t.owner.user.username } });
  });

  it("authorizes: reader 403, scope 403, stranger and anonymous 404 on a private repository, bad token 401", async () => {
    const post = (auth: string | null) => call("POST", `/statuses/${sha}`, auth, { state: "success" });
    expect((await post(bearer(t.reader.token))).status).toBe(403);
    const readOnly = await post(ghToken(await makeToken(t.owner.user, ["repo:read"])));
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toContain("repo:write");
    expect((await post(bearer(t.stranger.token))).body).toMatchObject({ message: "Not Found" });
    expect((await post(bearer(t.stranger.token))).status).toBe(404);
    expect((await post(null)).status).toBe(401);
    expect((await post("token svc_nope")).status).toBe(401);
    expect((await call("GET", `/commits/${sha}/status`, null)).status).toBe(404);
    expect((await call("GET", `/commits/${sha}/statuses`, bearer(t.stranger.token))).status).toBe(404);
    expect((await call("GET", `/commits/${sha}/status`, bearer(t.reader.token))).status).toBe(200);
  });

  it("validates like GitHub: 422 with errors, 422 for an unknown commit, 400 for bad JSON, 413 over 1 MiB", async () => {
    const bad = await call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "done", target_url: "javascript:alert(1)" });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Validation Failed");
    expect((bad.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(["state", "target_url"]);
    const long = await call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "success", description: "x".repeat(141) });
    expect(long.status).toBe(422);
    const missing = await call("POST", `/statuses/${"a".repeat(40)}`, bearer(t.writer.token), { state: "success" });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe(`No commit found for SHA: ${"a".repeat(40)}`);
    expect((await call("POST", `/statuses/${sha}`, bearer(t.writer.token), "{nope")).status).toBe(400);
    expect(
      (await call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "success", description: "y".repeat(2_000_000) })).status,
    ).toBe(413);
    expect((await call("GET", `/nothing/here`, bearer(t.writer.token))).status).toBe(404);
  });

  it("combines the latest status per context: none → pending, any pending → pending, any failure/error → failure, else success", async () => {
    const head = await t.wt.commit("a.txt", "a\n");
    await t.wt.push("main");
    const combined = async () => (await call("GET", `/commits/${head}/status`, bearer(t.reader.token))).body;
    const post = (state: string, context: string) => call("POST", `/statuses/${head}`, bearer(t.writer.token), { state, context });
    expect(await combined()).toMatchObject({ state: "pending", total_count: 0, sha: head, statuses: [] });
    await post("success", "build");
    await post("pending", "lint");
    expect((await combined()).state).toBe("pending");
    await post("success", "lint");
    const ok = await combined();
    expect(ok).toMatchObject({
      state: "success",
      total_count: 2,
      repository: { full_name: `${t.owner.user.username}/${t.repo.name}`, private: true },
    });
    await post("error", "build");
    expect((await combined()).state).toBe("failure");
    await post("success", "build"); // latest per context wins
    expect((await combined()).state).toBe("success");
    await post("failure", "lint");
    expect((await combined()).state).toBe("failure");
    const list = await call("GET", `/commits/${head}/statuses`, bearer(t.reader.token));
    expect((list.body as unknown as { state: string; context: string }[]).map((s) => `${s.context}:${s.state}`)).toEqual([
      "lint:failure",
      "build:success",
      "build:error",
      "lint:success",
      "lint:pending",
      "build:success",
    ]);
  });

  it("resolves {ref} as a sha, a short sha, a branch or a tag; unknown refs are 422", async () => {
    const main = await t.wt.sha("main");
    for (const ref of ["main", main, main.slice(0, 10)])
      expect((await call("GET", `/commits/${ref}/status`, bearer(t.reader.token))).body.sha).toBe(main);
    expect((await call("GET", `/commits/v1/status`, bearer(t.reader.token))).body.sha).toBe(sha);
    expect((await call("GET", `/commits/v1/statuses`, bearer(t.reader.token))).status).toBe(200);
    expect((await call("GET", `/commits/nope/status`, bearer(t.reader.token))).status).toBe(422);
  });

  it("refuses the 1,001st status of one sha and context", async () => {
    const db = await getDb();
    await db.commitStatus.createMany({
      data: Array.from({ length: 1000 }, () => ({ repoId: t.repo.id, sha, state: "pending", context: "flood" })),
    });
    const r = await call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "success", context: "flood" });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.errors)).toContain("maximum number of statuses");
    expect((await call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "success", context: "other" })).status).toBe(201);
  });

  it("lets exactly one of several concurrent posts take the last place before the limit", async () => {
    const db = await getDb();
    await db.commitStatus.createMany({
      data: Array.from({ length: 999 }, () => ({ repoId: t.repo.id, sha, state: "pending", context: "race" })),
    });
    const posts = await Promise.all(
      Array.from({ length: 6 }, () => call("POST", `/statuses/${sha}`, bearer(t.writer.token), { state: "success", context: "race" })),
    );
    expect(posts.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await db.commitStatus.count({ where: { repoId: t.repo.id, sha, context: "race" } })).toBe(1000);
  });
});

describe("REST check runs", () => {
  it("creates, updates, gets and lists check runs; they count as contexts in svc's combined view", async () => {
    const head = await t.wt.commit("b.txt", "b\n");
    await t.wt.push("main");
    const created = await call("POST", `/check-runs`, ghToken(t.writer.token), {
      name: "tests",
      head_sha: head,
      status: "in_progress",
      details_url: "https://ci.example/run/7",
      output: { title: "Running", summary: "1 of 3" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "tests",
      head_sha: head,
      status: "in_progress",
      conclusion: null,
      details_url: "https://ci.example/run/7",
    });
    const id = created.body.id as number;
    expect((await call("PATCH", `/check-runs/${id}`, bearer(t.writer.token), { status: "completed" })).status).toBe(422);
    expect((await call("PATCH", `/check-runs/${id}`, bearer(t.reader.token), { conclusion: "success" })).status).toBe(403);
    const done = await call("PATCH", `/check-runs/${id}`, bearer(t.writer.token), { conclusion: "failure", output: { title: "1 failed" } });
    expect(done.body).toMatchObject({ status: "completed", conclusion: "failure", output: { title: "1 failed", summary: "1 of 3" } });
    expect(done.body.completed_at).toMatch(/Z$/);
    expect((await call("GET", `/check-runs/${id}`, bearer(t.reader.token))).body).toMatchObject({ id, conclusion: "failure" });
    expect((await call("GET", `/check-runs/${id}`, bearer(t.stranger.token))).status).toBe(404);
    expect((await call("GET", `/check-runs/999999`, bearer(t.reader.token))).status).toBe(404);
    expect((await call("POST", `/check-runs`, bearer(t.writer.token), { name: "x", head_sha: "main" })).status).toBe(422);
    expect((await call("POST", `/check-runs`, bearer(t.writer.token), { name: "x", head_sha: head, conclusion: "maybe" })).status).toBe(
      422,
    );
    const badTime = await call("POST", `/check-runs`, bearer(t.writer.token), { name: "x", head_sha: head, started_at: "yesterday" });
    expect(badTime.status).toBe(422);

    // a second run of "tests" (a re-run) and another name
    await call("POST", `/check-runs`, bearer(t.writer.token), { name: "tests", head_sha: head, conclusion: "success" });
    await call("POST", `/check-runs`, bearer(t.writer.token), { name: "lint", head_sha: head });
    const latest = await call("GET", `/commits/main/check-runs`, bearer(t.reader.token));
    expect(latest.body.total_count).toBe(2);
    expect((latest.body.check_runs as unknown as { name: string; status: string }[]).map((c) => `${c.name}:${c.status}`)).toEqual([
      "lint:queued",
      "tests:completed",
    ]);
    expect((await call("GET", `/commits/${head}/check-runs?filter=all`, bearer(t.reader.token))).body.total_count).toBe(3);
    expect((await call("GET", `/commits/${head}/check-runs?check_name=lint`, bearer(t.reader.token))).body.total_count).toBe(1);

    // svc's combined view (tRPC statuses.combined / forCommits): check runs are contexts by name
    await call("POST", `/statuses/${head}`, bearer(t.writer.token), {
      state: "success",
      context: "deploy",
      target_url: "https://ci.example/d",
    });
    const view = await t.reader.as.statuses.combined({ repoId: t.repo.id, sha: head });
    expect(view.state).toBe("pending");
    expect(view.contexts.map((c) => `${c.kind}:${c.context}:${c.state}`)).toEqual([
      "status:deploy:success",
      "check:lint:pending",
      "check:tests:success",
    ]);
    expect(view.counts).toEqual({ success: 2, failure: 0, pending: 1 });
    await call("POST", `/check-runs`, bearer(t.writer.token), { name: "lint", head_sha: head, conclusion: "timed_out" });
    const many = await t.reader.as.statuses.forCommits({ repoId: t.repo.id, shas: [head, sha] });
    expect(many[head]).toMatchObject({ state: "failure", counts: { success: 2, failure: 1, pending: 0 } });
    expect(many[sha]).toMatchObject({ state: "pending", counts: { success: 3, failure: 0, pending: 2 } }); // ci/build and flood pending; default, other, race success
    await expect(t.stranger.as.statuses.combined({ repoId: t.repo.id, sha: head })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("live updates", () => {
  it("tells the open pull request whose head the commit is that a status arrived", async () => {
    await t.wt.run("checkout", "--quiet", "-b", "live-status", "main");
    const head = await t.wt.commit("live.txt", "live\n");
    await t.wt.push("live-status");
    await t.wt.run("checkout", "--quiet", "main");
    const pr = await t.owner.as.pulls.create({
      repoId: t.repo.id,
      title: "Live",
      sourceBranch: "live-status",
      targetBranch: "main",
      headSha: head,
      baseSha: await t.wt.sha("main"),
    });
    const seen: string[] = [];
    const stop = subscribe(pullChannel(pr.id), (e) => seen.push(e.type));
    try {
      expect((await call("POST", `/statuses/${head}`, bearer(t.writer.token), { state: "pending", context: "ci" })).status).toBe(201);
      await expect.poll(() => seen).toContain("status");
    } finally {
      stop();
    }
  });
});
