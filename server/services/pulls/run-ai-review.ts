/**
 * The `pulls.aiReview` job (server/jobs/handlers.ts): works one AI review run (ai-review.ts) —
 * reads the pull request's three-dot diff at the run's head, reviews it with the repository's
 * engine (server/ai/resolve.ts: a model, or the local rules), and posts the findings on added
 * lines as one review of the bot user (ai-bot.ts) with inline comments — threads like any other,
 * resolvable — then marks the run done. Open pages hear of every status change (live updates,
 * notice type `ai_review`).
 *
 * Failures: an AppError (the provider failed, the repository key's daily budget is used up, the
 * pull request is gone or closed) marks the run failed with its message at once — for a provider
 * failure the generic message, its redacted words in `errorDetail` for admins (server/ai/redact.ts); any other error (git or the database failing, the process
 * dying mid-way) lets the job queue run it again, up to MAX_ATTEMPTS runs in all, then failed.
 * Delivery is at least once: a run already done or failed is left alone, and only the attempt
 * that last claimed the run may finish it (compare-and-set on `attempts`).
 * Re-runs: on a head reviewed before, only findings the bot has not already posted at that head
 * are posted; with none new, no review is posted and the run points at the earlier review.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { LOCAL_ENGINE, type AiEngine } from "@/server/ai/engine";
import { resolveAiEngine } from "@/server/ai/resolve";
import { AiProviderError, redactSecrets } from "@/server/ai/redact";
import { chargeEngine } from "@/server/services/ai/budget";
import { reviewLocally, type Finding, type ReviewFile } from "@/server/ai/review-rules";
import { reviewWithModel } from "@/server/ai/review-model";
import { diffThreeDot, type DiffFile } from "@/server/git/diff";
import { objectInfo } from "@/server/git/objects";
import { repoGitDir } from "@/server/git/paths";
import { pullBase } from "@/server/services/diff/pull-range";
import { inTransaction } from "@/server/db/transaction";
import { aiBotUserId } from "./ai-bot";
import { hunkText, lineIndex } from "./diff-anchor";
import { notifyPull, recordPullEvent } from "./events";

/** Runs of one review at most (the first and the re-runs after a crash). */
export const MAX_ATTEMPTS = 3;
/** A model review is abandoned (failed) after this long (ms). */
export const MODEL_TIMEOUT_MS = 120_000;

export interface RunAiReviewOptions {
  /** The engine to use instead of resolveAiEngine's (tests inject a fake provider). */
  engine?: AiEngine;
}

/** Thrown when another attempt finished the run first: this one's transaction rolls back. */
class Superseded extends Error {}

const SEVERITY_LABEL = { error: "Error", warning: "Warning", info: "Note" } as const;

/** The inline comment's body for a finding. */
export function findingComment(f: Finding): string {
  return `**${SEVERITY_LABEL[f.severity]}**: ${f.message}`;
}

/** What the rules read of the diff: per file the added lines (new-side numbers). Pure. */
export function reviewFilesOf(files: DiffFile[], sizes: ReadonlyMap<string, number>): ReviewFile[] {
  return files.map((f) => {
    const added: ReviewFile["added"] = [];
    for (const h of f.hunks) {
      let n = h.newStart;
      for (const l of h.lines) {
        if (l.type === "add") added.push({ line: n, text: l.content });
        if (l.type !== "delete") n++;
      }
    }
    const size = f.newSha ? sizes.get(f.newSha) : undefined;
    return {
      path: f.newPath,
      status: f.status,
      isBinary: f.isBinary,
      additions: f.additions,
      deletions: f.deletions,
      added,
      ...(size !== undefined ? { size } : {}),
    };
  });
}

/** Sizes (bytes) of the binary files' new blobs, one `objectInfo` (git cat-file --batch-check). */
async function binarySizes(gitDir: string, files: DiffFile[]): Promise<Map<string, number>> {
  const ids = [...new Set(files.filter((f) => f.isBinary && f.newSha && !f.isSubmodule).map((f) => f.newSha!))];
  const sizes = new Map<string, number>();
  // sizes only annotate the findings: a failed lookup leaves them out rather than failing the review
  for (const o of await objectInfo(gitDir, ids).catch(() => [])) if (o) sizes.set(o.id, o.size);
  return sizes;
}

/**
 * Marks the run failed with `message` (what readers see) and `detail` (the provider's words,
 * already redacted: server/ai/redact.ts; repository admins only), unless another attempt moved it.
 */
async function fail(db: Db, runId: string, prId: string, attempts: number, message: string, detail?: string): Promise<void> {
  const r = await db.pullRequestAiReview.updateMany({
    where: { id: runId, status: "running", attempts },
    data: { status: "failed", error: message.slice(0, 1000), errorDetail: detail?.slice(0, 1000) ?? null },
  });
  if (r.count) notifyPull(db, prId, "ai_review", null);
}

/**
 * Works run `runId` (see the file comment). Resolves when the run is done or recorded failed;
 * throws (so the queue retries) only for unexpected errors before MAX_ATTEMPTS.
 */
export async function runAiReview(db: Db, runId: string, opts: RunAiReviewOptions = {}): Promise<void> {
  const run = await db.pullRequestAiReview.findUnique({ where: { id: runId } });
  if (!run || run.status === "done" || run.status === "failed") return;
  const attempts = run.attempts + 1;
  const claimed = await db.pullRequestAiReview.updateMany({
    where: { id: runId, status: { in: ["queued", "running"] }, attempts: run.attempts },
    data: { status: "running", attempts },
  });
  if (claimed.count === 0) return; // another attempt claimed it meanwhile
  notifyPull(db, run.pullRequestId, "ai_review", null);
  if (attempts > MAX_ATTEMPTS) {
    return fail(
      db,
      runId,
      run.pullRequestId,
      attempts,
      `the review stopped before finishing ${MAX_ATTEMPTS} times (the server restarted or crashed during it); re-run it`,
    );
  }
  try {
    await review(db, run, attempts, opts);
  } catch (e) {
    if (e instanceof Superseded) return;
    if (e instanceof AiProviderError) return fail(db, runId, run.pullRequestId, attempts, e.message, e.detail);
    if (e instanceof AppError) return fail(db, runId, run.pullRequestId, attempts, e.message);
    if (attempts < MAX_ATTEMPTS) throw e;
    const said = redactSecrets(e instanceof Error ? e.message : String(e)).slice(0, 300);
    console.error(`AI review run ${runId} failed: ${said}`);
    return fail(db, runId, run.pullRequestId, attempts, `the review failed: ${said}`);
  }
}

type RunRow = NonNullable<Awaited<ReturnType<Db["pullRequestAiReview"]["findUnique"]>>>;

async function review(db: Db, run: RunRow, attempts: number, opts: RunAiReviewOptions): Promise<void> {
  const pr = await db.pullRequest.findUnique({
    where: { id: run.pullRequestId },
    include: { repo: { select: { name: true, owner: { select: { username: true } } } } },
  });
  if (!pr) throw new AppError("NOT_FOUND", "the pull request no longer exists");
  if (pr.state !== "open") throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} was ${pr.state} before the review ran`);
  const gitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  const engine = opts.engine ?? (await resolveAiEngine(db, pr.repoId).catch(() => LOCAL_ENGINE));
  // the run was asked for by a signed-in person (pulls.create / update / triggerAIReview): one
  // request of the repository key's daily budget (TOO_MANY_REQUESTS fails the run, saying so)
  if (!opts.engine) await chargeEngine(db, pr.repoId, engine);
  await db.pullRequestAiReview.updateMany({ where: { id: run.id, attempts }, data: { engine: engine.engine } });

  const base = await pullBase({ gitDir }, pr);
  const diff = await diffThreeDot(gitDir, base, run.headSha);
  const input = { files: reviewFilesOf(diff.files, await binarySizes(gitDir, diff.files)), totalFiles: diff.totalFiles };
  const result =
    engine.kind === "model"
      ? await reviewWithModel(engine, input, diff.files, AbortSignal.timeout(MODEL_TIMEOUT_MS))
      : reviewLocally(input);

  const inline = result.findings.filter((f): f is Finding & { path: string; line: number } => f.path !== null && f.line !== null);
  const byPath = new Map(diff.files.map((f) => [f.newPath, f]));
  const botId = await aiBotUserId(db);
  const engineNote = engine.kind === "local" ? "the local engine (rules, no model)" : `\`${engine.engine}\``;
  const body = `${result.body}\n\n_AI review by ${engineNote} of ${run.headSha.slice(0, 7)}._`;
  await inTransaction(db, async (tx) => {
    // what the bot already said at this head (an earlier run), so a re-run does not repeat it
    const said = await tx.pullRequestComment.findMany({
      where: { pullRequestId: pr.id, authorId: botId, commitSha: run.headSha, replyToId: null },
      select: { path: true, line: true, body: true },
    });
    const known = new Set(said.map((c) => `${c.path}\0${c.line}\0${c.body}`));
    const fresh = inline.filter((f) => !known.has(`${f.path}\0${f.line}\0${findingComment(f)}`));
    const earlier = await tx.pullRequestAiReview.findFirst({
      where: { pullRequestId: pr.id, headSha: run.headSha, status: "done", reviewId: { not: null } },
      orderBy: { createdAt: "desc" },
      select: { reviewId: true },
    });
    let reviewId = earlier?.reviewId ?? null;
    if (fresh.length > 0 || (inline.length > 0 && !reviewId)) {
      const posted = await tx.pullRequestReview.create({
        data: { pullRequestId: pr.id, authorId: botId, state: result.state, body, commitSha: run.headSha },
      });
      reviewId = posted.id;
      for (const f of fresh) {
        const file = byPath.get(f.path);
        const at = file && lineIndex(file).RIGHT.get(f.line);
        await tx.pullRequestComment.create({
          data: {
            pullRequestId: pr.id,
            authorId: botId,
            body: findingComment(f),
            path: f.path,
            line: f.line,
            side: "RIGHT",
            commitSha: run.headSha,
            reviewId,
            diffHunk: file && at ? hunkText(file.hunks[at[0]]!, at[1]) : null,
          },
        });
      }
      await recordPullEvent(tx, pr.id, "reviewed", { reviewId, state: result.state, commitSha: run.headSha }, botId);
    }
    const done = await tx.pullRequestAiReview.updateMany({
      where: { id: run.id, status: "running", attempts },
      data: {
        status: "done",
        type: inline.length ? "review" : "comment",
        body,
        state: result.state,
        engine: engine.engine,
        findings: JSON.stringify(result.findings),
        error: null,
        errorDetail: null,
        reviewId: inline.length ? reviewId : null,
      },
    });
    if (done.count === 0) throw new Superseded("another attempt finished this review");
    notifyPull(tx, pr.id, "ai_review", botId);
  });
}
