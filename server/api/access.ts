/**
 * The access table: every tRPC procedure's tier and scope, in one place (issue #2 part 8).
 * The procedure tiers in server/api/trpc.ts enforce it; test/integration/access-harness.test.ts
 * walks the app router and fails if a procedure has no row or its builder disagrees with it.
 *
 *   public           anyone; an actor, if any, is attached
 *   user  (scope)    a signed-in actor whose token has `scope`
 *   repo  (level)    the repository named in the input, at permission `level`; the scope follows
 *                    the level (read → repo:read, write → repo:write, admin → repo:admin);
 *                    anonymous callers may read public repositories
 */
import type { Scope } from "@/server/auth/scopes";
import type { RepoRole } from "@/server/services/repos/access";

export type AccessRule =
  | { tier: "public" }
  | { tier: "user"; scope: Scope }
  | { tier: "repo"; level: RepoRole };

export const ACCESS: Record<string, AccessRule> = {
  // users
  "users.signUp": { tier: "public" },
  "users.me": { tier: "user", scope: "user:read" },
  // repos
  "repos.create": { tier: "user", scope: "repo:write" },
  "repos.list": { tier: "public" },
  "repos.get": { tier: "repo", level: "read" },
  "repos.update": { tier: "repo", level: "admin" },
  "repos.delete": { tier: "repo", level: "admin" },
  "repos.branches": { tier: "repo", level: "read" },
  "repos.tree": { tier: "repo", level: "read" },
  "repos.blob": { tier: "repo", level: "read" },
  "repos.commits": { tier: "repo", level: "read" },
  "repos.collaborators": { tier: "repo", level: "admin" },
  "repos.addCollaborator": { tier: "repo", level: "admin" },
  "repos.removeCollaborator": { tier: "repo", level: "admin" },
};
