/**
 * Per-user limits on opening issues and commenting (numbers in
 * server/rate-limit.ts LIMITS, reasons in docs/api.md "Rate limits"). Callers with only read
 * permission — anyone on a public repository — get the strict limit; writers, who may
 * bulk-import, a generous one. Each call takes its point before the write, so parallel
 * requests cannot exceed the limit; a write that then fails still counts.
 */
import { atLeast, type Permission } from "@/server/services/repos/access";
import { consume } from "@/server/rate-limit";

/** Takes one issue creation for `userId`. Throws AppError TOO_MANY_REQUESTS (retryAfter seconds). */
export function takeIssueCreation(userId: string, permission: Permission): Promise<void> {
  return consume(atLeast(permission, "write") ? "issuesAsWriter" : "issuesAsReader", userId);
}

/** Takes one comment for `userId`. Throws AppError TOO_MANY_REQUESTS (retryAfter seconds). */
export function takeComment(userId: string, permission: Permission): Promise<void> {
  return consume(atLeast(permission, "write") ? "commentsAsWriter" : "commentsAsReader", userId);
}
