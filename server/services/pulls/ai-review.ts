/**
 * AI review runs of a pull request (spec pulls.getAIReview,
 * pulls.triggerAIReview, Events 2; docs/ai.md "AI review"). A run is a PullRequestAiReview row:
 * queued → running → done | failed, worked by the durable job `pulls.aiReview`
 * (run-ai-review.ts).
 *
 * Started by: a non-draft pulls.create, pulls.update isDraft → false (ready for review), and
 * pulls.triggerAIReview (re-run). The row is written in the transaction of the change that asks
 * for it; the job is enqueued after that transaction commits (never inside it: server/jobs). If
 * the enqueue fails the run is marked failed at once (visible; re-run to try again), and a run
 * still queued QUEUED_STALE_MS after it was written is enqueued again when read (a process that
 * died between the commit and the enqueue); the singleton key keeps that from doubling a job.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { enqueue } from "@/server/jobs";
import { AI_REVIEW } from "@/server/jobs/names";
import { requireActor } from "@/server/services/issues/core";
import { inTransaction } from "@/server/db/transaction";
import { atLeast, type AuthorizedRepo, type Permission } from "@/server/services/repos/access";
import type { Finding } from "@/server/ai/review-rules";
import { loadPull } from "./locate";
import { notifyPull } from "./events";

type Tx = Prisma.TransactionClient;

export type AiReviewStatus = "queued" | "running" | "done" | "failed";
export type AiReviewReason = "opened" | "ready_for_review" | "manual";

/** pulls.getAIReview's record: the spec's {id, type, body, state?, createdAt} plus the run's status, engine, head and findings. */
export interface AiReviewView {
  id: string;
  prId: string;
  status: AiReviewStatus;
  /** review: posted as a review with inline comments; comment: nothing inline, the body only (no review posted). */
  type: "review" | "comment";
  body: string | null;
  /** commented | changes_requested once done (never approved). */
  state: "commented" | "changes_requested" | null;
  engine: string | null;
  headSha: string;
  findings: Finding[];
  /**
   * Why the run failed. A provider failure: the generic message (engine and HTTP status) for
   * readers; for repository admins the provider's words with every key removed (server/ai/redact.ts).
   */
  error: string | null;
  reason: AiReviewReason;
  /** The PullRequestReview the run posted (or an earlier run of the same head posted), if any. */
  reviewId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A queued run left this long without a worker picking it up is enqueued again when read (ms). */
export const QUEUED_STALE_MS = 2 * 60_000;

type Row = Prisma.PullRequestAiReviewGetPayload<object>;

function parseFindings(text: string): Finding[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as Finding[]) : [];
  } catch {
    return [];
  }
}

/** The API shape of a run row, as a caller with `permission` on the repository sees it (`error`: see AiReviewView). */
export function toAiReviewView(r: Row, permission?: Permission): AiReviewView {
  return {
    id: r.id,
    prId: r.pullRequestId,
    status: r.status as AiReviewStatus,
    type: r.type === "comment" ? "comment" : "review",
    body: r.body,
    state: (r.state as AiReviewView["state"]) ?? null,
    engine: r.engine,
    headSha: r.headSha,
    findings: parseFindings(r.findings),
    error: permission === "admin" && r.errorDetail ? r.errorDetail : r.error,
    reason: r.reason as AiReviewReason,
    reviewId: r.reviewId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Writes a queued run of pull request `pr` at its head, inside the caller's transaction; returns its id. Enqueue it (`enqueueAiReview`) after the commit. */
export async function createAiReviewRun(
  tx: Tx | Db,
  pr: { id: string; headSha: string },
  reason: AiReviewReason,
  requestedById: string | null,
): Promise<string> {
  const row = await tx.pullRequestAiReview.create({
    data: { pullRequestId: pr.id, headSha: pr.headSha, reason, requestedById },
    select: { id: true },
  });
  notifyPull(tx, pr.id, "ai_review", requestedById);
  return row.id;
}

/**
 * Enqueues the job of run `runId` (call after the transaction that wrote it committed). Never
 * throws: when the queue refuses, the run is marked failed with the reason, so it is not lost
 * silently.
 */
export async function enqueueAiReview(db: Db, runId: string): Promise<void> {
  try {
    await enqueue(AI_REVIEW, { runId }, { singletonKey: runId });
  } catch (e) {
    console.error(`queueing AI review run ${runId} failed`, e);
    await db.pullRequestAiReview
      .updateMany({
        where: { id: runId, status: "queued" },
        data: { status: "failed", error: "the review could not be queued (the job queue is unavailable); re-run it" },
      })
      .catch(() => undefined);
  }
}

/** The latest run of pull request `prId` (newest first), or null. */
async function latestRun(db: Db | Tx, prId: string): Promise<Row | null> {
  return db.pullRequestAiReview.findFirst({ where: { pullRequestId: prId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/**
 * pulls.getAIReview {prId} → the pull request's most recent AI review run, or null (spec: "most
 * recent AI review record, or null"; `status` tells whether it is still pending). A run still
 * queued after QUEUED_STALE_MS is enqueued again (see the file comment).
 */
export async function getAiReview(db: Db, repo: Pick<AuthorizedRepo, "id" | "permission">, prId: string): Promise<AiReviewView | null> {
  const pr = await loadPull(db, repo, prId);
  const row = await latestRun(db, pr.id);
  if (!row) return null;
  if (row.status === "queued" && Date.now() - row.updatedAt.getTime() > QUEUED_STALE_MS) {
    // touch it first, so readers in the next QUEUED_STALE_MS do not enqueue again
    const touched = await db.pullRequestAiReview.updateMany({
      where: { id: row.id, status: "queued", updatedAt: row.updatedAt },
      data: { attempts: row.attempts },
    });
    if (touched.count === 1) void enqueueAiReview(db, row.id);
  }
  return toAiReviewView(row, repo.permission);
}

/**
 * pulls.triggerAIReview {prId} → the run (re-run, or the first review of a draft). Who: the pull
 * request's author or anyone with write permission (the access row is read-level with repo:write,
 * as pulls.update: the author can also start one by marking the pull request ready). Only an
 * open pull request (PRECONDITION_FAILED). While a run of the current head is queued or running,
 * that run is returned and no second one starts. Errors: UNAUTHORIZED, FORBIDDEN, NOT_FOUND.
 */
export async function triggerAiReview(
  db: Db,
  caller: Actor | null,
  repo: Pick<AuthorizedRepo, "id" | "permission">,
  prId: string,
): Promise<AiReviewView> {
  const actor = requireActor(caller);
  const pr = await loadPull(db, repo, prId);
  if (pr.authorId !== actor.user.id && !atLeast(repo.permission, "write")) {
    throw new AppError("FORBIDDEN", "only the pull request's author or someone with write permission can request an AI review");
  }
  if (pr.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}: only an open pull request can be reviewed`);
  const { row, created } = await inTransaction(db, async (tx) => {
    const latest = await latestRun(tx, pr.id);
    if (latest && (latest.status === "queued" || latest.status === "running") && latest.headSha === pr.headSha)
      return { row: latest, created: false };
    const id = await createAiReviewRun(tx, pr, "manual", actor.user.id);
    return { row: await tx.pullRequestAiReview.findUniqueOrThrow({ where: { id } }), created: true };
  });
  if (created) await enqueueAiReview(db, row.id);
  return toAiReviewView((await db.pullRequestAiReview.findUnique({ where: { id: row.id } })) ?? row, repo.permission);
}
