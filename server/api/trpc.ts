/**
 * tRPC 11 initialisation, context and the procedure tiers. Plain JSON on the wire (no
 * transformer) so curl works with the spec's input objects (docs/api.md "Transport"): with
 * superjson every input would have to be wrapped as `{"json": …}`.
 *
 * Tiers read their rule from the access table (server/api/access.ts) by procedure path:
 *   publicProcedure   rule tier "public"
 *   authedProcedure   rule tier "user": actor required (UNAUTHORIZED), token scope (FORBIDDEN)
 *   repoProcedure     rule tier "repo": input {repoId}; ctx.repo is the authorized repository
 *   repoByNameProcedure  same, input {owner, name}
 *   repoProcedureBy(locator)  same, the repository found through another id in the input
 *                    (issueId, commentId, labelId, …): see `RepoLocatorDef`
 * Every tier then takes the procedure's rate limit, if it has one (server/api/procedure-limits.ts).
 * AppError from the domain becomes the matching TRPCError; zod errors become BAD_REQUEST with a
 * readable message naming the field.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { z, ZodError } from "zod";
import { line } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { getDb, type Db } from "@/server/db";
import { AppError, databaseBusy, isDatabaseBusy, type AppErrorCode } from "@/server/errors";
import { actorResolver, requireScope, type Actor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { authorizeRepo, authorizeRepoVia, type AuthorizedRepo, type EntityTable } from "@/server/services/repos/access";
import { getConfig } from "@/server/config";
import { currentRequestId, newRequestId, requestIdOf } from "@/server/request-id";
import { ACCESS, type AccessRule } from "./access";
import { limitProcedure } from "./procedure-limits";
import { observeProcedure } from "@/server/metrics/procedures";

export interface Context {
  db: Db;
  /** Request headers (credentials are read from them when `actor` is undefined). */
  headers: Headers;
  /** Pre-resolved actor (server components, tests); undefined = resolve from headers. */
  actor?: Actor | null;
  /**
   * How `actor` is resolved from `headers` when it is undefined: once per request (createContext
   * sets `actorResolver`), so every procedure of a batch shares one credential lookup.
   */
  resolveActor?: () => Promise<Actor | null>;
  publicUrl: string;
  /** Id of the request (server/request-id.ts): named in 500 messages and in the log line. */
  requestId: string;
}

/**
 * Context for a fetch request (the HTTP handler). `requestId` defaults to the request's own
 * (`requestIdOf`: its well-formed X-Request-Id header or a new UUID); `resolveActor` to a
 * once-per-request resolver of the request's credentials (the HTTP handler hands in the one its
 * subscription check already used).
 */
export async function createContext(opts: {
  req: Request;
  requestId?: string;
  resolveActor?: () => Promise<Actor | null>;
}): Promise<Context> {
  return {
    db: await getDb(),
    headers: opts.req.headers,
    resolveActor: opts.resolveActor ?? actorResolver(opts.req),
    publicUrl: getConfig().publicUrl,
    requestId: opts.requestId ?? requestIdOf(opts.req),
  };
}

/** Context with a known actor (server components, the CLI, tests); a new request id. */
export async function contextFor(actor: Actor | null, headers: Headers = new Headers()): Promise<Context> {
  return { db: await getDb(), headers, actor, publicUrl: getConfig().publicUrl, requestId: newRequestId() };
}

export type Tier = AccessRule["tier"];
interface Meta {
  tier: Tier;
}

const TRPC_CODE: Record<AppErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PRECONDITION_FAILED: "PRECONDITION_FAILED",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/** "title: Too small: expected string to have >=1 characters; state: Invalid option…" */
export function formatZodError(error: ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
}

function toTRPCError(e: unknown): TRPCError | null {
  if (e instanceof AppError) return new TRPCError({ code: TRPC_CODE[e.code], message: e.message, cause: e });
  if (isDatabaseBusy(e)) return toTRPCError(databaseBusy());
  if (e instanceof ZodError) return new TRPCError({ code: "BAD_REQUEST", message: formatZodError(e), cause: e });
  return null;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    /**
     * What a client sees of an error. 4xx: the message (zod issues joined, naming the field) and
     * retryAfter for TOO_MANY_REQUESTS. 5xx (anything not an AppError, ZodError or 4xx TRPCError: a
     * Prisma or git failure, a bug): never the cause's message, which can hold SQL or paths
     * (docs/api.md "Errors: no 500 for bad input, nothing internal in an answer"), but "internal
     * error (request <id>)" and data.requestId; the cause is logged under that id by the HTTP
     * handler's onError (server/http/trpc.ts).
     */
    errorFormatter({ shape, error, ctx }) {
      const data: Record<string, unknown> = { ...shape.data };
      delete data.stack;
      // a 5xx the domain chose (503 database busy) keeps its message; any other 5xx is masked
      if (shape.data.httpStatus >= 500 && !(error.cause instanceof AppError)) {
        const requestId = ctx?.requestId ?? currentRequestId() ?? "unknown";
        return { ...shape, message: `internal error (request ${requestId})`, data: { ...data, requestId } };
      }
      const message = error.cause instanceof ZodError ? formatZodError(error.cause) : shape.message;
      const retryAfter = error.cause instanceof AppError ? error.cause.retryAfter : undefined;
      return { ...shape, message, data: { ...data, ...(retryAfter ? { retryAfter } : {}) } };
    },
  });

export const router = t.router;
/** Joins routers' procedures into one (the pulls router's parts). */
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Counts and times every call (server/metrics/procedures.ts): first, so it sees the code of the mapped error. */
const observed = t.procedure.use(({ path, next }) => observeProcedure(path, () => next()));

/**
 * Maps domain errors, resolves the actor once per request (refusing cross-site mutations and subscriptions
 * made with the session cookie: server/auth/csrf.ts), and checks the access table row exists.
 */
const base = observed.use(async ({ ctx, path, type, next }) => {
  const rule = ACCESS[path];
  if (!rule) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: `procedure ${path} has no access rule` });
  let actor: Actor | null;
  try {
    actor = ctx.actor !== undefined ? ctx.actor : await (ctx.resolveActor ?? actorResolver({ headers: ctx.headers }))();
    // an HTTP mutation or subscription made with the session cookie must come from svc's own pages
    // (docs/security.md "Cross-site requests (CSRF)"). A subscription is a GET (EventSource) but
    // starts work (agent.chatStream runs model turns), so a foreign page's EventSource or <img>
    // must not start it: it is checked as a POST is. Server components and the CLI hand in their
    // actor and make no HTTP request.
    if ((type === "mutation" || type === "subscription") && ctx.actor === undefined)
      assertSameOrigin(actor, "POST", ctx.headers, ctx.publicUrl);
  } catch (e) {
    throw toTRPCError(e) ?? e;
  }
  const result = await next({ ctx: { ...ctx, actor, rule } });
  if (!result.ok) {
    const mapped = toTRPCError(result.error.cause);
    if (mapped) throw mapped;
  }
  // a subscription's errors come while it is consumed, after this middleware returned: map them there
  if (type === "subscription" && result.ok && isAsyncIterable(result.data)) return { ...result, data: mapIterationErrors(result.data) };
  return result;
});

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

/**
 * `source` with an AppError thrown during iteration turned into the matching TRPCError (a
 * NOT_FOUND stays NOT_FOUND instead of becoming a 500 the client retries). Ending the consumer
 * early (unsubscribe) returns `source` too (for await closes it), so its aborts still run.
 */
async function* mapIterationErrors<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  try {
    for await (const value of source) yield value;
  } catch (e) {
    throw toTRPCError(e) ?? e;
  }
}

/**
 * The per-procedure rate limit (server/api/procedure-limits.ts), taken once the access check has
 * passed: every tier calls it, so a procedure listed there is limited without doing anything.
 */
async function limitAfterAccess(ctx: { actor?: Actor | null; headers: Headers }, path: string): Promise<void> {
  try {
    await limitProcedure(path, ctx.actor ?? null, ctx.headers);
  } catch (e) {
    throw toTRPCError(e) ?? e;
  }
}

function ruleOf(path: string, tier: Tier): AccessRule {
  const rule = ACCESS[path];
  if (rule?.tier !== tier)
    throw new TRPCError({
      code: "INTERNAL_SERVER_ERROR",
      message: `procedure ${path} is built as ${tier} but its access rule says ${rule?.tier}`,
    });
  return rule;
}

export const publicProcedure = base.meta({ tier: "public" }).use(async ({ ctx, path, next }) => {
  ruleOf(path, "public");
  await limitAfterAccess(ctx, path);
  return next();
});

export const authedProcedure = base.meta({ tier: "user" }).use(async ({ ctx, path, next }) => {
  const rule = ruleOf(path, "user") as Extract<AccessRule, { tier: "user" }>;
  if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in or send Authorization: Bearer <token>" });
  try {
    requireScope(ctx.actor, rule.scope);
  } catch (e) {
    throw toTRPCError(e) ?? e;
  }
  await limitAfterAccess(ctx, path);
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

async function withRepo<T>(
  ctx: { db: Db; actor: Actor | null; headers: Headers },
  path: string,
  locator: Parameters<typeof authorizeRepo>[2],
  next: (repo: AuthorizedRepo) => Promise<T>,
  notFoundAs?: string,
): Promise<T> {
  const rule = ruleOf(path, "repo") as Extract<AccessRule, { tier: "repo" }>;
  let repo: AuthorizedRepo;
  try {
    if (ctx.actor && rule.scope) requireScope(ctx.actor, rule.scope);
    repo = await authorizeRepo(ctx.db, ctx.actor, locator, rule.level);
  } catch (e) {
    // Located through another id: a repository the caller cannot see hides the entity too.
    if (notFoundAs && e instanceof AppError && e.code === "NOT_FOUND")
      throw new TRPCError({ code: "NOT_FOUND", message: `${notFoundAs} not found` });
    throw toTRPCError(e) ?? e;
  }
  await limitAfterAccess(ctx, path);
  return next(repo);
}

/** Repository identifier as the spec uses it: a UUID string. */
export const repoIdSchema = uuid("repoId", "a repository UUID");

export const repoProcedure = base
  .meta({ tier: "repo" })
  .input(z.object({ repoId: repoIdSchema }))
  .use(({ ctx, path, input, next }) => withRepo(ctx, path, { repoId: input.repoId }, (repo) => next({ ctx: { ...ctx, repo } })));

export const repoByNameProcedure = base
  .meta({ tier: "repo" })
  .input(z.object({ owner: line("owner").min(1).max(100), name: line("name").min(1).max(100) }))
  .use(({ ctx, path, input, next }) =>
    withRepo(ctx, path, { owner: input.owner, name: input.name }, (repo) => next({ ctx: { ...ctx, repo } })),
  );

const SCOPE_FOR_LEVEL = { read: "repo:read", write: "repo:write", admin: "repo:admin" } as const;

/**
 * How a repo-tier procedure finds its repository from another id in its input (issueId,
 * commentId, labelId, templateId, viewId, prId…). Define one per entity next to its domain
 * code and build procedures with `repoProcedureBy(def)`.
 */
export interface RepoLocatorDef<K extends string> {
  /** Input field holding the entity id, e.g. "issueId". */
  key: K;
  /** Noun for the NOT_FOUND message, e.g. "issue" → "issue not found". */
  what: string;
  /** Format of the id; default a UUID ("<key> must be a UUID"). */
  schema?: z.ZodType<string>;
  /** The entity's repository id, or null when no such entity exists. One query. */
  repoIdOf: (db: Db, id: string) => Promise<string | null>;
  /**
   * Optional: locate and authorize in ONE query through the entity's table (its `repoId`
   * column), also reading `columns` of the entity into ctx.entity (authorizeRepoVia), so the
   * service need not read the entity again. Without it: repoIdOf, then the authorization query.
   */
  via?: { table: EntityTable; columns: readonly string[] };
}

/**
 * Repo tier for procedures that name their repository through another id. Order of checks, the
 * same answers as `repoProcedure`: the token scope for the access-table level (FORBIDDEN naming
 * it), then input validation (BAD_REQUEST), then the lookup: an unknown id, or an id in a
 * repository the caller cannot read, is NOT_FOUND "<what> not found"; then permission
 * (UNAUTHORIZED for anonymous, FORBIDDEN below the level). ctx.repo is the authorized repository
 * and ctx.entityId the located id.
 */
export function repoProcedureBy<K extends string>(def: RepoLocatorDef<K>) {
  const idSchema = def.schema ?? uuid(def.key, "a UUID", `${def.key} is required`);
  const shape = { [def.key]: idSchema } as { [P in K]: z.ZodType<string> };
  return base
    .meta({ tier: "repo" })
    .use(({ ctx, path, next }) => {
      const rule = ruleOf(path, "repo") as Extract<AccessRule, { tier: "repo" }>;
      if (ctx.actor) {
        try {
          requireScope(ctx.actor, rule.scope ?? SCOPE_FOR_LEVEL[rule.level]);
        } catch (e) {
          throw toTRPCError(e) ?? e;
        }
      }
      return next();
    })
    .input(z.object(shape))
    .use(async ({ ctx, path, input, next }) => {
      const entityId = (input as Record<K, string>)[def.key];
      if (def.via) {
        const rule = ruleOf(path, "repo") as Extract<AccessRule, { tier: "repo" }>;
        let found: { repo: AuthorizedRepo; entity: Record<string, unknown> };
        try {
          found = await authorizeRepoVia(ctx.db, ctx.actor, { ...def.via, id: entityId }, rule.level);
        } catch (e) {
          // an unknown entity, or one in a repository the caller cannot see: "<what> not found"
          if (e instanceof AppError && e.code === "NOT_FOUND") throw new TRPCError({ code: "NOT_FOUND", message: `${def.what} not found` });
          throw toTRPCError(e) ?? e;
        }
        await limitAfterAccess(ctx, path);
        return next({ ctx: { ...ctx, repo: found.repo, entityId, entity: found.entity as Record<string, unknown> | undefined } });
      }
      const repoId = await def.repoIdOf(ctx.db, entityId);
      if (!repoId) throw new TRPCError({ code: "NOT_FOUND", message: `${def.what} not found` });
      return withRepo(
        ctx,
        path,
        { repoId },
        (repo) => next({ ctx: { ...ctx, repo, entityId, entity: undefined as Record<string, unknown> | undefined } }),
        def.what,
      );
    });
}
