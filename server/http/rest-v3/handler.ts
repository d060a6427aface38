/**
 * svc's GitHub-compatible REST API under /api/v3 (issue #23; docs/api.md "REST: commit statuses
 * and check runs"), so CI tools written for GitHub post statuses and check runs unchanged:
 *
 *   POST  /repos/{owner}/{repo}/statuses/{sha}            write   → 201 status
 *   GET   /repos/{owner}/{repo}/statuses/{ref}            read    → 200 [status] (GitHub's legacy alias of the next)
 *   GET   /repos/{owner}/{repo}/commits/{ref}/statuses    read    → 200 [status], newest first
 *   GET   /repos/{owner}/{repo}/commits/{ref}/status      read    → 200 combined status
 *   GET   /repos/{owner}/{repo}/commits/{ref}/check-runs  read    → 200 {total_count, check_runs}
 *   POST  /repos/{owner}/{repo}/check-runs                write   → 201 check run
 *   GET   /repos/{owner}/{repo}/check-runs/{id}           read    → 200 check run
 *   PATCH /repos/{owner}/{repo}/check-runs/{id}           write   → 200 check run
 *
 * Credentials: `Authorization: Bearer svc_…` or `Authorization: token svc_…` (GitHub's form), a
 * service token, or the browser session (same-origin writes only). Writes need write permission
 * and the repo:write token scope; reads need read (anonymous callers read public repositories).
 * Errors are GitHub's `{message, documentation_url}`: 401, 403, 404 (also for a private repository
 * the caller cannot read), 413 (body over 1 MiB), 422 ("Validation Failed" with `errors`, or "No
 * commit found for SHA: …"), 400 for a body that is not JSON. Every request uses one request of the
 * caller's hourly budget (./rate-limit.ts): X-RateLimit-* headers on every answer, 403 "API rate
 * limit exceeded for …" over it.
 */
import { getDb, type Db } from "@/server/db";
import { AppError, databaseBusy, httpStatusOf, isDatabaseBusy } from "@/server/errors";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { getConfig } from "@/server/config";
import { authorizeRepo, type AuthorizedRepo, type RepoRole } from "@/server/services/repos/access";
import { findRedirect, redirectPath } from "@/server/services/repos/redirects";
import { resolveCommit, resolveCommits } from "@/server/git/repository";
import { createCommitStatus } from "@/server/services/statuses/create-status";
import { listCommitStatuses } from "@/server/services/statuses/list-statuses";
import { latestStatuses } from "@/server/services/statuses/combined-status";
import { createCheckRun, getCheckRun, listCheckRuns, updateCheckRun } from "@/server/services/statuses/check-runs";
import { ValidationFailed, combineStates } from "@/server/services/statuses/status-rules";
import { REQUEST_ID_HEADER, logServerError, requestIdOf } from "@/server/request-id";
import { PayloadTooLargeError, MAX_BODY_BYTES, readBodyLimited } from "../body-limit";
import { decodePathSegment } from "../path";
import { rateLimitExceeded, takeRestBudget, withRateHeaders, type RestBudget } from "./rate-limit";
import { checkRunJson, repoJson, statusJson, type RepoRef } from "@/server/services/statuses/github-shapes";

const DOCS = "https://docs.github.com/rest";

/** A GitHub-shaped JSON answer. */
function gh(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** GitHub's error body for `e`: {message, documentation_url, errors?}; 500 without the cause (logged under the request id). */
function ghError(e: unknown, req: Request): Response {
  if (e instanceof PayloadTooLargeError) return gh({ message: e.message, documentation_url: DOCS }, 413);
  if (isDatabaseBusy(e)) e = databaseBusy();
  if (e instanceof ValidationFailed) return gh({ message: e.message, errors: e.errors, documentation_url: DOCS }, 422);
  if (e instanceof AppError) {
    const message =
      e.code === "NOT_FOUND" ? "Not Found" : e.code === "UNAUTHORIZED" && /token|session/.test(e.message) ? "Bad credentials" : e.message;
    const res = gh({ message, documentation_url: DOCS }, httpStatusOf(e.code));
    if (e.retryAfter) res.headers.set("retry-after", String(e.retryAfter));
    return res;
  }
  const requestId = requestIdOf(req);
  logServerError(requestId, `${req.method} ${new URL(req.url).pathname}`, e);
  const res = gh({ message: `internal error (request ${requestId})` }, 500);
  res.headers.set(REQUEST_ID_HEADER, requestId);
  return res;
}

/** The JSON body (≤ 1 MiB). Errors: 413; 400 "Problems parsing JSON" (GitHub's words). */
async function body(req: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyLimited(req, MAX_BODY_BYTES));
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "Problems parsing JSON");
  }
}

/** page / per_page query parameters (GitHub's: per_page 1–100, default 30; page ≥ 1). */
function paging(url: URL): { page: number; perPage: number } {
  const n = (v: string | null, d: number) => (v && /^\d{1,6}$/.test(v) ? Number(v) : d);
  return {
    page: Math.max(1, n(url.searchParams.get("page"), 1)),
    perPage: Math.min(100, Math.max(1, n(url.searchParams.get("per_page"), 30))),
  };
}

/**
 * The commit `ref` names in `repo`: a 7–64 hex id, else the branch, else the tag of that name.
 * Errors: ValidationFailed (422) "No commit found for SHA: <ref>" (GitHub's answer for an unknown ref).
 */
async function commitOfRef(repo: AuthorizedRepo, ref: string): Promise<string> {
  let sha: string | null = null;
  if (/^[0-9a-fA-F]{7,64}$/.test(ref)) sha = await resolveCommit(repo.gitDir, ref.toLowerCase());
  if (!sha && ref && !ref.startsWith("-")) {
    const [branch, tag] = await resolveCommits(repo.gitDir, [`refs/heads/${ref}`, `refs/tags/${ref}`]);
    sha = branch ?? tag;
  }
  if (!sha) throw new ValidationFailed([], `No commit found for SHA: ${ref.slice(0, 100)}`);
  return sha;
}

type Ctx = { req: Request; url: URL; db: Db; actor: Actor | null; repo: AuthorizedRepo; ref: RepoRef };

interface Route {
  method: string;
  pattern: RegExp;
  level: RepoRole;
  run: (ctx: Ctx, params: string[]) => Promise<Response>;
}

const REPO = String.raw`^/repos/([^/]+)/([^/]+)`;

const ROUTES: Route[] = [
  {
    method: "POST",
    pattern: new RegExp(`${REPO}/statuses/([^/]+)$`),
    level: "write",
    run: async (c, [sha]) => gh(statusJson(c.ref, await createCommitStatus(c.db, c.actor!, c.repo, sha, await body(c.req))), 201),
  },
  ...[new RegExp(`${REPO}/commits/(.+)/statuses$`), new RegExp(`${REPO}/statuses/(.+)$`)].map((pattern): Route => ({
    method: "GET",
    pattern,
    level: "read",
    run: async (c, [ref]) => {
      const sha = await commitOfRef(c.repo, ref);
      const { page, perPage } = paging(c.url);
      return gh((await listCommitStatuses(c.db, c.repo.id, sha, page, perPage)).map((s) => statusJson(c.ref, s)));
    },
  })),
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/commits/(.+)/status$`),
    level: "read",
    run: async (c, [ref]) => {
      const sha = await commitOfRef(c.repo, ref);
      const latest = await latestStatuses(c.db, c.repo.id, [sha]);
      const { page, perPage } = paging(c.url);
      const apiRepo = repoJson(c.ref).url;
      return gh({
        state: combineStates(latest.map((s) => s.state)),
        statuses: latest.slice((page - 1) * perPage, page * perPage).map((s) => statusJson(c.ref, s)),
        sha,
        total_count: latest.length,
        repository: repoJson(c.ref),
        commit_url: `${apiRepo}/commits/${sha}`,
        url: `${apiRepo}/commits/${sha}/status`,
      });
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/commits/(.+)/check-runs$`),
    level: "read",
    run: async (c, [ref]) => {
      const sha = await commitOfRef(c.repo, ref);
      const q = c.url.searchParams;
      const { total, runs } = await listCheckRuns(c.db, c.repo.id, sha, {
        checkName: q.get("check_name") ?? undefined,
        status: q.get("status") ?? undefined,
        filter: q.get("filter") === "all" ? "all" : "latest",
        ...paging(c.url),
      });
      return gh({ total_count: total, check_runs: runs.map((r) => checkRunJson(c.ref, r)) });
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`${REPO}/check-runs$`),
    level: "write",
    run: async (c) => gh(checkRunJson(c.ref, await createCheckRun(c.db, c.actor!, c.repo, await body(c.req))), 201),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/check-runs/(\\d{1,15})$`),
    level: "read",
    run: async (c, [id]) => gh(checkRunJson(c.ref, await getCheckRun(c.db, c.repo.id, Number(id)))),
  },
  {
    method: "PATCH",
    pattern: new RegExp(`${REPO}/check-runs/(\\d{1,15})$`),
    level: "write",
    run: async (c, [id]) => gh(checkRunJson(c.ref, await updateCheckRun(c.db, c.actor!, c.repo, Number(id), await body(c.req)))),
  },
];

/**
 * Answers one /api/v3 request. `pathname` is the raw (still percent-encoded) path of the request;
 * each segment is decoded once. Unknown paths are 404 "Not Found", a known path with another method 405.
 * Every request first uses one request of the caller's hourly budget (./rate-limit.ts): every
 * answer carries the X-RateLimit-* headers, and over the budget it is GitHub's 403 "API rate
 * limit exceeded for …".
 */
export async function handleRestV3(req: Request): Promise<Response> {
  let budget: RestBudget | null = null;
  try {
    // the budget is taken first, for every request (unknown paths and bad credentials too, as
    // GitHub counts them): bad credentials count against the address, so guessing tokens is bounded
    let actor: Actor | null = null;
    let badCredentials: unknown = null;
    try {
      actor = await resolveActor(req);
    } catch (e) {
      badCredentials = e;
    }
    budget = await takeRestBudget(actor, req.headers);
    if (!budget.allowed) return rateLimitExceeded(budget);
    if (badCredentials) throw badCredentials;
    return withRateHeaders(await answer(req, actor), budget);
  } catch (e) {
    return withRateHeaders(ghError(e, req), budget);
  }
}

/**
 * GitHub's answer for a moved (transferred) repository (docs/api.md "Moved repositories"): 301 for
 * GET and HEAD, 307 for other methods (the client repeats the request with its body), Location
 * the same path under the repository's current owner/name, body {message: "Moved Permanently", url}.
 */
function moved(req: Request, url: URL, to: { owner: string; name: string }): Response {
  const location = new URL(`${redirectPath(url.pathname, 3, to)}${url.search}`, url).toString();
  const res = gh(
    { message: "Moved Permanently", url: location, documentation_url: DOCS },
    req.method === "GET" || req.method === "HEAD" ? 301 : 307,
  );
  res.headers.set("location", location);
  return res;
}

/** The answer of the route `req`'s method and path name, for `actor`. */
async function answer(req: Request, actor: Actor | null): Promise<Response> {
  const url = new URL(req.url);
  const path = url.pathname.replace(/^\/api\/v3/, "").replace(/\/+$/, "");
  const onPath = ROUTES.filter((r) => r.pattern.test(path));
  const route = onPath.find((r) => r.method === req.method);
  if (!route) {
    if (onPath.length)
      return new Response(JSON.stringify({ message: "Method Not Allowed", documentation_url: DOCS }), {
        status: 405,
        headers: { "content-type": "application/json; charset=utf-8", allow: [...new Set(onPath.map((r) => r.method))].join(", ") },
      });
    throw new AppError("NOT_FOUND", "Not Found");
  }
  const [owner, name, ...params] = route.pattern
    .exec(path)!
    .slice(1)
    .map((s) => decodePathSegment(s, "path segment"));
  if (route.level !== "read") {
    if (!actor) throw new AppError("UNAUTHORIZED", "Requires authentication");
    assertSameOrigin(actor, req.method, req.headers, getConfig().publicUrl);
  }
  const db = await getDb();
  let repo: AuthorizedRepo;
  try {
    repo = await authorizeRepo(db, actor, { owner, name }, route.level);
  } catch (e) {
    const to = e instanceof AppError && e.code === "NOT_FOUND" ? await findRedirect(db, actor, owner, name) : null;
    if (!to) throw e;
    return moved(req, url, to);
  }
  const ref: RepoRef = { owner: repo.owner, name: repo.name, id: repo.id, isPrivate: repo.isPrivate };
  return await route.run({ req, url, db, actor, repo, ref }, params);
}
