/**
 * Check runs (issue #23; GitHub's "Check runs"): create, update, get, list for a commit. A check
 * run is updated in place; in svc's combined view the latest run of a name is the status context
 * of that name (combined-status.ts).
 */
import type { Db, Prisma } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { AppError } from "@/server/errors";
import { inTransaction, lockKey } from "@/server/db/transaction";
import { afterCommit } from "@/server/db/after-commit";
import {
  MAX_PER_CONTEXT,
  ValidationFailed,
  createCheckRunInput,
  parseOrFail,
  updateCheckRunInput,
  type UpdateCheckRunInput,
} from "./status-rules";
import { commitOfSha } from "./resolve-sha";
import { announceStatusChange } from "./announce";
import { checkRunSelect, type CheckRunRow } from "./rows";
import { emitCheckRunEvent } from "./status-webhooks";
import { enqueueCiFailure } from "@/server/services/notifications/enqueue";

export { checkRunSelect, type CheckRunRow } from "./rows";

type CheckFields = Omit<UpdateCheckRunInput, "name">;

/**
 * The stored fields for `input` over `before` (GitHub's rules): a conclusion makes the run
 * completed; completed needs a conclusion (422); completed_at defaults to now when completing;
 * started_at defaults to now on creation.
 */
function fieldsOf(input: CheckFields, before: CheckRunRow | null): Prisma.CheckRunUncheckedUpdateInput {
  const status = input.conclusion ? "completed" : (input.status ?? before?.status ?? "queued");
  const conclusion = input.conclusion ?? (status === "completed" ? before?.conclusion : null) ?? null;
  if (status === "completed" && !conclusion)
    throw new ValidationFailed([
      { resource: "CheckRun", field: "conclusion", code: "missing_field", message: "conclusion is required when status is completed" },
    ]);
  if (input.status && input.status !== "completed" && input.conclusion)
    throw new ValidationFailed([
      { resource: "CheckRun", field: "conclusion", code: "invalid", message: "conclusion is only allowed when status is completed" },
    ]);
  const data: Prisma.CheckRunUncheckedUpdateInput = { status, conclusion: status === "completed" ? conclusion : null };
  if (input.details_url !== undefined) data.detailsUrl = input.details_url;
  if (input.external_id !== undefined) data.externalId = input.external_id;
  if (input.output) {
    if (input.output.title !== undefined) data.outputTitle = input.output.title;
    if (input.output.summary !== undefined) data.outputSummary = input.output.summary;
    if (input.output.text !== undefined) data.outputText = input.output.text;
  }
  if (input.started_at !== undefined) data.startedAt = input.started_at ? new Date(input.started_at) : null;
  else if (!before) data.startedAt = new Date();
  if (input.completed_at !== undefined) data.completedAt = input.completed_at ? new Date(input.completed_at) : null;
  else if (status === "completed" && !before?.completedAt) data.completedAt = new Date();
  if (status !== "completed" && input.completed_at === undefined) data.completedAt = null;
  return data;
}

/**
 * Creates a check run from `body` (status-rules.ts `createCheckRunInput`) on commit `head_sha` of
 * `repo` (write permission checked by the caller). Errors: ValidationFailed (422) for a bad body,
 * an unknown commit, completed without a conclusion, or MAX_PER_CONTEXT (1,000) runs of one name on one commit.
 */
export async function createCheckRun(db: Db, actor: Actor, repo: AuthorizedRepo, body: unknown): Promise<CheckRunRow> {
  const input = parseOrFail(createCheckRunInput, body, "CheckRun");
  const headSha = await commitOfSha(repo, input.head_sha, "head_sha");
  const data = fieldsOf(input, null);
  return inTransaction(db, async (tx) => {
    await lockKey(tx, `check-run:${repo.id}:${headSha}:${input.name}`); // concurrent posts cannot pass the limit together
    const count = await tx.checkRun.count({ where: { repoId: repo.id, headSha, name: input.name } });
    if (count >= MAX_PER_CONTEXT)
      throw new ValidationFailed([
        {
          resource: "CheckRun",
          field: "name",
          code: "custom",
          message: `This SHA and name has reached the maximum number of check runs (${MAX_PER_CONTEXT}).`,
        },
      ]);
    const created = await tx.checkRun.create({
      data: { ...(data as Prisma.CheckRunUncheckedCreateInput), repoId: repo.id, headSha, name: input.name, creatorId: actor.user.id },
      select: checkRunSelect,
    });
    afterCommit(tx, () => announceStatusChange(repo.id, headSha));
    await emitCheckRunEvent(tx, repo, actor, "created", created);
    if (created.status === "completed")
      await enqueueCiFailure(tx, repo.id, headSha, created.conclusion, actor.user.id, `${created.name}: ${created.conclusion}`);
    return created;
  });
}

/** Check run `id` of `repoId`. Errors: NOT_FOUND "Not Found" when it is not a run of that repository. */
export async function getCheckRun(db: Db, repoId: string, id: number): Promise<CheckRunRow> {
  const run = Number.isSafeInteger(id) ? await db.checkRun.findFirst({ where: { id, repoId }, select: checkRunSelect }) : null;
  if (!run) throw new AppError("NOT_FOUND", "Not Found");
  return run;
}

/**
 * Updates check run `id` of `repo` with `body` (any create field but head_sha), by `actor` (the
 * webhook `check_run` "completed" names them as sender). Errors: NOT_FOUND;
 * ValidationFailed (422) as `createCheckRun`.
 */
export async function updateCheckRun(db: Db, actor: Actor, repo: AuthorizedRepo, id: number, body: unknown): Promise<CheckRunRow> {
  const input = parseOrFail(updateCheckRunInput, body, "CheckRun");
  return inTransaction(db, async (tx) => {
    const before = Number.isSafeInteger(id)
      ? await tx.checkRun.findFirst({ where: { id, repoId: repo.id }, select: checkRunSelect })
      : null;
    if (!before) throw new AppError("NOT_FOUND", "Not Found");
    const data = fieldsOf(input, before);
    if (input.name !== undefined) data.name = input.name;
    const updated = await tx.checkRun.update({ where: { id }, data, select: checkRunSelect });
    afterCommit(tx, () => announceStatusChange(repo.id, before.headSha));
    // GitHub sends check_run "completed" when a run completes; other updates send nothing
    if (updated.status === "completed" && before.status !== "completed") {
      await emitCheckRunEvent(tx, repo, actor, "completed", updated);
      await enqueueCiFailure(tx, repo.id, before.headSha, updated.conclusion, actor.user.id, `${updated.name}: ${updated.conclusion}`);
    }
    return updated;
  });
}

/** Filters of GET …/commits/{ref}/check-runs (GitHub's): check_name, status, filter latest|all (default latest per name). */
export interface CheckRunFilter {
  checkName?: string;
  status?: string;
  filter: "latest" | "all";
  page: number;
  perPage: number;
}

/**
 * The check runs of commit `sha` (a full id) in `repoId`, newest first, and their total count
 * (before paging). "latest" keeps only the newest run of each name.
 */
export async function listCheckRuns(
  db: Db,
  repoId: string,
  sha: string,
  f: CheckRunFilter,
): Promise<{ total: number; runs: CheckRunRow[] }> {
  const where: Prisma.CheckRunWhereInput = { repoId, headSha: sha };
  if (f.checkName) where.name = f.checkName;
  if (f.status) where.status = f.status;
  if (f.filter === "latest") {
    const latest = await db.checkRun.groupBy({ by: ["name"], where, _max: { id: true } });
    where.id = { in: latest.map((l) => l._max.id!).filter((x) => x !== null) };
  }
  const [total, runs] = await Promise.all([
    db.checkRun.count({ where }),
    db.checkRun.findMany({ where, orderBy: { id: "desc" }, skip: (f.page - 1) * f.perPage, take: f.perPage, select: checkRunSelect }),
  ]);
  return { total, runs };
}
