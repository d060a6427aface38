/**
 * The one error type the domain throws. Transports map it: tRPC through the error middleware in
 * server/api/trpc.ts, REST and git HTTP through `httpStatusOf`.
 */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PRECONDITION_FAILED"
  | "TOO_MANY_REQUESTS"
  | "SERVICE_UNAVAILABLE";

const STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Seconds to wait, for TOO_MANY_REQUESTS and SERVICE_UNAVAILABLE (sent as Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** HTTP status for an AppError code (400, 401, 403, 404, 409, 412, 429, 503). */
export function httpStatusOf(code: AppErrorCode): number {
  return STATUS[code];
}

/**
 * True when `e` (or any error in its `cause` chain) is SQLite's "database is locked"
 * (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT …): another process held the write lock for longer than the
 * busy timeout (server/db/index.ts). It says nothing is wrong with the request, only "not now".
 */
export function isDatabaseBusy(e: unknown): boolean {
  // Prisma reports it as P1008 "Operation has timed out" with the driver's own error in
  // meta.driverAdapterError.cause {originalCode: "SQLITE_BUSY", originalMessage: "database is locked"}
  for (let cur: unknown = e, depth = 0; cur && typeof cur === "object" && depth < 8; depth++) {
    const err = cur as {
      code?: unknown;
      originalCode?: unknown;
      message?: unknown;
      originalMessage?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    for (const code of [err.code, err.originalCode]) if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return true;
    for (const m of [err.message, err.originalMessage]) if (typeof m === "string" && /database is locked|SQLITE_BUSY/i.test(m)) return true;
    cur = err.meta?.driverAdapterError ?? err.cause;
  }
  return false;
}

/** Seconds a client is told to wait (Retry-After) when the database is busy. */
export const DATABASE_BUSY_RETRY_SECONDS = 2;

/**
 * The answer for a busy database: 503 SERVICE_UNAVAILABLE with Retry-After, never a 500 — the
 * request was fine and changed nothing (its transaction never began), so it can simply be sent again.
 */
export const databaseBusy = () =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    `the database is busy; try again in ${DATABASE_BUSY_RETRY_SECONDS} seconds`,
    DATABASE_BUSY_RETRY_SECONDS,
  );
