/**
 * The access harness for organization repositories (docs/orgs.md "Permissions"): for every
 * repository procedure, the organization's owner, a member under each base permission
 * (none / read / write) and an outsider, on a private and a public repository of the
 * organization, get the answer the access table gives for the permission the organization grants
 * (owner → admin, member → base permission, public → read), capped by a token's scopes. Under
 * base permission none, members granted read / write / admin through a team, and a member of a
 * team without the repository, get the team's permission (docs/orgs.md "Teams").
 * Complements access-harness.test.ts (personal repositories, collaborators, every scope set).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS } from "@/server/api/access";
import { closeRateLimits } from "@/server/rate-limit";
import { hasScope, type Scope } from "@/server/auth/scopes";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { allProcedures, outcome } from "../procedures";
import { POISON, RANK, SERVICE_RULES, forPath, pullComment, pullEntities, type Fixture, type Perm } from "../access-fixtures";

const procedures = allProcedures().filter((p) => ACCESS[p.path]?.tier === "repo");
type Base = "none" | "read" | "write";
const BASES: Base[] = ["none", "read", "write"];
type TeamRole = "teamRead" | "teamWrite" | "teamAdmin" | "teamNoRepo";
type Role = "orgOwner" | "member" | "outsider" | TeamRole;
const TEAM_ROLES: TeamRole[] = ["teamRead", "teamWrite", "teamAdmin", "teamNoRepo"];
/** The permission each team role's team has on both fixtures of the base-none organization. */
const TEAM_GRANT: Record<TeamRole, Perm> = { teamRead: "read", teamWrite: "write", teamAdmin: "admin", teamNoRepo: "none" };

let owner: Profile;
let member: Profile;
let outsider: Profile;
const teamUsers = {} as Record<TeamRole, Profile>;
/** Per base permission: the organization's name and its private and public fixtures. */
const orgs = {} as Record<Base, { name: string; private: Fixture; public: Fixture }>;
let made = 0;

/** A repository of organization `org` with one of each entity procedures locate it through; `owner` authors them. */
async function orgFixture(org: string, name: string, isPrivate: boolean): Promise<Fixture> {
  const caller = await callerFor(actorOf(owner));
  const repo = await caller.repos.create({ owner: org, name, isPrivate });
  const issue = await caller.issues.create({ repoId: repo.id, title: "fixture" });
  const comment = (await caller.issues.addComment({ repoId: repo.id, number: issue.number, body: "hello" })) as { id: string };
  const label = (await caller.issues.createLabel({ repoId: repo.id, name: "bug", color: "#d73a4a" })) as { id: string };
  const template = (await caller.issues.createTemplate({ repoId: repo.id, name: "Bug report" })) as { id: string };
  const view = (await caller.issues.createView({ repoId: repo.id, name: "Mine", filters: {} })) as { id: string };
  return {
    org,
    repoId: repo.id,
    owner: repo.owner,
    name: repo.name,
    issueId: issue.id,
    commentId: comment.id,
    labelId: label.id,
    templateId: template.id,
    viewId: view.id,
    isPrivate,
    issueNumber: issue.number,
    ...(await pullEntities(repo.id, owner.id)),
  };
}

/** Fresh entities for the procedures that destroy what their locator names (as in access-harness.test.ts). */
const DISPOSABLE: Record<string, (f: Fixture) => Promise<Fixture>> = {
  "repos.delete": async (f) => {
    const fresh = await orgFixture(f.org as string, `gone${++made}`, Boolean(f.isPrivate));
    if (f.org === orgs.none.name) await grantTeams(fresh.name as string);
    return fresh;
  },
  "issues.deleteComment": async (f) => ({
    ...f,
    commentId: (
      (await (
        await callerFor(actorOf(owner))
      ).issues.addComment({ repoId: f.repoId as string, number: f.issueNumber as number, body: "x" })) as { id: string }
    ).id,
  }),
  "issues.deleteLabel": async (f) => ({
    ...f,
    labelId: (
      (await (
        await callerFor(actorOf(owner))
      ).issues.createLabel({ repoId: f.repoId as string, name: `l${++made}`, color: "#000000" })) as { id: string }
    ).id,
  }),
  "issues.deleteTemplate": async (f) => ({
    ...f,
    templateId: (
      (await (await callerFor(actorOf(owner))).issues.createTemplate({ repoId: f.repoId as string, name: `t${++made}` })) as { id: string }
    ).id,
  }),
  "issues.deleteView": async (f) => ({
    ...f,
    viewId: (
      (await (await callerFor(actorOf(owner))).issues.createView({ repoId: f.repoId as string, name: `v${++made}`, filters: {} })) as {
        id: string;
      }
    ).id,
  }),
  "stacks.delete": async (f) => ({ ...f, stackId: (await pullEntities(f.repoId as string, owner.id, `d${++made}`)).stackId }),
  "pulls.deleteComment": async (f) => ({ ...f, pullCommentId: await pullComment(f.prId as string, owner.id) }),
};

/** Grants each team role's team its permission on repository `repo` of the base-none organization. */
async function grantTeams(repo: string): Promise<void> {
  const caller = await callerFor(actorOf(owner));
  for (const role of TEAM_ROLES) {
    const grant = TEAM_GRANT[role];
    if (grant !== "none") await caller.teams.addRepo({ org: orgs.none.name, slug: role.toLowerCase(), repo, permission: grant });
  }
}

beforeAll(async () => {
  owner = await makeUser("oowner");
  member = await makeUser("omember");
  outsider = await makeUser("ooutsider");
  for (const base of BASES) {
    const name = `harness-${base}-${Math.random().toString(36).slice(2, 8)}`;
    const caller = await callerFor(actorOf(owner));
    await caller.orgs.create({ name });
    await caller.orgs.update({ name, basePermission: base });
    await caller.orgs.addMember({ name, username: member.username });
    orgs[base] = { name, private: await orgFixture(name, "private", true), public: await orgFixture(name, "public", false) };
  }
  // base none: one member per team grant, each on their own team (teamNoRepo's team has no repository)
  const caller = await callerFor(actorOf(owner));
  const org = orgs.none.name;
  for (const role of TEAM_ROLES) {
    teamUsers[role] = await makeUser(`o${role.toLowerCase()}`);
    await caller.orgs.addMember({ name: org, username: teamUsers[role].username });
    await caller.teams.create({ org, name: role });
    await caller.teams.addMember({ org, slug: role.toLowerCase(), username: teamUsers[role].username });
  }
  for (const repo of ["private", "public"]) await grantTeams(repo);
}, 120_000);

/** The permission the organization grants `role` on a repository (docs/orgs.md "Permissions"). */
function rolePermission(role: Role, base: Base, isPrivate: boolean): Perm {
  if (role === "orgOwner") return "admin";
  const visible: Perm = isPrivate ? "none" : "read";
  const granted: Perm = role === "member" ? base : role in TEAM_GRANT ? TEAM_GRANT[role as TeamRole] : "none";
  return RANK[granted] > RANK[visible] ? granted : visible;
}
function cap(scopes: readonly Scope[] | null): Perm {
  if (!scopes || hasScope(scopes, "repo:admin")) return "admin";
  return hasScope(scopes, "repo:write") ? "write" : hasScope(scopes, "repo:read") ? "read" : "none";
}

/** "PASS" or the refusal code the table (and a service rule, if any) gives for `path`. */
function expected(path: string, role: Role, base: Base, isPrivate: boolean, scopes: readonly Scope[] | null): string {
  const rule = ACCESS[path] as Extract<(typeof ACCESS)[string], { tier: "repo" }>;
  if (scopes && rule.scope && !hasScope(scopes, rule.scope)) return "FORBIDDEN";
  const c = cap(scopes);
  if (RANK[c] < RANK[rule.level]) return "FORBIDDEN";
  const r = rolePermission(role, base, isPrivate);
  if (r === "none") return "NOT_FOUND";
  const effective = RANK[r] < RANK[c] ? r : c;
  if (RANK[effective] < RANK[rule.level]) return "FORBIDDEN";
  const service = SERVICE_RULES[path];
  if (!service) return "PASS";
  // the organization's owner authored the fixture's entities
  if (service.authorOnly) return role === "orgOwner" ? "PASS" : "FORBIDDEN";
  if (service.authorMay && role === "orgOwner") return "PASS";
  return RANK[effective] >= RANK[service.level] ? "PASS" : "FORBIDDEN";
}
const gateAnswer = (code: string) => (["UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"].includes(code) ? code : "PASS");

describe("organization roles × repository procedures", () => {
  it("every role under every base permission answers as the table says (sessions, and a repo:read token)", async () => {
    const mismatches: string[] = [];
    const actors: Record<Role, () => Profile> = {
      orgOwner: () => owner,
      member: () => member,
      outsider: () => outsider,
      teamRead: () => teamUsers.teamRead,
      teamWrite: () => teamUsers.teamWrite,
      teamAdmin: () => teamUsers.teamAdmin,
      teamNoRepo: () => teamUsers.teamNoRepo,
    };
    for (const { path } of procedures) {
      for (const base of BASES) {
        for (const visibility of ["private", "public"] as const) {
          const roles: Role[] = base === "none" ? ["orgOwner", "member", "outsider", ...TEAM_ROLES] : ["orgOwner", "member", "outsider"];
          for (const role of roles) {
            for (const scopes of [null, ["repo:read"]] as (Scope[] | null)[]) {
              const want = expected(path, role, base, visibility === "private", scopes);
              const f = orgs[base][visibility];
              const target = want === "PASS" && DISPOSABLE[path] ? await DISPOSABLE[path](f) : f;
              const input = { ...POISON, ...forPath(target, path), ...SERVICE_RULES[path]?.input };
              await closeRateLimits();
              const got = gateAnswer(await outcome(await callerFor(actorOf(actors[role](), scopes ?? undefined)), path, input));
              if (got !== want)
                mismatches.push(`${path} base=${base} ${visibility} ${role} [${scopes?.join(",") ?? "session"}]: got ${got}, want ${want}`);
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 600_000);
});
