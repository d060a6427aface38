/**
 * The API as a script uses it, through the real Next server (rewrites, route handlers, next-auth):
 * sign up over tRPC, sign in with the credentials flow to get a session, create a PAT with
 * POST /api/tokens, then call procedures at both /api/trpc and the spec's /trpc with
 * `Authorization: Bearer svc_…`, and clone over git smart HTTP with the token.
 */
import { test, expect } from "./fixtures";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const username = `api${Date.now().toString(36)}`;
const password = "a long enough password";

test("scripts: session → token → tRPC at /trpc and /api/trpc → git clone", async ({ request, baseURL }) => {
  const signUp = await request.post("/api/trpc/users.signUp", { data: { username, password } });
  expect(signUp.status()).toBe(200);
  const userId = (await signUp.json()).result.data.id;

  // next-auth credentials flow: CSRF token, then the callback sets the session cookie
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const signIn = await request.post("/api/auth/callback/credentials", { form: { csrfToken, username, password, json: "true" } });
  expect(signIn.ok()).toBe(true);

  // a cookie-authenticated POST from elsewhere (no Origin, or text/plain) is refused: CSRF
  // (docs/security.md "Cross-site requests (CSRF)")
  expect((await request.post("/api/tokens", { data: { name: "csrf" } })).status()).toBe(403);
  expect((await request.post("/api/tokens", { headers: { origin: "http://evil.example" }, data: { name: "csrf" } })).status()).toBe(403);
  expect(
    (
      await request.post("/api/tokens", {
        headers: { origin: baseURL!, "content-type": "text/plain" },
        data: JSON.stringify({ name: "csrf" }),
      })
    ).status(),
  ).toBe(415);
  const created = await request.post("/api/tokens", {
    headers: { origin: baseURL! },
    data: { name: "script", scopes: ["repo:read", "repo:write", "user:read"] },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();
  expect(token).toMatch(/^svc_/);

  const bearer = { authorization: `Bearer ${token}` };
  // the PAT cannot manage tokens
  expect((await request.get("/api/tokens", { headers: bearer })).status()).toBe(403);

  const me = await request.get("/trpc/users.me", { headers: bearer });
  expect(me.status()).toBe(200);
  expect((await me.json()).result.data).toMatchObject({ id: userId, username });

  const repo = await request.post("/api/trpc/repos.create", { headers: bearer, data: { name: "scripted", isPrivate: true } });
  expect(repo.status()).toBe(200);
  const input = encodeURIComponent(JSON.stringify({ owner: username, name: "scripted" }));
  const got = await request.get(`/trpc/repos.get?input=${input}`, { headers: bearer });
  expect((await got.json()).result.data).toMatchObject({ name: "scripted", isPrivate: true, isEmpty: true });

  // an unknown procedure and bad input are clean 4xx answers
  expect((await request.get("/trpc/repos.nothing", { headers: bearer })).status()).toBe(404);
  const bad = await request.post("/trpc/repos.create", { headers: bearer, data: { name: "" } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toMatch(/name/);

  // git clone of the (empty, private) repository with the token as password
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-api-"));
  const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" } as Record<
    string,
    string | undefined
  > as NodeJS.ProcessEnv;
  try {
    const url = new URL(`/${username}/scripted.git`, baseURL);
    url.username = username;
    url.password = token;
    const r = spawnSync("git", ["-c", "credential.helper=", "clone", url.toString(), path.join(dir, "c")], {
      encoding: "utf8",
      env,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/empty repository/);
    const anonymous = spawnSync(
      "git",
      ["-c", "credential.helper=", "ls-remote", new URL(`/${username}/scripted.git`, baseURL).toString()],
      {
        encoding: "utf8",
        env,
      },
    );
    expect(anonymous.status).not.toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
