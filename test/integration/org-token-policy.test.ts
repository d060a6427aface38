/**
 * The organization token policy (docs/orgs.md "Token policy"): `orgs.update {tokenMaxDays}` by
 * owners (1–366, null removes it); a personal access token without an expiry, or living longer
 * than the policy allows, is refused with FORBIDDEN naming the organization and the limit on its
 * repositories — through tRPC (a token actor from resolveActor), the REST API (403) and git smart
 * HTTP (403). Sessions are unaffected, other owners' repositories too, and a private repository
 * stays NOT_FOUND to a token that cannot read it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveActor } from "@/server/auth/actor";
import { handleGitHttp } from "@/server/http/git/smart-http";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { gitClient } from "../fixtures/clients";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-token-policy-"));
const home = path.join(tmpRoot, "home");
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code,
  );
const messageOf = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: Error) => e.message,
  );
/** A tRPC caller acting with personal access token `token`, resolved as a request would be. */
async function tokenCaller(token: string) {
  return callerFor(await resolveActor({ headers: new Headers({ authorization: `Bearer ${token}` }) }));
}

let server: Awaited<ReturnType<typeof startServer>>;
let owner: Profile;
let member: Profile;
let outsider: Profile;
const org = `pol${Math.random().toString(36).slice(2, 8)}`;
let repoId: string;
let personalRepoId: string;
const POLICY = `organization ${org} requires personal access tokens that expire within 30 days`;

beforeAll(async () => {
  server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
  owner = await makeUser("powner");
  member = await makeUser("pmember");
  outsider = await makeUser("poutsider");
  const c = await callerFor(actorOf(owner));
  await c.orgs.create({ name: org });
  await c.orgs.addMember({ name: org, username: member.username });
  repoId = (await c.repos.create({ owner: org, name: "code", isPrivate: true })).id;
  personalRepoId = (await (await callerFor(actorOf(member))).repos.create({ name: "own", isPrivate: true })).id;
});

afterAll(async () => {
  await server.close();
  rmSync(tmpRoot, { recursive: true, force: true });
});

describe("orgs.update tokenMaxDays", () => {
  it("owners set it (1–366) and clear it; members cannot; orgs.get shows it", async () => {
    const c = await callerFor(actorOf(owner));
    expect(await codeOf(c.orgs.update({ name: org, tokenMaxDays: 0 }))).toBe("BAD_REQUEST");
    expect(await codeOf(c.orgs.update({ name: org, tokenMaxDays: 367 }))).toBe("BAD_REQUEST");
    expect(await codeOf(c.orgs.update({ name: org, tokenMaxDays: 1.5 }))).toBe("BAD_REQUEST");
    expect(await codeOf((await callerFor(actorOf(member))).orgs.update({ name: org, tokenMaxDays: 30 }))).toBe("FORBIDDEN");
    expect((await c.orgs.update({ name: org, tokenMaxDays: 366 })).tokenMaxDays).toBe(366);
    expect((await c.orgs.update({ name: org, tokenMaxDays: null })).tokenMaxDays).toBeNull();
    expect((await c.orgs.get({ name: org })).tokenMaxDays).toBeNull();
  });
});

describe("the policy on the organization's repositories", () => {
  it("refuses tokens without expiry or living too long, on tRPC, REST and git HTTP; sessions pass", async () => {
    await (await callerFor(actorOf(owner))).orgs.update({ name: org, tokenMaxDays: 30 });
    const forever = await makeToken(member, ["repo:read", "repo:write"]);
    const long = await makeToken(member, ["repo:read", "repo:write"], 90);
    const ok = await makeToken(member, ["repo:read", "repo:write"], 30);
    const outsiders = await makeToken(outsider, ["repo:read", "repo:write"]);

    // tRPC
    for (const t of [forever, long]) {
      const c = await tokenCaller(t);
      expect(await codeOf(c.repos.branches({ repoId }))).toBe("FORBIDDEN");
      expect(await messageOf(c.repos.get({ owner: org, name: "code" }))).toBe(POLICY);
      // the member's own repositories are not the organization's: no policy there
      expect(await codeOf(c.repos.branches({ repoId: personalRepoId }))).toBe("OK");
    }
    expect(await codeOf((await tokenCaller(ok)).repos.branches({ repoId }))).toBe("OK");
    expect(await codeOf((await callerFor(actorOf(member))).repos.branches({ repoId }))).toBe("OK"); // session
    // read permission first: the private repository stays hidden from an outsider's token
    expect(await codeOf((await tokenCaller(outsiders)).repos.branches({ repoId }))).toBe("NOT_FOUND");

    // REST
    const rest = (t: string) =>
      fetch(`${server.url}/api/v3/repos/${org}/code/commits/main/statuses`, { headers: { authorization: `token ${t}` } });
    const refused = await rest(long);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(POLICY);
    expect((await rest(outsiders)).status).toBe(404);
    expect([200, 404, 422]).toContain((await rest(ok)).status); // past the gate (an empty repository has no main)

    // git smart HTTP
    const basic = (t: string) => ({ authorization: `Basic ${Buffer.from(`x:${t}`).toString("base64")}` });
    const refs = (t: string) => fetch(`${server.url}/${org}/code.git/info/refs?service=git-upload-pack`, { headers: basic(t) });
    const gitRefused = await refs(forever);
    expect(gitRefused.status).toBe(403);
    expect(await gitRefused.text()).toContain(POLICY);
    expect((await refs(ok)).status).toBe(200);
    expect((await refs(outsiders)).status).toBe(404);
    const clone = await gitClient(
      [
        "-c",
        "credential.helper=",
        "clone",
        `http://git:${long}@127.0.0.1:${new URL(server.url).port}/${org}/code.git`,
        path.join(tmpRoot, "c"),
      ],
      { cwd: tmpRoot, home },
    );
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain("expire within 30 days");

    // lifting the policy lets every token in again
    await (await callerFor(actorOf(owner))).orgs.update({ name: org, tokenMaxDays: null });
    expect(await codeOf((await tokenCaller(forever)).repos.branches({ repoId }))).toBe("OK");
  });
});
