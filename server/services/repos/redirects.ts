/**
 * Redirects from a repository's former path after a transfer (docs/orgs.md "Transferring a
 * repository"; Gitea's RepoRedirect, GitHub's moved repositories): a `RepoRedirect {ownerId,
 * nameLower, repoId}` row keeps `<former owner>/<name>` answering with a redirect to the
 * repository's current path, until a repository is created at that path again (create, fork or
 * transfer into it delete the row: `dropRedirect`).
 *
 * Transports that resolve a repository by owner/name ask `findRedirect` only after the lookup
 * answered NOT_FOUND: pages (a permanent redirect), git smart HTTP and the REST API (301). tRPC
 * lookups by owner/name answer NOT_FOUND for a former path; `repos.redirect` tells where it went.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import type { Actor } from "@/server/auth/actor";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { readableRepoPath, repoPathById } from "./access";

/** The id of the repository that used to live at `owner/name` (its RepoRedirect row), or null. One statement. */
async function redirectRepoId(db: Db, owner: string, name: string): Promise<string | null> {
  const p = (i: number) => (getConfig().provider === "postgresql" ? `$${i}` : "?");
  const [row] = await readRows<{ repoId: string }>(
    db,
    `SELECT rr."repoId" FROM "RepoRedirect" rr JOIN "User" u ON u."id" = rr."ownerId"
      WHERE u."usernameLower" = ${p(1)} AND rr."nameLower" = ${p(2)}`,
    [owner.toLowerCase(), name.toLowerCase()],
  );
  return row?.repoId ?? null;
}

/**
 * The current path of the repository that used to live at `owner/name`, or null when there is no
 * redirect there or `actor` could not read the repository at its new path (then the former path
 * stays NOT_FOUND, as before: a redirect never reveals a private repository). Two statements, run
 * only for a path that did not resolve. `onlyRepoId`: follow the redirect only when it leads to
 * this repository (a deploy key, bound to its repository, follows its own and no other; it is
 * then read as `actor` null would not be: the key's binding is the permission).
 */
export async function findRedirect(
  db: Db,
  actor: Actor | null,
  owner: string,
  name: string,
  onlyRepoId?: string,
): Promise<{ owner: string; name: string } | null> {
  const repoId = await redirectRepoId(db, owner, name);
  if (!repoId || (onlyRepoId !== undefined && repoId !== onlyRepoId)) return null;
  const target = onlyRepoId !== undefined ? await repoPathById(db, repoId) : await readableRepoPath(db, actor, repoId);
  if (!target || (target.owner.toLowerCase() === owner.toLowerCase() && target.name.toLowerCase() === name.toLowerCase())) return null;
  return target;
}

/** Deletes the redirect at `ownerId/name` (a repository now lives at that path). */
export async function dropRedirect(tx: Tx, ownerId: string, name: string): Promise<void> {
  await tx.repoRedirect.deleteMany({ where: { ownerId, nameLower: name.toLowerCase() } });
}

/**
 * `pathname` (starting `/<owner>/<name>`, percent-encoded) with its first two segments replaced by
 * `to`'s; `suffix` is kept after the name (".git" for git smart HTTP), the rest of the path as is.
 */
export function redirectPath(pathname: string, prefixSegments: number, to: { owner: string; name: string }, suffix = ""): string {
  const parts = pathname.split("/");
  // parts[0] is "" (leading slash); the owner and name follow `prefixSegments` fixed segments
  const at = 1 + prefixSegments;
  parts[at] = encodeURIComponent(to.owner);
  parts[at + 1] = `${encodeURIComponent(to.name)}${suffix}`;
  return parts.join("/");
}
