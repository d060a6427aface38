/**
 * Router-wide access harness (docs/architecture.md "One access table"). For every procedure of the
 * app router: it has an access-table row whose tier matches its builder; anonymous callers are
 * refused procedures that need identity; tokens lacking the row's scope are FORBIDDEN; private
 * repositories answer NOT_FOUND to strangers and anonymous callers.
 * Later issues add table rows, and entity ids to `entityInput` when their procedures locate the
 * repository through another id.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS } from "@/server/api/access";
import { closeRateLimits } from "@/server/rate-limit";
import { SCOPES, hasScope, type Scope } from "@/server/auth/scopes";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { allProcedures, callPath, outcome } from "../procedures";
import { POISON, RANK, SERVICE_RULES, forPath, pullComment, pullEntities, type Fixture, type Perm } from "../access-fixtures";

const procedures = allProcedures();

/** Scopes that do NOT grant `needed` (directly or by implication). */
function scopesWithout(needed: Scope): Scope[] {
  return SCOPES.filter((s) => !hasScope([s], needed));
}
const LEVEL_SCOPE = { read: "repo:read", write: "repo:write", admin: "repo:admin" } as const;

let owner: Profile;
let stranger: Profile;
let privateRepo: Fixture;
let publicRepo: Fixture;

/** Raw input naming the private (or public) repository every way procedure `path` may locate it. */
function entityInput(repo: Fixture, path: string): Record<string, unknown> {
  return forPath(repo, path);
}

/**
 * A repository with one of each entity that procedures locate their repository through
 * (issueId, commentId, labelId, templateId, viewId). Later issues add theirs (prId, …).
 */
async function makeFixture(isPrivate: boolean): Promise<Fixture> {
  const caller = await callerFor(actorOf(owner));
  const repo = await caller.repos.create({ name: isPrivate ? "secret" : "open", isPrivate });
  const issue = await caller.issues.create({ repoId: repo.id, title: "fixture" });
  await caller.issues.addComment({ repoId: repo.id, number: issue.number, body: "hello" });
  const [comment] = (await caller.issues.comments({ repoId: repo.id, number: issue.number })) as { id: string }[];
  const label = (await caller.issues.createLabel({ repoId: repo.id, name: "bug", color: "#d73a4a" })) as { id: string };
  const template = (await caller.issues.createTemplate({ repoId: repo.id, name: "Bug report" })) as { id: string };
  const view = (await caller.issues.createView({ repoId: repo.id, name: "Mine", filters: {} })) as { id: string };
  return {
    repoId: repo.id,
    owner: repo.owner,
    name: repo.name,
    number: issue.number,
    issueId: issue.id,
    commentId: comment.id,
    labelId: label.id,
    templateId: template.id,
    viewId: view.id,
    ...(await pullEntities(repo.id, owner.id)),
  };
}

beforeAll(async () => {
  owner = await makeUser("owner");
  stranger = await makeUser("stranger");
  privateRepo = await makeFixture(true);
  publicRepo = await makeFixture(false);
});

describe("access table", () => {
  it("has exactly one row per procedure, and each builder's tier matches its row", () => {
    const paths = procedures.map((p) => p.path).sort();
    expect(paths.filter((p) => !ACCESS[p])).toEqual([]);
    expect(Object.keys(ACCESS).filter((p) => !paths.includes(p))).toEqual([]);
    for (const p of procedures) expect({ path: p.path, tier: p.tier }).toEqual({ path: p.path, tier: ACCESS[p.path].tier });
  });
});

describe.each(procedures.filter((p) => ACCESS[p.path]?.tier !== "public"))("$path", ({ path }) => {
  const rule = ACCESS[path];

  it("refuses anonymous callers", async () => {
    const anon = await callerFor(null);
    if (rule.tier === "user") {
      expect(await outcome(anon, path, {})).toBe("UNAUTHORIZED");
    } else if (rule.tier === "repo") {
      expect(await outcome(anon, path, entityInput(privateRepo, path))).toBe("NOT_FOUND");
      if (rule.level !== "read") expect(await outcome(anon, path, entityInput(publicRepo, path))).toBe("UNAUTHORIZED");
    }
  });

  it("refuses tokens lacking the scope, naming it", async () => {
    const needed = rule.tier === "user" ? rule.scope : rule.tier === "repo" ? (rule.scope ?? LEVEL_SCOPE[rule.level]) : undefined;
    if (!needed) return;
    const caller = await callerFor(actorOf(owner, scopesWithout(needed)));
    const input = rule.tier === "repo" ? entityInput(privateRepo, path) : {};
    await expect(import("../procedures").then((m) => m.callPath(caller, path, input))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining(needed),
    });
  });

  if (rule.tier === "repo") {
    it("answers NOT_FOUND to a stranger for a private repository", async () => {
      const caller = await callerFor(actorOf(stranger));
      expect(await outcome(caller, path, entityInput(privateRepo, path))).toBe("NOT_FOUND");
    });
    if (rule.level !== "read") {
      it(`answers FORBIDDEN to a signed-in non-member below ${rule.level} on a public repository`, async () => {
        const caller = await callerFor(actorOf(stranger));
        expect(await outcome(caller, path, entityInput(publicRepo, path))).toBe("FORBIDDEN");
      });
    }
  }
});

/**
 * The scope × role matrix (docs/security.md "Effective permission: scopes cap the role"): for every
 * procedure, every role (owner, admin / write / read collaborator, stranger, anonymous) and every
 * token scope set, the gate's answer equals the access table with the effective permission
 * min(role, scope cap).
 *
 * Each call sends the repository's locators plus "poison" values of the wrong type for every
 * other field, so a call the gate lets through stops at input validation (BAD_REQUEST) instead of
 * changing anything; the few procedures whose only input is a locator and that destroy what it
 * names get a fresh entity for each call the gate should let through (DISPOSABLE).
 */
describe("scope × role matrix", () => {
  type Role = "owner" | "admin" | "write" | "read" | "stranger";
  const ROLES: Role[] = ["owner", "admin", "write", "read", "stranger"];
  const REPO_SCOPES: Scope[] = ["repo:read", "repo:write", "repo:admin"];
  /**
   * The repo scope sets that can answer differently: none (a token with user:read only), each repo
   * scope alone, and one pair whose stronger scope comes last. The repo scopes imply each other
   * (admin ⊃ write ⊃ read: scopes.ts), so any other set acts as its strongest scope; the pair
   * catches a gate that reads only the first scope. (All eight subsets were 60% more calls, the
   * suite's slowest file on PostgreSQL, for no case these five miss.)
   */
  const REPO_SCOPE_SETS: Scope[][] = [["user:read"], ...REPO_SCOPES.map((s) => [s]), ["repo:read", "repo:admin"]];
  /** Every non-empty subset of all scopes, for the user-tier procedures. */
  const ALL_SCOPE_SETS: Scope[][] = Array.from({ length: 31 }, (_, n) => SCOPES.filter((_, i) => (n + 1) & (1 << i)));

  let users: Record<Role, Profile>;
  let repos: { private: Fixture; public: Fixture };

  async function fixtureWithMembers(isPrivate: boolean, name: string): Promise<Fixture> {
    const caller = await callerFor(actorOf(users.owner));
    const repo = await caller.repos.create({ name, isPrivate });
    for (const role of ["admin", "write", "read"] as const)
      await caller.repos.addCollaborator({ repoId: repo.id, username: users[role].username, role });
    const issue = await caller.issues.create({ repoId: repo.id, title: "fixture" });
    const comment = (await caller.issues.addComment({ repoId: repo.id, number: issue.number, body: "hello" })) as { id: string };
    const label = (await caller.issues.createLabel({ repoId: repo.id, name: "bug", color: "#d73a4a" })) as { id: string };
    const template = (await caller.issues.createTemplate({ repoId: repo.id, name: "Bug report" })) as { id: string };
    const view = (await caller.issues.createView({ repoId: repo.id, name: "Mine", filters: {} })) as { id: string };
    return {
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
      ...(await pullEntities(repo.id, users.owner.id)),
    };
  }

  let disposables = 0;
  /** Fresh entities for the procedures that destroy what their locator names. */
  const DISPOSABLE: Record<string, (f: Fixture) => Promise<Fixture>> = {
    "repos.delete": async (f) => fixtureWithMembers(Boolean(f.isPrivate), `gone${++disposables}`),
    "issues.deleteComment": async (f) => ({
      ...f,
      commentId: (
        (await (
          await callerFor(actorOf(users.owner))
        ).issues.addComment({ repoId: f.repoId as string, number: f.issueNumber as number, body: "x" })) as { id: string }
      ).id,
    }),
    "issues.deleteLabel": async (f) => ({
      ...f,
      labelId: (
        (await (
          await callerFor(actorOf(users.owner))
        ).issues.createLabel({ repoId: f.repoId as string, name: `l${++disposables}`, color: "#000000" })) as { id: string }
      ).id,
    }),
    "issues.deleteTemplate": async (f) => ({
      ...f,
      templateId: (
        (await (
          await callerFor(actorOf(users.owner))
        ).issues.createTemplate({ repoId: f.repoId as string, name: `t${++disposables}` })) as { id: string }
      ).id,
    }),
    "stacks.delete": async (f) => ({
      ...f,
      stackId: (await pullEntities(f.repoId as string, users.owner.id, `d${++disposables}`)).stackId,
    }),
    "pulls.deleteComment": async (f) => ({ ...f, pullCommentId: await pullComment(f.prId as string, users.owner.id) }),
    "issues.deleteView": async (f) => ({
      ...f,
      viewId: (
        (await (
          await callerFor(actorOf(users.owner))
        ).issues.createView({ repoId: f.repoId as string, name: `v${++disposables}`, filters: {} })) as { id: string }
      ).id,
    }),
  };

  beforeAll(async () => {
    users = {
      owner: await makeUser("mowner"),
      admin: await makeUser("madmin"),
      write: await makeUser("mwrite"),
      read: await makeUser("mread"),
      stranger: await makeUser("mstranger"),
    };
    repos = { private: await fixtureWithMembers(true, "mprivate"), public: await fixtureWithMembers(false, "mpublic") };
  });

  function rolePermission(role: Role, isPrivate: boolean): Perm {
    if (role === "owner") return "admin";
    if (role === "stranger") return isPrivate ? "none" : "read";
    return role;
  }
  function cap(scopes: readonly Scope[]): Perm {
    return hasScope(scopes, "repo:admin")
      ? "admin"
      : hasScope(scopes, "repo:write")
        ? "write"
        : hasScope(scopes, "repo:read")
          ? "read"
          : "none";
  }
  /** What the table says: "PASS" or the refusal code. */
  function expected(level: Perm, role: Role | null, scopes: readonly Scope[] | null, isPrivate: boolean, scope?: Scope): string {
    if (!role) return isPrivate ? "NOT_FOUND" : level === "read" ? "PASS" : "UNAUTHORIZED";
    if (scopes && scope && !hasScope(scopes, scope)) return "FORBIDDEN"; // a rule's own scope, checked first
    const c = scopes ? cap(scopes) : "admin";
    if (RANK[c] < RANK[level]) return "FORBIDDEN";
    const r = rolePermission(role, isPrivate);
    if (r === "none") return "NOT_FOUND";
    const effective = RANK[r] < RANK[c] ? r : c;
    return RANK[effective] >= RANK[level] ? "PASS" : "FORBIDDEN";
  }
  const gateAnswer = (code: string) => (["UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"].includes(code) ? code : "PASS");

  it("repository procedures: every role × scope set × visibility answers as the table says", async () => {
    const mismatches: string[] = [];
    for (const { path } of procedures) {
      const rule = ACCESS[path];
      if (rule.tier !== "repo") continue;
      for (const visibility of ["private", "public"] as const) {
        const f = repos[visibility];
        const callers: { role: Role | null; scopes: readonly Scope[] | null }[] = [
          { role: null, scopes: null },
          ...ROLES.flatMap((role) => [{ role, scopes: null }, ...REPO_SCOPE_SETS.map((scopes) => ({ role, scopes }))]),
        ];
        for (const { role, scopes } of callers) {
          const service = SERVICE_RULES[path];
          let want = expected(rule.level, role, scopes, visibility === "private", rule.scope);
          if (want === "PASS" && service) {
            // through the tier; the service then checks the effective permission
            if (!role) want = "UNAUTHORIZED";
            else if (service.authorOnly) want = role === "owner" ? "PASS" : "FORBIDDEN";
            else if (!(service.authorMay && role === "owner")) {
              const r = rolePermission(role, visibility === "private");
              const c = scopes ? cap(scopes) : "admin";
              want = Math.min(RANK[r], RANK[c]) >= RANK[service.level] ? "PASS" : "FORBIDDEN";
            }
          }
          const target = want === "PASS" && DISPOSABLE[path] ? await DISPOSABLE[path](f) : f;
          const input = { ...POISON, ...forPath(target, path), ...service?.input };
          const actor = role ? actorOf(users[role], scopes ?? undefined) : null;
          // the matrix checks access answers: per-procedure rate limits (procedure-limits.ts, e.g.
          // 10 a minute) start fresh for each call, so a service rule is reached every time
          await closeRateLimits();
          const got = gateAnswer(await outcome(await callerFor(actor), path, input));
          if (got !== want)
            mismatches.push(
              `${path} ${visibility} ${role ?? "anonymous"} [${scopes?.join(",") ?? "session"}]: got ${got}, table says ${want}`,
            );
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 600_000); // ~31 callers × 2 visibilities × every repository procedure, one after another: minutes on a loaded 2-CPU machine

  it("user procedures: every scope set answers as the table says", async () => {
    const mismatches: string[] = [];
    for (const { path } of procedures) {
      const rule = ACCESS[path];
      if (rule.tier !== "user") continue;
      for (const scopes of ALL_SCOPE_SETS) {
        const want = hasScope(scopes, rule.scope) ? "PASS" : "FORBIDDEN";
        let got = "OK";
        await callPath(await callerFor(actorOf(users.stranger, scopes)), path, POISON).catch((e: { code?: string; message?: string }) => {
          // session-only procedures (sessions) refuse every PAT after the scope check, saying so
          got = e.code === "FORBIDDEN" && /personal access tokens cannot/.test(e.message ?? "") ? "OK" : (e.code ?? "ERROR");
        });
        if (gateAnswer(got) !== want) mismatches.push(`${path} [${scopes.join(",")}]: got ${got}, table says ${want}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
