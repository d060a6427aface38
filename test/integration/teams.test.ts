/**
 * Teams (docs/orgs.md "Teams"): the teams.* procedures through the real router — who may manage
 * and read teams, the slug rule, membership needing organization membership, repositories of the
 * organization only — and the permission a team grants in the one authorization query (highest of
 * the sources; leaving the organization removes team memberships; deleting a team removes its grants).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import type { Profile } from "@/server/services/users/profile";
import { teamSlug } from "@/server/services/teams/model";
import { actorOf, callerFor, makeUser } from "../helpers";

let alice: Profile; // organization owner
let bob: Profile; // member, put on teams
let carol: Profile; // outsider
let dave: Profile; // member, on no team
let n = 0;
const orgName = () => `torg${++n}${Math.random().toString(36).slice(2, 6)}`;
const as = (u: Profile, scopes?: Parameters<typeof actorOf>[1]) => callerFor(actorOf(u, scopes));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? "ERROR",
  );

/** An organization owned by alice with members bob and dave, base permission `base`, and a private repository "app". */
async function makeOrg(base: "none" | "read" | "write" = "none") {
  const org = orgName();
  const a = await as(alice);
  await a.orgs.create({ name: org });
  await a.orgs.update({ name: org, basePermission: base });
  await a.orgs.addMember({ name: org, username: bob.username });
  await a.orgs.addMember({ name: org, username: dave.username });
  const repo = await a.repos.create({ owner: org, name: "app", isPrivate: true });
  return { org, repo };
}

beforeAll(async () => {
  alice = await makeUser("talice");
  bob = await makeUser("tbob");
  carol = await makeUser("tcarol");
  dave = await makeUser("tdave");
});

describe("teams.*", () => {
  it("slugs: lowercased, other characters → '-', trimmed; nothing left is BAD_REQUEST", () => {
    expect(teamSlug("Core Devs")).toBe("core-devs");
    expect(teamSlug("  Front/End!! v2 ")).toBe("front-end-v2");
    expect(teamSlug("a.b_c")).toBe("a.b_c");
    expect(() => teamSlug("!!!")).toThrow(/letter or digit/);
  });

  it("owners create, update and delete; members list and get; outsiders get NOT_FOUND", async () => {
    const { org } = await makeOrg();
    const team = await (await as(alice)).teams.create({ org, name: "Core Devs", description: "the core", permission: "write" });
    expect(team).toMatchObject({ org, name: "Core Devs", slug: "core-devs", description: "the core", permission: "write", memberCount: 0 });
    expect(await codeOf((await as(alice)).teams.create({ org, name: "core devs" }))).toBe("CONFLICT");
    expect(await codeOf((await as(alice)).teams.create({ org, name: "???" }))).toBe("BAD_REQUEST");
    expect(await codeOf((await as(bob)).teams.create({ org, name: "Mine" }))).toBe("FORBIDDEN");
    expect(await codeOf((await as(carol)).teams.create({ org, name: "Mine" }))).toBe("NOT_FOUND");
    expect((await (await as(bob)).teams.list({ org })).map((t) => t.slug)).toEqual(["core-devs"]);
    expect(await (await as(bob)).teams.get({ org, slug: "core-devs" })).toMatchObject({
      slug: "core-devs",
      viewerRole: "member",
      members: [],
    });
    expect(await codeOf((await as(carol)).teams.list({ org }))).toBe("NOT_FOUND");
    expect(await codeOf((await as(carol)).teams.get({ org, slug: "core-devs" }))).toBe("NOT_FOUND");
    expect(await codeOf((await as(bob)).teams.get({ org, slug: "nope" }))).toBe("NOT_FOUND");
    expect(await codeOf((await as(bob)).teams.update({ org, slug: "core-devs", name: "X" }))).toBe("FORBIDDEN");
    const renamed = await (await as(alice)).teams.update({ org, slug: "core-devs", name: "Platform", description: "" });
    expect(renamed).toMatchObject({ name: "Platform", slug: "platform", description: null });
    await (await as(alice)).teams.create({ org, name: "Other" });
    expect(await codeOf((await as(alice)).teams.update({ org, slug: "other", name: "PLATFORM" }))).toBe("CONFLICT");
    expect(await codeOf((await as(bob)).teams.delete({ org, slug: "platform" }))).toBe("FORBIDDEN");
    expect(await (await as(alice)).teams.delete({ org, slug: "platform" })).toEqual({ deleted: true });
    expect((await (await as(alice)).teams.list({ org })).map((t) => t.slug)).toEqual(["other"]);
    // a repo:read token may read teams, not change them
    expect(await codeOf((await as(alice, ["repo:read"])).teams.create({ org, name: "T" }))).toBe("FORBIDDEN");
    expect(await codeOf((await as(alice, ["repo:read"])).teams.list({ org }))).toBe("OK");
  });

  it("members must belong to the organization; repositories must be the organization's", async () => {
    const { org } = await makeOrg();
    const a = await as(alice);
    await a.teams.create({ org, name: "devs" });
    await expect(a.teams.addMember({ org, slug: "devs", username: carol.username })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("not a member of organization"),
    });
    expect(await codeOf(a.teams.addMember({ org, slug: "devs", username: "nobody-here" }))).toBe("NOT_FOUND");
    expect(await a.teams.addMember({ org, slug: "devs", username: bob.username })).toMatchObject({ username: bob.username });
    expect(await codeOf(a.teams.addMember({ org, slug: "devs", username: bob.username }))).toBe("CONFLICT");
    expect(await codeOf((await as(bob)).teams.addMember({ org, slug: "devs", username: dave.username }))).toBe("FORBIDDEN");
    // a repository of another owner is not the organization's
    await (await as(carol)).repos.create({ name: "app", isPrivate: false });
    expect(await codeOf(a.teams.addRepo({ org, slug: "devs", repo: "missing", permission: "read" }))).toBe("NOT_FOUND");
    expect(await a.teams.addRepo({ org, slug: "devs", repo: "APP" })).toMatchObject({ name: "app", permission: "read" });
    expect(await a.teams.addRepo({ org, slug: "devs", repo: "app", permission: "admin" })).toMatchObject({ permission: "admin" });
    const got = await (await as(bob)).teams.get({ org, slug: "devs" });
    expect(got.members.map((m) => m.username)).toEqual([bob.username]);
    expect(got.repositories).toEqual([expect.objectContaining({ name: "app", permission: "admin", isPrivate: true })]);
    // dave (base none, not on the team) does not see the private repository listed
    expect((await (await as(dave)).teams.get({ org, slug: "devs" })).repositories).toEqual([]);
    // the repository's settings list the team (admins only)
    const app = await a.repos.get({ owner: org, name: "app" });
    expect(await a.teams.repoAccess({ repoId: app.id })).toEqual([
      { org, slug: "devs", name: "devs", permission: "admin", memberCount: 1 },
    ]);
    expect(await codeOf((await as(dave)).teams.repoAccess({ repoId: app.id }))).toBe("NOT_FOUND");
    expect(await codeOf((await as(bob)).teams.repoAccess({ repoId: app.id }))).toBe("OK"); // admin through the team
    expect(await a.teams.removeRepo({ org, slug: "devs", repo: "app" })).toEqual({ removed: true });
    expect(await codeOf(a.teams.removeRepo({ org, slug: "devs", repo: "app" }))).toBe("NOT_FOUND");
    expect(await a.teams.removeMember({ org, slug: "devs", username: bob.username })).toEqual({ removed: true });
    expect(await codeOf(a.teams.removeMember({ org, slug: "devs", username: bob.username }))).toBe("NOT_FOUND");
  });
});

describe("team grants in the authorization query", () => {
  it("repository permission is the highest of base permission, teams and collaborator role", async () => {
    const { org, repo } = await makeOrg("none");
    const a = await as(alice);
    const permOf = async (u: Profile) =>
      (await (await as(u)).repos.get({ owner: org, name: "app" }).then(
        (r) => r.permission,
        (e: { code: string }) => e.code,
      )) as string;
    expect(await permOf(bob)).toBe("NOT_FOUND");
    await a.teams.create({ org, name: "readers", permission: "read" });
    await a.teams.create({ org, name: "writers" });
    await a.teams.addMember({ org, slug: "readers", username: bob.username });
    await a.teams.addMember({ org, slug: "writers", username: bob.username });
    expect(await permOf(bob)).toBe("NOT_FOUND"); // on teams without the repository
    await a.teams.addRepo({ org, slug: "readers", repo: "app" });
    expect(await permOf(bob)).toBe("read");
    await a.teams.addRepo({ org, slug: "writers", repo: "app", permission: "write" });
    expect(await permOf(bob)).toBe("write");
    // a token's scopes still cap it
    expect((await (await as(bob, ["repo:read"])).repos.get({ owner: org, name: "app" })).permission).toBe("read");
    // the cross-repository list sees it, with the same permission
    const mine = await (await as(bob)).repos.list({ member: true });
    expect(mine.find((r) => r.id === repo.id)?.permission).toBe("write");
    // base write and a read team: write wins
    await a.orgs.update({ name: org, basePermission: "write" });
    await a.teams.removeRepo({ org, slug: "writers", repo: "app" });
    expect(await permOf(bob)).toBe("write");
    await a.orgs.update({ name: org, basePermission: "none" });
    expect(await permOf(bob)).toBe("read");
    // an admin team grant
    await a.teams.addRepo({ org, slug: "writers", repo: "app", permission: "admin" });
    expect(await permOf(bob)).toBe("admin");
    expect(await permOf(dave)).toBe("NOT_FOUND");
    expect(await permOf(carol)).toBe("NOT_FOUND");
    // a team member is assignable, and "my issues" (readableRepoSql) finds the assigned issue
    expect((await a.repos.assignees({ repoId: repo.id })).map((u) => u.username)).toContain(bob.username);
    expect((await a.repos.assignees({ repoId: repo.id })).map((u) => u.username)).not.toContain(dave.username);
    const issue = await a.issues.create({ repoId: repo.id, title: "for bob", assigneeId: bob.id });
    expect((await (await as(bob)).issues.listMine({ filter: "assigned" })).map((i) => i.id)).toContain(issue.id);
    // deleting a team removes its grants
    await a.teams.delete({ org, slug: "writers" });
    expect(await permOf(bob)).toBe("read");
    const db = await getDb();
    expect(await db.teamRepo.count({ where: { repoId: repo.id } })).toBe(1);
  });

  it("leaving the organization removes the team memberships (same transaction)", async () => {
    const { org } = await makeOrg("none");
    const a = await as(alice);
    await a.teams.create({ org, name: "devs", permission: "write" });
    await a.teams.addMember({ org, slug: "devs", username: bob.username });
    await a.teams.addRepo({ org, slug: "devs", repo: "app" });
    expect((await (await as(bob)).repos.get({ owner: org, name: "app" })).permission).toBe("write");
    await (await as(bob)).orgs.removeMember({ name: org, username: bob.username });
    expect(await codeOf((await as(bob)).repos.get({ owner: org, name: "app" }))).toBe("NOT_FOUND");
    expect((await a.teams.get({ org, slug: "devs" })).members).toEqual([]);
  });
});
