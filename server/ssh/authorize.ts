/**
 * Which repository an SSH command may use (docs/ssh.md "Permissions"), for git's commands and
 * `git-lfs-authenticate` alike. A user key acts as its user: an unreadable or unknown repository
 * is "not found" whatever else, and writing needs write permission. A deploy key acts as its own
 * repository only; a read-only one cannot write.
 *
 * A former path of a transferred repository (RepoRedirect; docs/orgs.md "Transferring a
 * repository") serves the repository at its new path when the key could use it there: SSH has no
 * redirect, so — as GitHub does over SSH — the command runs on the new path and the answer says
 * where the repository went (`movedTo`), for the client to update its remote.
 */
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { atLeast, authorizeDeployKey, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { findRedirect } from "@/server/services/repos/redirects";
import type { SshPrincipal } from "./authenticate";

type Locator = { owner: string; name: string };

async function authorizeAt(principal: SshPrincipal, locator: Locator, level: "read" | "write", refusal: string): Promise<AuthorizedRepo> {
  const db = await getDb();
  if (principal.kind === "deploy") return authorizeDeployKey(db, principal, locator, level);
  // Read first: an unreadable or unknown repository is "not found" whatever else.
  const repo = await authorizeRepo(db, principal.actor, locator, "read");
  if (level === "write" && !atLeast(repo.permission, "write"))
    throw new AppError("FORBIDDEN", `${refusal}: you need write permission on ${repo.owner}/${repo.name} (you have ${repo.permission})`);
  return repo;
}

/**
 * The repository at `locator` that `principal` may use with `level`, and `movedTo` ("owner/name")
 * when `locator` was a former path; or the message refusing it (`refusal` starts the message of a
 * missing write permission: "push refused", "LFS upload refused"). Errors other than svc's own
 * (AppError) are thrown.
 */
export async function authorizeSshRepo(
  principal: SshPrincipal,
  locator: Locator,
  level: "read" | "write",
  refusal: string,
): Promise<{ repo: AuthorizedRepo; movedTo?: string } | string> {
  try {
    try {
      return { repo: await authorizeAt(principal, locator, level, refusal) };
    } catch (e) {
      if (!(e instanceof AppError && e.code === "NOT_FOUND")) throw e;
      const db = await getDb();
      const to =
        principal.kind === "deploy"
          ? await findRedirect(db, null, locator.owner, locator.name, principal.repoId)
          : await findRedirect(db, principal.actor, locator.owner, locator.name);
      if (!to) throw e;
      return { repo: await authorizeAt(principal, to, level, refusal), movedTo: `${to.owner}/${to.name}` };
    }
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
}
