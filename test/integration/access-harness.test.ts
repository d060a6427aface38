/**
 * Router-wide access harness (issue #2 part 8). For every procedure of the app router:
 * it has an access-table row whose tier matches its builder; anonymous callers are refused
 * procedures that need identity; tokens lacking the row's scope are FORBIDDEN; private
 * repositories answer NOT_FOUND to strangers and anonymous callers.
 * Later issues add table rows, and entity ids to `entityInput` when their procedures locate the
 * repository through another id.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS } from "@/server/api/access";
import { SCOPES, hasScope, type Scope } from "@/server/auth/scopes";
import type { Profile } from "@/server/services/users";
import { actorOf, callerFor, makeUser } from "../helpers";
import { allProcedures, outcome } from "../procedures";

const procedures = allProcedures();

/** Scopes that do NOT grant `needed` (directly or by implication). */
function scopesWithout(needed: Scope): Scope[] {
  return SCOPES.filter((s) => !hasScope([s], needed));
}
const LEVEL_SCOPE = { read: "repo:read", write: "repo:write", admin: "repo:admin" } as const;

let owner: Profile;
let stranger: Profile;
type Fixture = Record<string, unknown>;
let privateRepo: Fixture;
let publicRepo: Fixture;

/** Raw input naming the private (or public) repository every way a procedure may locate it. */
function entityInput(repo: Fixture): Record<string, unknown> {
  return repo;
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
    repoId: repo.id, owner: repo.owner, name: repo.name, number: issue.number,
    issueId: issue.id, commentId: comment.id, labelId: label.id, templateId: template.id, viewId: view.id,
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
      expect(await outcome(anon, path, entityInput(privateRepo))).toBe("NOT_FOUND");
      if (rule.level !== "read") expect(await outcome(anon, path, entityInput(publicRepo))).toBe("UNAUTHORIZED");
    }
  });

  it("refuses tokens lacking the scope, naming it", async () => {
    const needed = rule.tier === "user" ? rule.scope : rule.tier === "repo" ? LEVEL_SCOPE[rule.level] : undefined;
    if (!needed) return;
    const caller = await callerFor(actorOf(owner, scopesWithout(needed)));
    const input = rule.tier === "repo" ? entityInput(privateRepo) : {};
    await expect(import("../procedures").then((m) => m.callPath(caller, path, input))).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining(needed) });
  });

  if (rule.tier === "repo") {
    it("answers NOT_FOUND to a stranger for a private repository", async () => {
      const caller = await callerFor(actorOf(stranger));
      expect(await outcome(caller, path, entityInput(privateRepo))).toBe("NOT_FOUND");
    });
    if (rule.level !== "read") {
      it(`answers FORBIDDEN to a signed-in non-member below ${rule.level} on a public repository`, async () => {
        const caller = await callerFor(actorOf(stranger));
        expect(await outcome(caller, path, entityInput(publicRepo))).toBe("FORBIDDEN");
      });
    }
  }
});
