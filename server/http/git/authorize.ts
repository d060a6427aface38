/**
 * Who may fetch from or push to a repository over git smart HTTP (smart-http.ts), answered in
 * the terms git understands: a Basic challenge (git asks for or sends credentials), 404 or 403
 * with a message git prints as "remote: …". The gate itself is services/repos/access.ts
 * `authorizeRepo`; docs/git-http.md.
 */
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import { hasScope } from "@/server/auth/scopes";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { atLeast, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { findRedirect } from "@/server/services/repos/redirects";
import { repoNameProblem, usernameProblem } from "@/lib/names";
import type { GitService } from "@/server/git/pack-service";
import { text } from "./plain-text";

/** 401 with the Basic challenge that makes git ask for (or send) credentials. */
function challenge(message: string): Response {
  return text(401, message, { "www-authenticate": 'Basic realm="svc", charset="UTF-8"' });
}

/**
 * The answer for a former path of a transferred repository (docs/orgs.md "Transferring a
 * repository"), or null when there is no redirect the caller may follow: 301 (GET) or 308 (POST,
 * so the body is sent again) with Location `/<owner>/<name>.git/<rest>?<query>`. git follows a
 * redirect of its first request (info/refs; git-config(1) http.followRedirects "initial") and uses
 * the new URL from then on, so clone, fetch and push of the old URL work. `onlyRepoId`: follow the
 * redirect only to that repository, without a readability check (a credential bound to one
 * repository, such as an LFS token: the request to the new path is authorized again).
 */
export async function movedAnswer(
  req: Request,
  actor: Actor | null,
  owner: string,
  name: string,
  rest: string,
  onlyRepoId?: string,
): Promise<Response | null> {
  const to = await findRedirect(await getDb(), actor, owner, name, onlyRepoId);
  if (!to) return null;
  const location = `/${encodeURIComponent(to.owner)}/${encodeURIComponent(to.name)}.git/${rest}${new URL(req.url).search}`;
  return new Response(`repository moved to ${to.owner}/${to.name}\n`, {
    status: req.method === "POST" ? 308 : 301,
    headers: { location, "content-type": "text/plain; charset=utf-8" },
  });
}

/**
 * Resolves the caller and checks access (authorizeRepo is the gate), mapping refusals to the
 * answers git understands: anonymous and refused, or the repo is private/unknown → 401 with a
 * Basic challenge; bad/expired/revoked credentials → 401; authenticated but the repository is
 * unreadable or absent → 404; readable but the token lacks repo:write or the user lacks write
 * permission → 403 naming what is missing. A former path of a transferred repository the caller
 * can read answers a redirect to the new one (`movedAnswer`; `rest` is the path after `.git/`).
 */
export async function authorizeGitRequest(
  req: Request,
  owner: string,
  name: string,
  service: GitService,
  rest = "info/refs",
): Promise<{ repo: AuthorizedRepo; actor: Actor | null } | Response> {
  let actor: Actor | null;
  try {
    actor = await resolveActor(req);
  } catch (e) {
    if (e instanceof AppError && e.code === "UNAUTHORIZED") return challenge(`authentication failed: ${e.message}`);
    if (e instanceof AppError) return text(httpStatusOf(e.code), e.message);
    throw e;
  }
  const level = service === "git-receive-pack" ? "write" : "read";
  const validName = !usernameProblem(owner) && !repoNameProblem(name);
  const db = await getDb();
  if (!actor) {
    if (!validName) return challenge("authentication required");
    try {
      return { repo: await authorizeRepo(db, null, { owner, name }, level), actor };
    } catch (e) {
      if (e instanceof AppError && (e.code === "NOT_FOUND" || e.code === "UNAUTHORIZED")) {
        if (e.code === "NOT_FOUND") {
          const moved = await movedAnswer(req, null, owner, name, rest);
          if (moved) return moved;
        }
        return challenge(
          level === "write" ? "authentication required to push: use a personal access token as the password" : "authentication required",
        );
      }
      throw e;
    }
  }
  if (!validName) return text(404, `repository ${owner}/${name} not found`);
  let repo: AuthorizedRepo;
  try {
    // Read first: an unreadable or unknown repository is 404 whatever the token's scopes.
    repo = await authorizeRepo(db, actor, { owner, name }, "read");
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") {
      const moved = await movedAnswer(req, actor, owner, name, rest);
      if (moved) return moved;
    }
    if (e instanceof AppError && e.code !== "UNAUTHORIZED") return text(httpStatusOf(e.code), e.message);
    throw e;
  }
  if (level === "write") {
    if (!hasScope(actor.scopes, "repo:write")) return text(403, `push refused: this token lacks the "repo:write" scope`);
    if (!atLeast(repo.permission, "write"))
      return text(403, `push refused: you need write permission on ${repo.owner}/${repo.name} (you have ${repo.permission})`);
  }
  return { repo, actor };
}
