/**
 * Who may use a repository's LFS endpoints (docs/lfs.md "Authentication"). Two kinds of
 * credentials are accepted:
 *
 *   - everything git smart HTTP accepts (a PAT as the Basic password, a session, anonymous for
 *     public repositories), through the very same gate and answers (server/http/git/authorize.ts):
 *     reading needs read permission and, for tokens, repo:read; writing (upload, locks) needs write
 *     permission and repo:write; an unreadable repository is 404;
 *   - `Authorization: Bearer svclfs.…`, a short-lived LFS token (services/lfs/token.ts) from
 *     `git-lfs-authenticate` over SSH or from an earlier batch answer, valid for this repository
 *     only and, for writing, only when issued for "upload". The principal's access is checked again
 *     (a user's permission now, a deploy key's existence and read-only flag now). A token used on
 *     the former path of its repository, transferred since it was minted, gets the redirect to
 *     the new path (as git credentials do).
 */
import { getAuthSecret } from "@/server/config";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { atLeast, authorizeDeployKey, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { authorizeGitRequest, movedAnswer } from "@/server/http/git/authorize";
import { LFS_TOKEN_PREFIX, verifyLfsToken, type LfsPrincipal } from "@/server/services/lfs/token";
import { lfsError, lfsFromGitAnswer } from "./respond";

export interface LfsAccess {
  repo: AuthorizedRepo;
  /** The user acting, or null (anonymous, or a deploy key). */
  actor: Actor | null;
  /** Who a transfer token minted for this request acts for (null: anonymous, no token needed). */
  principal: LfsPrincipal | null;
  /** The raw LFS token when the request carried one (then reused in batch actions). */
  token?: string;
}

/** The LFS token in `Authorization: Bearer svclfs.…`, or null. */
function lfsTokenOf(req: Request): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization")?.trim() ?? "");
  return m && m[1].startsWith(LFS_TOKEN_PREFIX) ? m[1] : null;
}

async function viaToken(
  req: Request,
  token: string,
  owner: string,
  name: string,
  level: "read" | "write",
  rest: string,
): Promise<LfsAccess | Response> {
  const claims = verifyLfsToken(getAuthSecret(), token);
  if (!claims) return lfsError(401, "the LFS token is invalid or expired: run the git command again");
  if (level === "write" && claims.operation !== "upload") return lfsError(403, "this LFS token was issued for download only");
  const db = await getDb();
  const locator = { owner, name };
  try {
    if (claims.principal.kind === "deploy") {
      const key = await db.deployKey.findUnique({ where: { id: claims.principal.keyId }, select: { repoId: true, readOnly: true } });
      if (!key || key.repoId !== claims.repoId) return lfsError(404, `repository ${owner}/${name} not found`);
      const repo = await authorizeDeployKey(db, key, locator, level);
      return { repo, actor: null, principal: claims.principal, token };
    }
    const user = await db.user.findUnique({
      where: { id: claims.principal.userId },
      select: { id: true, username: true, name: true, email: true, isAdmin: true },
    });
    if (!user) return lfsError(401, "the LFS token's user no longer exists");
    const actor: Actor = { user, via: "session", scopes: SCOPES };
    const repo = await authorizeRepo(db, actor, locator, "read");
    if (repo.id !== claims.repoId) return lfsError(404, `repository ${owner}/${name} not found`);
    if (level === "write" && !atLeast(repo.permission, "write"))
      return lfsError(403, `you need write permission on ${repo.owner}/${repo.name} (you have ${repo.permission})`);
    return { repo, actor, principal: claims.principal, token };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    // a token minted for the former path of a repository transferred since: follow it there
    const moved = e.code === "NOT_FOUND" ? await movedAnswer(req, null, owner, name, rest, claims.repoId) : null;
    return moved ? lfsFromGitAnswer(moved) : lfsError(e.code === "FORBIDDEN" ? 403 : 404, e.message);
  }
}

/**
 * The repository and principal of an LFS request needing `level`, or the LFS JSON answer that
 * refuses it (401 with a Basic challenge, 403 naming what is missing, 404 for an unknown or
 * unreadable repository, a redirect for a transferred one). `rest` is the path after `.git/`.
 */
export async function authorizeLfs(
  req: Request,
  owner: string,
  name: string,
  level: "read" | "write",
  rest: string,
): Promise<LfsAccess | Response> {
  const token = lfsTokenOf(req);
  if (token) return viaToken(req, token, owner, name, level, rest);
  const auth = await authorizeGitRequest(req, owner, name, level === "write" ? "git-receive-pack" : "git-upload-pack", rest);
  if (auth instanceof Response) return lfsFromGitAnswer(auth);
  return { repo: auth.repo, actor: auth.actor, principal: auth.actor ? { kind: "user", userId: auth.actor.user.id } : null };
}
