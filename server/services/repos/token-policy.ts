/**
 * The organization token policy (docs/orgs.md "Token policy"; Gitea's and GitHub's "personal access
 * token expiration policy"): an organization with `User.orgTokenMaxDays = N` accepts on its
 * repositories only personal access tokens that expire within N days of their creation. Checked by
 * the one authorization gate (access.ts `authorizeRepo`), after read permission, so every
 * transport (tRPC, REST, git smart HTTP, SSE) refuses the same way and a private repository still
 * answers NOT_FOUND to those who cannot read it. Browser sessions and service tokens are not
 * personal access tokens and are never refused.
 */
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";

const DAY_MS = 86_400_000;
/**
 * Slack on the lifetime: a token made with `expiresInDays: N` gets `expiresAt` from the
 * application's clock and `createdAt` from the database's default, which may differ by a moment.
 */
const SLACK_MS = 60_000;

/** The smallest and largest policy an owner may set (days). */
export const TOKEN_MAX_DAYS_MIN = 1;
export const TOKEN_MAX_DAYS_MAX = 366;

/**
 * True when a token created at `createdAt` and expiring at `expiresAt` (null: never) satisfies a
 * policy of `maxDays` days: it expires, and `expiresAt − createdAt` is at most `maxDays` days.
 */
export function tokenWithinPolicy(token: { createdAt: Date; expiresAt: Date | null } | undefined, maxDays: number): boolean {
  if (!token?.expiresAt) return false;
  return token.expiresAt.getTime() - token.createdAt.getTime() <= maxDays * DAY_MS + SLACK_MS;
}

/**
 * Refuses a personal access token that breaks the policy of organization `owner` (`maxDays`, null:
 * no policy). A PAT actor without known lifetime (`actor.token` absent) counts as never expiring.
 * Errors: FORBIDDEN "organization acme requires personal access tokens that expire within 30 days".
 */
export function enforceTokenPolicy(actor: Actor, owner: string, maxDays: number | null): void {
  if (maxDays === null || actor.via !== "pat") return;
  if (tokenWithinPolicy(actor.token, maxDays)) return;
  throw new AppError(
    "FORBIDDEN",
    `organization ${owner} requires personal access tokens that expire within ${maxDays} day${maxDays === 1 ? "" : "s"}`,
  );
}
