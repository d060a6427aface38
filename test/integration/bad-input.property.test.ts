/**
 * Router-wide property test (issue #2 part 8): generated bad inputs sent to every procedure, by
 * an owner with every scope, never produce a server error (INTERNAL_SERVER_ERROR / 500): each is
 * refused with a 4xx code or handled. Inputs mix the owner's real repository id with arbitrary
 * values under the field names procedures use.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Profile } from "@/server/services/users";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { allProcedures, outcome } from "../procedures";

const FIELDS = [
  "repoId", "owner", "name", "ref", "path", "limit", "offset", "username", "role", "description", "isPrivate",
  "defaultBranch", "password", "email", "number", "title", "body", "state", "status", "priority", "dueDate",
  "estimate", "labels", "labelId", "issueId", "commentId", "templateId", "viewId", "parentNumber", "sourceNumber",
  "targetNumber", "type", "reason", "filters", "sort", "color", "days", "project", "cycle", "prId", "sessionId", "changeId",
];

const nasty = fc.oneof(
  fc.anything(),
  fc.constantFrom("", "-", "--upload-pack=touch /tmp/x", "../../etc/passwd", "a\0b", "x".repeat(5000), "HEAD", "main~1", "refs/heads/../x", "0", "-1", "NaN", "🙂", "\n"),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e12, Number.MAX_SAFE_INTEGER, 1.5, null, true),
  fc.uuid(),
);

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

describe("no procedure answers a server error to bad input", () => {
  for (const { path } of allProcedures()) {
    it(path, async () => {
      repoId = await freshRepo();
      const caller = await callerFor(actorOf(owner));
      const input = fc.oneof(
        nasty,
        fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 6 }),
        fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 6 }).map((o) => ({ ...o, repoId })),
        fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 6 }).map((o) => ({ ...o, owner: ownerName, name: "x" })),
      );
      await fc.assert(
        fc.asyncProperty(input, async (value) => {
          const code = await outcome(caller, path, value);
          expect(code, `${path}(${JSON.stringify(value)?.slice(0, 200)})`).not.toBe("INTERNAL_SERVER_ERROR");
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe("over HTTP, malformed requests get 4xx JSON errors", () => {
  it("bad JSON, wrong types and unknown procedures", async () => {
    const server = await startServer();
    try {
      const badJson = await fetch(`${server.url}/api/trpc/repos.create`, { method: "POST", body: "{", headers: { "content-type": "application/json" } });
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
      const batch = await fetch(`${server.url}/api/trpc/users.me,repos.list?batch=1&input=${encodeURIComponent("{}")}`, { headers: { authorization: `Bearer ${pat}` } });
      expect((await batch.json()).map((r: { result?: unknown }) => Boolean(r.result))).toEqual([true, true]);
      const badToken = await fetch(`${server.url}/trpc/users.me`, { headers: { authorization: "Bearer svc_AAAAAAAA_" + "b".repeat(40) } });
      expect(badToken.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
