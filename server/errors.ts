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
  | "TOO_MANY_REQUESTS";

const STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  TOO_MANY_REQUESTS: 429,
};

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Seconds to wait, for TOO_MANY_REQUESTS. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** HTTP status for an AppError code (400, 401, 403, 404, 409, 412, 429). */
export function httpStatusOf(code: AppErrorCode): number {
  return STATUS[code];
}

/** Shorthands used by the services. */
export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);
export const conflict = (message: string) => new AppError("CONFLICT", message);
export const forbidden = (message: string) => new AppError("FORBIDDEN", message);
