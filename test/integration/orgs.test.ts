/**
 * Organizations (docs/orgs.md): the orgs.* procedures, repositories owned by an organization, and
 * the permission an organization grants (owner → admin, member → base permission, collaborator
 * role when higher), through the real router and the one authorization query.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";

let alice: Profile; // creates the organizations
let bob: Profile; // member
let carol: Profile; // outsider
let n = 0;
const orgName = () => `org${++n}${Math.random().toString(36).slice(2, 6)}`;
const as = (u: Profile, scopes?: Parameters<typeof actorOf>[1]) => callerFor(actorOf(u, scopes));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? "ERROR",
  );

beforeAll(async () => {
  alice = await makeUser("alice");
  bob = await makeUser("bob");
  carol = await makeUser("carol");
});

describe("orgs.create / get / list / update / delete", () => {
  it("creates an organization owned by its creator, in the user namespace", async () => {
    const name = orgName();
    const org = await (await as(alice)).orgs.create({ name, displayName: "The Org" });
    expect(org).toMatchObject({ name, displayName: "The Org", basePermission: "read", membersCanCreateRepos: true, viewerRole: "owner" });
    expect(await (await callerFor(null)).orgs.get({ name: name.toUpperCase() })).toMatchObject({ name, viewerRole: null });
    expect((await (await as(alice)).orgs.list()).map((o) => o.name)).toContain(name);
    expect(await (await as(alice)).orgs.members({ name })).toEqual([
      { userId: alice.id, username: alice.username, name: null, role: "owner" },
    ]);
    // the namespace is shared, case-insensitively, both ways
    expect(await codeOf((await as(bob)).orgs.create({ name: name.toUpperCase() }))).toBe("CONFLICT");
    expect(await codeOf((await as(bob)).orgs.create({ name: bob.username.toUpperCase() }))).toBe("CONFLICT");
    expect(await codeOf((await callerFor(null)).users.signUp({ username: name, password: "password123" }))).toBe("CONFLICT");
    expect(await codeOf((await as(bob)).orgs.create({ name: "bad name!" }))).toBe("BAD_REQUEST");
    // a user is not an organization
    expect(await codeOf((await callerFor(null)).orgs.get({ name: alice.username }))).toBe("NOT_FOUND");
    // an organization never signs in: no password
    const row = await (await getDb()).user.findUnique({ where: { id: org.id }, select: { passwordHash: true, isOrg: true } });
    expect(row).toEqual({ passwordHash: null, isOrg: true });
  });

  it("update and delete are for owners; delete is refused while the organization owns repositories", async () => {
    const name = orgName();
    await (await as(alice)).orgs.create({ name });
    await (await as(alice)).orgs.addMember({ name, username: bob.username });
    expect(await codeOf((await as(bob)).orgs.update({ name, basePermission: "write" }))).toBe("FORBIDDEN");
    expect(await codeOf((await as(carol)).orgs.delete({ name }))).toBe("FORBIDDEN");
    const updated = await (
      await as(alice)
    ).orgs.update({ name, displayName: "Renamed", basePermission: "none", membersCanCreateRepos: false });
    expect(updated).toMatchObject({ displayName: "Renamed", basePermission: "none", membersCanCreateRepos: false });
    expect(await codeOf((await as(alice)).orgs.update({ name, basePermission: "admin" as "write" }))).toBe("BAD_REQUEST");
    const repo = await (await as(alice)).repos.create({ owner: name, name: "kept" });
    expect(await codeOf((await as(alice)).orgs.delete({ name }))).toBe("PRECONDITION_FAILED");
    await (await as(alice)).repos.delete({ repoId: repo.id });
    expect(await (await as(alice)).orgs.delete({ name })).toEqual({ deleted: true });
    expect(await codeOf((await callerFor(null)).orgs.get({ name }))).toBe("NOT_FOUND");
    expect(await (await getDb()).orgMember.count({ where: { user: { id: bob.id }, org: { usernameLower: name } } })).toBe(0);
  });
});

describe("members", () => {
  it("owners add, promote, demote and remove members; the last owner stays", async () => {
    const name = orgName();
    await (await as(alice)).orgs.create({ name });
    expect(await codeOf((await as(bob)).orgs.addMember({ name, username: carol.username }))).toBe("FORBIDDEN");
    expect(await (await as(alice)).orgs.addMember({ name, username: bob.username })).toMatchObject({
      username: bob.username,
      role: "member",
    });
    expect(await codeOf((await as(alice)).orgs.addMember({ name, username: bob.username }))).toBe("CONFLICT");
    expect(await codeOf((await as(alice)).orgs.addMember({ name, username: "nobody-here-xyz" }))).toBe("NOT_FOUND");
    const other = orgName();
    await (await as(carol)).orgs.create({ name: other });
    expect(await codeOf((await as(alice)).orgs.addMember({ name, username: other }))).toBe("BAD_REQUEST");
    // a member cannot change roles; the last owner can be neither demoted nor removed
    expect(await codeOf((await as(bob)).orgs.setRole({ name, username: bob.username, role: "owner" }))).toBe("FORBIDDEN");
    expect(await codeOf((await as(alice)).orgs.setRole({ name, username: alice.username, role: "member" }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf((await as(alice)).orgs.removeMember({ name, username: alice.username }))).toBe("PRECONDITION_FAILED");
    await (await as(alice)).orgs.setRole({ name, username: bob.username, role: "owner" });
    expect((await (await as(bob)).orgs.members({ name })).map((m) => m.role)).toEqual(["owner", "owner"]);
    // with two owners, one may step down
    await (await as(alice)).orgs.setRole({ name, username: alice.username, role: "member" });
    expect(await codeOf((await as(alice)).orgs.addMember({ name, username: carol.username }))).toBe("FORBIDDEN");
    // a member may leave
    expect(await (await as(alice)).orgs.removeMember({ name, username: alice.username })).toEqual({ removed: true });
    expect((await (await as(bob)).orgs.members({ name })).map((m) => m.username)).toEqual([bob.username]);
    expect((await (await as(alice)).orgs.list()).map((o) => o.name)).not.toContain(name);
  });
});

describe("the last owner, concurrently", () => {
  it("two owners demoting each other at once leave exactly one owner", async () => {
    const name = orgName();
    await (await as(alice)).orgs.create({ name });
    await (await as(alice)).orgs.addMember({ name, username: bob.username, role: "owner" });
    const results = await Promise.allSettled([
      (await as(alice)).orgs.setRole({ name, username: bob.username, role: "member" }),
      (await as(bob)).orgs.setRole({ name, username: alice.username, role: "member" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: expect.stringMatching(/PRECONDITION_FAILED|FORBIDDEN/) },
    });
    expect((await (await as(alice)).orgs.members({ name })).filter((m) => m.role === "owner")).toHaveLength(1);
  });
});

describe("repositories of an organization", () => {
  it("owners create; members when allowed; outsiders never", async () => {
    const name = orgName();
    await (await as(alice)).orgs.create({ name });
    await (await as(alice)).orgs.addMember({ name, username: bob.username });
    const repo = await (await as(bob)).repos.create({ owner: name, name: "by-member" });
    expect(repo).toMatchObject({ owner: name, name: "by-member" });
    expect(await codeOf((await as(carol)).repos.create({ owner: name, name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf((await as(carol)).repos.create({ owner: alice.username, name: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf((await as(alice)).repos.create({ owner: name, name: "BY-MEMBER" }))).toBe("CONFLICT");
    await (await as(alice)).orgs.update({ name, membersCanCreateRepos: false });
    expect(await codeOf((await as(bob)).repos.create({ owner: name, name: "denied" }))).toBe("FORBIDDEN");
    expect((await (await as(bob)).orgs.list()).find((o) => o.name === name)?.canCreateRepos).toBe(false);
    expect((await (await as(alice)).orgs.list()).find((o) => o.name === name)?.canCreateRepos).toBe(true);
  });

  it("permission: org owner admin, member the base permission, collaborator role when higher, outsiders NOT_FOUND on private", async () => {
    const name = orgName();
    const a = await as(alice);
    await a.orgs.create({ name });
    await a.orgs.addMember({ name, username: bob.username });
    const secret = await a.repos.create({ owner: name, name: "secret", isPrivate: true });
    const open = await a.repos.create({ owner: name, name: "open" });
    const perm = async (u: Profile | null, repoName: string) =>
      (await callerFor(u ? actorOf(u) : null)).repos.get({ owner: name, name: repoName }).then(
        (r) => r.permission,
        (e: { code: string }) => e.code,
      );
    expect(await perm(alice, "secret")).toBe("admin");
    expect(await perm(bob, "secret")).toBe("read"); // default base permission
    expect(await perm(carol, "secret")).toBe("NOT_FOUND");
    expect(await perm(null, "secret")).toBe("NOT_FOUND");
    expect(await perm(carol, "open")).toBe("read");

    await a.orgs.update({ name, basePermission: "write" });
    expect(await perm(bob, "secret")).toBe("write");
    await a.orgs.update({ name, basePermission: "none" });
    expect(await perm(bob, "secret")).toBe("NOT_FOUND");
    expect(await perm(bob, "open")).toBe("read");
    // a collaborator row above the base permission wins
    await a.repos.addCollaborator({ repoId: secret.id, username: bob.username, role: "admin" });
    expect(await perm(bob, "secret")).toBe("admin");
    await a.repos.removeCollaborator({ repoId: secret.id, username: bob.username });
    // an organization is not a person: never a collaborator
    expect(await codeOf(a.repos.addCollaborator({ repoId: secret.id, username: name, role: "read" }))).toBe("BAD_REQUEST");
    // promoted to owner: admin everywhere
    await a.orgs.setRole({ name, username: bob.username, role: "owner" });
    expect(await perm(bob, "secret")).toBe("admin");
    // a token caps the organization's grant as any role (scopes cap the role)
    expect((await (await as(bob, ["repo:read"])).repos.get({ owner: name, name: "secret" })).permission).toBe("read");
    expect(await codeOf((await as(bob, ["repo:read"])).repos.update({ repoId: secret.id, description: "x" }))).toBe("FORBIDDEN");
    expect(open.owner).toBe(name);
  });

  it("repos.list and the dashboard show a member's organization repositories, not an outsider's", async () => {
    const name = orgName();
    const a = await as(alice);
    await a.orgs.create({ name });
    await a.orgs.addMember({ name, username: bob.username });
    await a.repos.create({ owner: name, name: "hidden", isPrivate: true });
    const listed = async (u: Profile, member?: boolean) =>
      (await (await as(u)).repos.list({ owner: name, member, limit: 30, offset: 0 })).map((r) => `${r.name}:${r.permission}`);
    expect(await listed(bob)).toEqual(["hidden:read"]);
    expect(await listed(bob, true)).toEqual(["hidden:read"]);
    expect(await listed(alice)).toEqual(["hidden:admin"]);
    expect(await listed(carol)).toEqual([]);
    await a.orgs.update({ name, basePermission: "none" });
    expect(await listed(bob)).toEqual([]);
  });
});

describe("people of an organization's repository", () => {
  it("assignees are the members who can read it, never the organization; an organization cannot be assigned or requested", async () => {
    const name = orgName();
    const a = await as(alice);
    await a.orgs.create({ name });
    await a.orgs.addMember({ name, username: bob.username });
    const repo = await a.repos.create({ owner: name, name: "people", isPrivate: true });
    const org = await a.orgs.get({ name });
    const assignees = async () => (await a.repos.assignees({ repoId: repo.id })).map((u) => u.username).sort();
    expect(await assignees()).toEqual([alice.username, bob.username].sort());
    // a member may be assigned (base read); the organization itself may not
    const issue = await a.issues.create({ repoId: repo.id, title: "x", assigneeId: bob.id });
    expect(issue.assignee?.id).toBe(bob.id);
    expect(await codeOf(a.issues.create({ repoId: repo.id, title: "y", assigneeId: org.id }))).toBe("BAD_REQUEST");
    // under base none a plain member cannot read the repository: no longer assignable
    await a.orgs.update({ name, basePermission: "none" });
    expect(await assignees()).toEqual([alice.username]);
    expect(await codeOf(a.issues.create({ repoId: repo.id, title: "z", assigneeId: bob.id }))).toBe("BAD_REQUEST");
  });
});
