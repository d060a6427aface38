/**
 * Router-wide property test (docs/api.md "Errors: no 500 for bad input, nothing internal in an
 * answer"): generated bad inputs sent to
 * every procedure, by an owner with every scope, never produce a server error
 * (INTERNAL_SERVER_ERROR / 500): each is refused with a 4xx code or handled. Inputs mix the
 * owner's real repository id with arbitrary values under the field names procedures use,
 * including lone surrogates, NUL and control characters, 1 MB strings and malformed
 * percent-escapes (test/fuzz-cases.ts). Then the same over real HTTP: tRPC, the REST token
 * endpoints and git smart HTTP (through the Next route handler), with garbage paths, queries,
 * bodies and headers; no 5xx and no internals in any body. bench/fuzz.bench.ts runs these
 * properties with ≥ 10,000 cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, serviceToken, startServer } from "../helpers";
import { allProcedures, outcome } from "../procedures";
import { procedureStringLeaves } from "../schema-strings";
import { gitCases, gitViaRoute, problemOf, procedureInput, restCases, send, trpcCases, type Fixture, type HttpCase } from "../fuzz-cases";

let owner: Profile;
let repoId: string;
let ownerName: string;

beforeAll(async () => {
  owner = await makeUser("prop");
  ownerName = owner.username;
});

async function freshRepo(): Promise<string> {
  const caller = await callerFor(actorOf(owner));
  const repo = await caller.repos.create({ name: `r${Math.random().toString(36).slice(2, 10)}` });
  return repo.id;
}

const targets = new Map(procedureStringLeaves().map((p) => [p.path, p.leaves.map((l) => l.path)]));

describe("no procedure answers a server error to bad input", () => {
  for (const { path } of allProcedures()) {
    it(path, async () => {
      repoId = await freshRepo();
      const caller = await callerFor(actorOf(owner));
      const input = procedureInput(repoId, ownerName, targets.get(path) ?? []);
      await fc.assert(
        fc.asyncProperty(input, async (value) => {
          const code = await outcome(caller, path, value);
          expect(code, `${path}(${JSON.stringify(value)?.slice(0, 200)})`).not.toBe("INTERNAL_SERVER_ERROR");
        }),
        { numRuns: 30 },
      );
    });
  }
});

describe("over HTTP, malformed requests get 4xx JSON errors", () => {
  it("bad JSON, wrong types and unknown procedures", async () => {
    const server = await startServer();
    try {
      const badJson = await fetch(`${server.url}/api/trpc/repos.create`, {
        method: "POST",
        body: "{",
        headers: { "content-type": "application/json" },
      });
      expect(badJson.status).toBeGreaterThanOrEqual(400);
      expect(badJson.status).toBeLessThan(500);
      const wrongType = await fetch(`${server.url}/api/trpc/repos.get?input=${encodeURIComponent(JSON.stringify({ owner: 5 }))}`);
      expect(wrongType.status).toBe(400);
      const body = await wrongType.json();
      expect(body.error.message).toMatch(/owner/);
      expect((await fetch(`${server.url}/api/trpc/nope.nothing`)).status).toBe(404);
      const user = await makeUser("http");
      const pat = await makeToken(user, ["user:read"]);
      const me = await fetch(`${server.url}/trpc/users.me`, { headers: { authorization: `Bearer ${pat}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).result.data.username).toBe(user.username);
      const batch = await fetch(`${server.url}/api/trpc/users.me,repos.list?batch=1&input=${encodeURIComponent("{}")}`, {
        headers: { authorization: `Bearer ${pat}` },
      });
      expect((await batch.json()).map((r: { result?: unknown }) => Boolean(r.result))).toEqual([true, true]);
      const badToken = await fetch(`${server.url}/trpc/users.me`, { headers: { authorization: "Bearer svc_AAAAAAAA_" + "b".repeat(40) } });
      expect(badToken.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe("over HTTP, generated garbage never gets a 5xx nor shows internals", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let fixture: Fixture;

  beforeAll(async () => {
    server = await startServer({ git: gitViaRoute });
    const user = await makeUser("fuzz");
    const repo = await (await callerFor(actorOf(user))).repos.create({ name: "fuzz" });
    fixture = {
      owner: user.username,
      repo: "fuzz",
      repoId: repo.id,
      pat: await makeToken(user, ["repo:read", "repo:write", "repo:admin", "user:read", "user:write"]),
      restAuth: { authorization: `Bearer ${await serviceToken(user)}` },
      procedures: allProcedures(),
    };
  });
  afterAll(() => server?.close());

  const run = async (cases: fc.Arbitrary<HttpCase>, numRuns: number) => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const o = await send(server.url, c);
        expect(problemOf(c, o, [process.env.DATA_DIR ?? ""]), `${c.method} ${c.path.slice(0, 200)}`).toBeNull();
      }),
      { numRuns },
    );
  };

  it("tRPC: ?input=, bodies, batches, garbage paths and query strings", () => run(trpcCases(fixture), 400));
  it("REST /api/tokens: bodies and DELETE segments", () => run(restCases(fixture), 200));
  it("git smart HTTP: paths, service=, names and bodies", () => run(gitCases(fixture), 200));
});
