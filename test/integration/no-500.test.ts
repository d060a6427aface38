/**
 * No 500s for bad input, and nothing internal in any answer (docs/api.md "Errors: no 500 for bad
 * input, nothing internal in an answer").
 *   - every string field of every procedure (and of the REST token body and sign-up) refuses
 *     lone surrogates and NUL at the edge; no `z.string(` bypasses the helper;
 *   - a real internal error (a repository whose git directory vanished) answers
 *     "internal error (request <id>)" with data.requestId and the x-request-id header, never
 *     git's message with the server path, and the cause is logged under that id;
 *   - percent-escapes in dynamic segments: DELETE /api/tokens/%25 is decoded once, malformed
 *     escapes (tokens, tRPC paths, git paths) are 400.
 */
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Profile } from "@/server/services/users/profile";
import { authenticate } from "@/server/services/users/sign-in";
import { signUpInput } from "@/server/services/users/sign-up";
import { getDb } from "@/server/db";
import { createTokenInput } from "@/server/services/tokens/manage-tokens";
import { repoGitDir } from "@/server/git/paths";
import { errorResponse } from "@/server/http/respond";
import { handleGitHttp } from "@/server/http/git/smart-http";
import * as tokenRoute from "@/app/api/tokens/[id]/route";
import * as gitRoute from "@/app/api/git/[owner]/[repo]/[...path]/route";
import { actorOf, callerFor, makeToken, makeUser, serviceToken, startServer } from "../helpers";
import { procedureStringLeaves, stringLeaves } from "../schema-strings";

const BAD = [
  ["x\ud800", /well-formed Unicode/],
  ["\udc00y", /well-formed Unicode/],
  ["a\u0000b", /NUL/],
] as const;

describe("string inputs", () => {
  it("every string field of every procedure refuses lone surrogates and NUL", () => {
    const all = [
      ...procedureStringLeaves(),
      { path: "signUp (schema)", leaves: stringLeaves(signUpInput) },
      { path: "POST /api/tokens (schema)", leaves: stringLeaves(createTokenInput) },
    ];
    let checked = 0;
    for (const { path: proc, leaves } of all) {
      for (const leaf of leaves) {
        for (const [value, message] of BAD) {
          const r = leaf.schema.safeParse(value);
          expect(r.success, `${proc} ${leaf.path.join(".")} accepted ${JSON.stringify(value)}`).toBe(false);
          expect(r.error?.issues.map((i) => i.message).join("; "), `${proc} ${leaf.path.join(".")}`).toMatch(message);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100 * BAD.length);
  });

  it("no zod string schema in server/ bypasses server/validation/strings.ts", () => {
    const root = path.resolve(import.meta.dirname, "../../server");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name) && !name.endsWith(".test.ts")) files.push(p);
      }
    };
    walk(root);
    const offenders = files
      .filter((f) => !f.endsWith(path.join("validation", "strings.ts")))
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .map((l, i) => [f, i + 1, l] as const),
      )
      .filter(([, , l]) =>
        /\bz\s*\.\s*(string|email|uuid|guid|url|iso|cuid2?|ulid|nanoid|base64|hostname|ipv4|ipv6|e164|jwt|emoji|stringbool|templateLiteral|coerce)\s*[.(]/.test(
          l,
        ),
      )
      .map(([f, n, l]) => `${path.relative(root, f)}:${n}: ${l.trim()}`);
    expect(offenders).toEqual([]);
  });

  it("over HTTP: 400 naming the field, with no database text (tRPC and REST)", async () => {
    const server = await startServer();
    try {
      const user = await makeUser("strings");
      const repo = await (await callerFor(actorOf(user))).repos.create({ name: "s" });
      const pat = await makeToken(user, ["repo:read", "repo:write"]);
      for (const [value, message] of BAD) {
        const res = await fetch(`${server.url}/api/trpc/issues.createLabel`, {
          method: "POST",
          headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
          body: JSON.stringify({ repoId: repo.id, name: value, color: "#aabbcc" }),
        });
        const body = await res.json();
        expect(res.status).toBe(400);
        expect(body.error.message).toMatch(/^name: label name /);
        expect(body.error.message).toMatch(message);
        expect(JSON.stringify(body)).not.toMatch(/prisma|invalid byte sequence|SELECT|INSERT/i);
        const rest = await fetch(`${server.url}/api/tokens`, {
          method: "POST",
          headers: { authorization: `Bearer ${await serviceToken(user)}`, "content-type": "application/json" },
          body: JSON.stringify({ name: value }),
        });
        expect(rest.status).toBe(400);
        expect((await rest.json()).error.message).toMatch(message);
      }
      // Multi-line fields keep newlines and tabs; single-line ones refuse them.
      const caller = await callerFor(actorOf(user));
      const issue = await caller.issues.create({ repoId: repo.id, title: "ok", body: "line 1\n\tline 2" });
      expect(issue.body).toBe("line 1\n\tline 2");
      await expect(caller.issues.create({ repoId: repo.id, title: "a\nb" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(/single line/),
      });
    } finally {
      await server.close();
    }
  });

  it("sign-in with text no account can have is a wrong answer, not a database error", async () => {
    const user = await makeUser("signin");
    const db = await getDb();
    expect(await authenticate(db, user.username, "password123")).toMatchObject({ id: user.id });
    for (const [value] of BAD) {
      expect(await authenticate(db, value, "password123")).toBeNull();
      expect(await authenticate(db, user.username, value)).toBeNull();
    }
    expect(await authenticate(db, `${user.username}\u0007`, "password123")).toBeNull();
  });
});

describe("internal errors", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let user: Profile;
  let pat: string;
  let repoId: string;

  beforeAll(async () => {
    server = await startServer();
    user = await makeUser("internal");
    repoId = (await (await callerFor(actorOf(user))).repos.create({ name: "gone" })).id;
    pat = await makeToken(user, ["repo:read"]);
    rmSync(repoGitDir(user.username, "gone"), { recursive: true, force: true });
  });
  afterAll(() => server?.close());

  it("tRPC: a generic message with the request id, in the body and the header; the cause is logged under it", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await fetch(`${server.url}/api/trpc/repos.branches?input=${encodeURIComponent(JSON.stringify({ repoId }))}`, {
        headers: { authorization: `Bearer ${pat}` },
      });
      const text = await res.text();
      expect(res.status).toBe(500);
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const body = JSON.parse(text);
      expect(body.error.message).toBe(`internal error (request ${id})`);
      expect(body.error.data).toMatchObject({ code: "INTERNAL_SERVER_ERROR", requestId: id });
      expect(text).not.toContain(process.env.DATA_DIR!);
      expect(text).not.toMatch(/git|fatal/);
      const line = logged.mock.calls.find((c) => String(c[0]).startsWith(`[request ${id}] repos.branches`));
      expect(line, "log line for the request").toBeDefined();
      expect(String(line![1])).toMatch(/not a git repository/);
      expect((line![1] as Error).stack).toBeTruthy();
    } finally {
      logged.mockRestore();
    }
  });

  it("a well-formed X-Request-Id is kept, a malformed one replaced", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const url = `${server.url}/api/trpc/repos.branches?input=${encodeURIComponent(JSON.stringify({ repoId }))}`;
      const kept = await fetch(url, { headers: { authorization: `Bearer ${pat}`, "x-request-id": "proxy-42.a:b" } });
      expect(kept.headers.get("x-request-id")).toBe("proxy-42.a:b");
      expect((await kept.json()).error.message).toBe("internal error (request proxy-42.a:b)");
      const replaced = await fetch(url, { headers: { authorization: `Bearer ${pat}`, "x-request-id": "a b%ZZ" } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      // 4xx answers carry the id too, and keep their message.
      const bad = await fetch(`${server.url}/api/trpc/repos.get?input=${encodeURIComponent("{}")}`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("x-request-id")).toBeTruthy();
      expect((await bad.json()).error.message).toMatch(/owner/);
    } finally {
      logged.mockRestore();
    }
  });

  it("REST: errorResponse answers a generic 500 with the request id and logs the cause", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const req = new Request("http://x/api/tokens", { method: "POST", headers: { "x-request-id": "rest-1" } });
      const res = errorResponse(new Error('SELECT "secret" FROM "User"'), req);
      expect(res.status).toBe(500);
      expect(res.headers.get("x-request-id")).toBe("rest-1");
      expect(await res.json()).toEqual({
        error: { code: "INTERNAL_SERVER_ERROR", message: "internal error (request rest-1)", requestId: "rest-1" },
      });
      expect(logged.mock.calls.some((c) => c[0] === "[request rest-1] POST /api/tokens:" && String(c[1]).includes("SELECT"))).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("percent-escapes in dynamic segments", () => {
  it("DELETE /api/tokens/:id decodes once (%25 is the text %) and answers 400 to a malformed escape", async () => {
    const user = await makeUser("pct");
    const auth = { authorization: `Bearer ${await serviceToken(user)}` };
    const call = (segment: string) =>
      tokenRoute.DELETE(new Request(`http://localhost/api/tokens/${segment}`, { method: "DELETE", headers: auth }));
    const pct = await call("%25");
    expect(pct.status).toBe(404);
    expect((await pct.json()).error.message).toBe('no token matches "%"');
    for (const bad of ["%", "%ZZ", "%E0%A4%A", "%ED%A0%80"]) {
      const res = await call(bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.message).toBe("token id has a malformed percent-escape");
    }
    const nul = await call("%00");
    expect(nul.status).toBe(400);
    expect((await nul.json()).error.message).toMatch(/NUL/);
    // The real token is still found through its encoded id.
    const server = await startServer();
    try {
      const created = await (
        await fetch(`${server.url}/api/tokens`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ name: "t" }),
        })
      ).json();
      expect((await call(encodeURIComponent(created.id))).status).toBe(204);
      expect((await fetch(`${server.url}/api/tokens/%25`, { method: "DELETE", headers: auth })).status).toBe(404);
      expect((await fetch(`${server.url}/api/tokens/%ZZ`, { method: "DELETE", headers: auth })).status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it("tRPC and git paths with malformed escapes are 400", async () => {
    const server = await startServer({ git: handleGitHttp });
    try {
      for (const p of ["/api/trpc/%ZZ", "/trpc/%E0%A4%A", "/api/trpc/repos.get%"]) {
        const res = await fetch(server.url + p);
        expect(res.status, p).toBe(400);
        expect((await res.json()).error.message).toMatch(/URL-encoding/);
      }
      // A body over the cap to a malformed path is still a 4xx (413), not a URIError.
      const big = await fetch(`${server.url}/api/trpc/%ZZ`, {
        method: "POST",
        body: "x".repeat(2 << 20),
        headers: { "content-type": "application/json" },
      });
      expect(big.status).toBeGreaterThanOrEqual(400);
      expect(big.status).toBeLessThan(500);
    } finally {
      await server.close();
    }
    const user = await makeUser("gitpct");
    await (await callerFor(actorOf(user))).repos.create({ name: "pub", isPrivate: false });
    // The app's git route as Next calls it; Next may hand a malformed segment over as sent.
    for (const [url, segments] of [
      [`http://localhost/${user.username}/pub.git/%ZZ`, ["%ZZ"]],
      [`http://localhost/api/git/${user.username}/pub/info/%E0%A4%A?service=git-upload-pack`, ["info", "%E0%A4%A"]],
    ] as const) {
      const params = Promise.resolve({ owner: user.username, repo: "pub", path: [...segments] });
      const res = await gitRoute.GET(new Request(url), { params });
      expect(res.status, url).toBe(400);
      expect(await res.text()).toMatch(/malformed percent-escape/);
    }
    const ok = await gitRoute.GET(new Request(`http://localhost/${user.username}/pub.git/info/refs?service=git-upload-pack`), {
      params: Promise.resolve({ owner: user.username, repo: "pub", path: ["info", "refs"] }),
    });
    expect(ok.status).toBe(200);
  });
});
