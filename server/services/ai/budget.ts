/**
 * Who may make a model spend a repository's key, and how much (docs/ai.md "Who reaches a model,
 * and the budget"; docs/security.md "Hardening II, item 5"):
 *
 *   engineForCaller  the engine a request of `caller` gets: anonymous callers get the local
 *                    engine (no model, no key is spent); signed-in callers get the repository's
 *                    engine (resolveAiEngine), and when that is the repository's own key, one
 *                    request of its daily budget is taken first (chargeAiRequest)
 *   chargeAiRequest  takes one request of the repository's budget for today (UTC), or refuses with
 *                    TOO_MANY_REQUESTS; one atomic upsert on RepoAiUsage, so processes sharing the
 *                    database never let more through than the budget
 *   getAiBudget / setAiBudget   repoAiKeys.budget / repoAiKeys.setBudget (repository admins)
 *
 * Counted: every request that calls the model with the repository's key on behalf of a person —
 * an explanation, a conflict suggestion, a chat answer, a pull request description, a squash
 * message, an agent turn, an AI review run — counted when it is made (a provider failure still
 * counts). Not counted: embeddings (index refreshes after pushes, a search's query vector: a small
 * fraction of a generation's cost, and a search needs a signed-in caller), and the server's own
 * provider (the operator's key, bounded by the per-user rate limits).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { consume } from "@/server/rate-limit";
import { LOCAL_ENGINE, type AiEngine } from "@/server/ai/engine";
import { resolveAiEngine } from "@/server/ai/resolve";

/** Requests a day a repository key may make when its admin set no budget. */
export const AI_DAILY_REQUESTS_DEFAULT = 500;
/** Largest budget an admin can set (requests a day). */
export const MAX_AI_DAILY_REQUESTS = 1_000_000;

/** The UTC date of `now` as YYYY-MM-DD (the budget's day). */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The next 00:00 UTC after `now`, when the budget starts again. */
export function nextUtcMidnight(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

async function dailyLimit(db: Db, repoId: string): Promise<{ limit: number; isDefault: boolean }> {
  const repo = await db.repository.findUnique({ where: { id: repoId }, select: { aiDailyRequests: true } });
  const set = repo?.aiDailyRequests;
  return set === null || set === undefined ? { limit: AI_DAILY_REQUESTS_DEFAULT, isDefault: true } : { limit: set, isDefault: false };
}

function exhausted(limit: number, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.ceil((seconds % 3600) / 60);
  const wait = h ? `${h} h ${m} min` : `${m} min`;
  return new AppError(
    "TOO_MANY_REQUESTS",
    limit === 0
      ? "this repository's AI key is switched off (a budget of 0 requests a day); a repository admin can raise it in Settings → AI"
      : `this repository's AI key has used its budget of ${limit} request${limit === 1 ? "" : "s"} today; it starts again at 00:00 UTC (in ${wait}), or a repository admin can raise it in Settings → AI`,
    seconds,
  );
}

/**
 * Takes one request of repository `repoId`'s daily budget (UTC day). One statement: INSERT … ON
 * CONFLICT DO UPDATE SET requests = requests + 1 WHERE requests < limit RETURNING requests — no
 * row back means the budget is used up. Atomic in SQLite and PostgreSQL alike, so two processes
 * (or two connections) can never both take the last request.
 * @throws AppError TOO_MANY_REQUESTS (retryAfter: seconds to 00:00 UTC) when the budget is used up or 0.
 */
export async function chargeAiRequest(db: Db, repoId: string, now: Date = new Date()): Promise<void> {
  const { limit } = await dailyLimit(db, repoId);
  if (limit <= 0) throw exhausted(0, now);
  const day = utcDay(now);
  const rows = await db.$queryRaw<Array<{ requests: number | bigint }>>`
    INSERT INTO "RepoAiUsage" ("repoId", "day", "requests") VALUES (${repoId}, ${day}, 1)
    ON CONFLICT ("repoId", "day") DO UPDATE SET "requests" = "RepoAiUsage"."requests" + 1
    WHERE "RepoAiUsage"."requests" < ${limit}
    RETURNING "requests"`;
  if (rows.length === 0) throw exhausted(limit, now);
}

/**
 * Takes one request of the budget when `engine` is a model with the repository's own key
 * (`source: "repository"`); nothing for the server's provider or the local engine.
 * @throws AppError TOO_MANY_REQUESTS as chargeAiRequest.
 */
export async function chargeEngine(db: Db, repoId: string, engine: AiEngine): Promise<void> {
  if (engine.kind === "model" && engine.source === "repository") await chargeAiRequest(db, repoId);
}

/**
 * The engine for one request of `caller` in repository `repo` (read access already checked):
 * LOCAL_ENGINE for an anonymous caller (a model may spend a key: docs/ai.md); otherwise the
 * repository's engine (resolveAiEngine), its budget charged when it is the repository's key.
 * Call it only where a model call follows.
 * @throws AppError TOO_MANY_REQUESTS when the repository key's budget for today is used up.
 */
export async function engineForCaller(db: Db, caller: Actor | null, repo: { id: string }): Promise<AiEngine> {
  if (!caller) return LOCAL_ENGINE;
  const engine = await resolveAiEngine(db, repo.id);
  await chargeEngine(db, repo.id, engine);
  return engine;
}

/** repoAiKeys.budget: the repository key's daily budget and today's use. */
export interface AiBudgetView {
  /** Requests a day (UTC) the repository's own key may make. */
  dailyRequests: number;
  /** True when no admin set it (AI_DAILY_REQUESTS_DEFAULT). */
  isDefault: boolean;
  /** Requests counted today (UTC). */
  usedToday: number;
  /** The UTC day counted, YYYY-MM-DD. */
  day: string;
  /** When the count starts again (ISO 8601, the next 00:00 UTC). */
  resetsAt: string;
}

/** The budget of repository `repoId` and its use today. Two indexed reads. */
export async function getAiBudget(db: Db, repoId: string, now: Date = new Date()): Promise<AiBudgetView> {
  const day = utcDay(now);
  const [{ limit, isDefault }, usage] = await Promise.all([
    dailyLimit(db, repoId),
    db.repoAiUsage.findUnique({ where: { repoId_day: { repoId, day } }, select: { requests: true } }),
  ]);
  return { dailyRequests: limit, isDefault, usedToday: usage?.requests ?? 0, day, resetsAt: nextUtcMidnight(now).toISOString() };
}

export const setAiBudgetInput = z.object({
  /** Requests a day, 0 (the key is not used) to MAX_AI_DAILY_REQUESTS; null: back to the default. */
  dailyRequests: z
    .number({ error: "dailyRequests must be a whole number or null" })
    .int("dailyRequests must be a whole number")
    .min(0, "dailyRequests is 0 or more")
    .max(MAX_AI_DAILY_REQUESTS, `dailyRequests is at most ${MAX_AI_DAILY_REQUESTS}`)
    .nullable(),
});

/**
 * Sets repository `repoId`'s daily budget (null: AI_DAILY_REQUESTS_DEFAULT); today's count is
 * kept, so lowering it below today's use refuses the rest of the day. TOO_MANY_REQUESTS past
 * LIMITS.aiKeyChanges (shared with key changes). → the budget as getAiBudget shows it.
 */
export async function setAiBudget(db: Db, actorId: string, repoId: string, input: z.input<typeof setAiBudgetInput>): Promise<AiBudgetView> {
  const { dailyRequests } = setAiBudgetInput.parse(input);
  await consume("aiKeyChanges", actorId);
  await db.repository.update({ where: { id: repoId }, data: { aiDailyRequests: dailyRequests } });
  return getAiBudget(db, repoId);
}
