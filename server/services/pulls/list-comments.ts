/**
 * pulls.comments {prId} and pulls.getFileComments {prId, path} (docs/pulls.md "Review"): threads —
 * roots oldest first, each with its replies nested oldest first — hiding other users' pending
 * comments. A constant number of statements whatever the number of comments: the pull request row
 * (read with the authorization query by the tRPC tier's `via` locator, else one SELECT) and ONE
 * SELECT of the comments with their authors and resolvers (server/db/read.ts `readRows`, the
 * hot-read path), then git for the outdated marks (server/services/pulls/outdated.ts, one diff per
 * distinct commit the threads were made on, cached).
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { boolOf, isoOf } from "@/server/db/raw";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { Sql } from "@/server/services/issues/query";
import { pullBase } from "@/server/services/diff/pull-range";
import type { ReviewRepo } from "./review-context";
import { threadFreshness, type ThreadPosition } from "./outdated";
import { revisionOfShaSql } from "./revision-of";
import { toCommentView, toThreadView, type CommentRecord, type PullThreadView } from "./comment-view";

/** What the comment reads need of the pull request (the `via` locator reads these with the authorization query). */
export const PULL_HEAD_COLUMNS = ["id", "number", "state", "headSha", "baseSha", "targetBranch", "sourceRepoId"] as const;

export interface PullHead {
  id: string;
  number: number;
  state: string;
  headSha: string;
  baseSha: string;
  targetBranch: string;
  /** The repository of the head (the target's own id unless from a fork). */
  sourceRepoId: string;
}

/** The PULL_HEAD_COLUMNS of a row read by the locator, or undefined when absent or malformed. */
export function pullHeadOf(entity: Record<string, unknown> | undefined): PullHead | undefined {
  if (!entity || typeof entity.id !== "string" || typeof entity.headSha !== "string" || typeof entity.sourceRepoId !== "string")
    return undefined;
  return {
    id: entity.id,
    number: Number(entity.number),
    state: String(entity.state),
    headSha: entity.headSha,
    baseSha: String(entity.baseSha),
    targetBranch: String(entity.targetBranch),
    sourceRepoId: entity.sourceRepoId,
  };
}

/** Pull request `prId` of `repo` (PULL_HEAD_COLUMNS, one statement on the read path). NOT_FOUND. */
export async function loadPullHead(db: Db, repo: Pick<ReviewRepo, "id">, prId: string): Promise<PullHead> {
  const sql = new Sql(getConfig().provider);
  const rows = await readRows<Record<string, unknown>>(
    db,
    `SELECT ${PULL_HEAD_COLUMNS.map((c) => `p."${c}"`).join(", ")} FROM "PullRequest" p WHERE p."id" = ${sql.p(prId)} AND p."repoId" = ${sql.p(repo.id)}`,
    sql.params,
  );
  const head = pullHeadOf(rows[0]);
  if (!head) throw new AppError("NOT_FOUND", "pull request not found");
  return head;
}

/** Most comments one answer carries (a pull request past this is cut at the newest). */
export const MAX_COMMENTS = 20_000;

interface Row {
  id: string;
  body: string;
  path: string | null;
  line: unknown;
  side: string | null;
  startLine: unknown;
  endLine: unknown;
  commitSha: string | null;
  reviewId: string | null;
  replyToId: string | null;
  isPending: unknown;
  suggestion: string | null;
  appliedSha: string | null;
  diffHunk: string | null;
  resolvedAt: unknown;
  deletedAt: unknown;
  editedAt: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  authorId: string | null;
  authorUsername: string | null;
  authorName: string | null;
  authorIsBot: unknown;
  resolvedById: string | null;
  resolverUsername: string | null;
  resolverName: string | null;
  revision: number | bigint | null;
}

/** The comments statement (pure; exported for the benchmark): every visible comment of `prId`, optionally of one file. */
export function commentsSql(prId: string, callerId: string | null, path?: string): { text: string; params: unknown[] } {
  const sql = new Sql(getConfig().provider);
  const where = [`c."pullRequestId" = ${sql.p(prId)}`, `(c."isPending" = ${sql.p(false)} OR c."authorId" = ${sql.p(callerId ?? "")})`];
  if (path !== undefined) where.push(`c."path" = ${sql.p(path)}`);
  const text = `SELECT c."id", c."body", c."path", c."line", c."side", c."startLine", c."endLine", c."commitSha", c."reviewId", c."replyToId",
  c."isPending", c."suggestion", c."appliedSha", c."diffHunk", c."resolvedAt", c."deletedAt", c."editedAt", c."createdAt", c."updatedAt",
  c."authorId", au."username" AS "authorUsername", au."name" AS "authorName", au."isBot" AS "authorIsBot",
  c."resolvedById", ru."username" AS "resolverUsername", ru."name" AS "resolverName",
  ${revisionOfShaSql(`c."pullRequestId"`, `c."commitSha"`)} AS "revision"
FROM "PullRequestComment" c
LEFT JOIN "User" au ON au."id" = c."authorId"
LEFT JOIN "User" ru ON ru."id" = c."resolvedById"
WHERE ${where.join(" AND ")}
ORDER BY c."createdAt", c."id"
LIMIT ${sql.p(MAX_COMMENTS)}`;
  return { text, params: sql.params };
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const optIso = (v: unknown): string | null => (v === null || v === undefined ? null : isoOf(v));

function recordOfRow(r: Row): CommentRecord {
  return {
    id: r.id,
    body: r.body,
    path: r.path,
    line: num(r.line),
    side: r.side,
    startLine: num(r.startLine),
    endLine: num(r.endLine),
    commitSha: r.commitSha,
    revision: num(r.revision),
    reviewId: r.reviewId,
    replyToId: r.replyToId,
    isPending: boolOf(r.isPending),
    suggestion: r.suggestion,
    appliedSha: r.appliedSha,
    diffHunk: r.diffHunk,
    resolvedAt: optIso(r.resolvedAt),
    deletedAt: optIso(r.deletedAt),
    createdAt: isoOf(r.createdAt),
    updatedAt: isoOf(r.updatedAt),
    editedAt: optIso(r.editedAt),
    author:
      r.authorId && r.authorUsername
        ? { id: r.authorId, username: r.authorUsername, name: r.authorName, isBot: boolOf(r.authorIsBot) }
        : null,
    resolvedBy: r.resolvedById && r.resolverUsername ? { id: r.resolvedById, username: r.resolverUsername, name: r.resolverName } : null,
  };
}

/**
 * Threads of pull request `pull` (an id, or its row as the locator read it) in `repo` (already
 * authorized for read), as `caller` may see them; only the file `path`'s inline threads when
 * given. Errors: NOT_FOUND for an unknown pull request.
 */
export async function listPullComments(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  pull: string | PullHead,
  path?: string,
): Promise<PullThreadView[]> {
  const pr = typeof pull === "string" ? await loadPullHead(db, repo, pull) : pull;
  const { text, params } = commentsSql(pr.id, caller?.user.id ?? null, path);
  const rows = await readRows<Row>(db, text, params);
  const threads: PullThreadView[] = [];
  const byId = new Map<string, PullThreadView>();
  const records = rows.map(recordOfRow);
  for (const r of records) {
    if (r.replyToId !== null) continue;
    const t = toThreadView(r);
    threads.push(t);
    byId.set(t.id, t);
  }
  // a second pass: a reply written in the same millisecond as its root may sort before it
  for (const r of records) if (r.replyToId !== null) byId.get(r.replyToId)?.replies.push(toCommentView(r));
  await markOutdated(repo, pr, threads);
  return threads;
}

/** Sets isOutdated / currentLine / currentStartLine of the inline threads (git; see outdated.ts). */
async function markOutdated(
  repo: ReviewRepo,
  pr: { headSha: string; state: string; targetBranch: string; baseSha: string },
  threads: PullThreadView[],
): Promise<void> {
  const inline = threads.filter((t) => t.path !== null && t.line !== null && t.commitSha !== null);
  if (inline.length === 0) return;
  const base = inline.some((t) => t.side === "LEFT") ? await pullBase(repo, pr) : pr.headSha;
  const positions: ThreadPosition[] = inline.map((t) => ({
    path: t.path!,
    side: t.side ?? "RIGHT",
    startLine: t.startLine ?? t.line!,
    endLine: t.line!,
    commitSha: t.commitSha!,
  }));
  const fresh = await threadFreshness(repo.gitDir, base, pr.headSha, positions);
  inline.forEach((t, i) =>
    Object.assign(t, {
      isOutdated: fresh[i].outdated,
      currentLine: fresh[i].currentLine,
      currentStartLine: fresh[i].currentLine === null ? null : t.startLine === null ? null : fresh[i].currentStartLine,
    }),
  );
}
