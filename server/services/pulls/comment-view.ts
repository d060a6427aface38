/**
 * Pull request comments and threads as the API returns them (docs/pulls.md "Review"; spec "Pull
 * request comment" plus extensions): dates as ISO strings, absent fields null, the raw Markdown
 * body (the UI renders it). A thread is a top-level comment with its replies nested, oldest first.
 */
import type { Prisma } from "@/server/db";
import type { PullUser } from "./view";

export interface PullCommentView {
  id: string;
  /** Raw Markdown; "" for a deleted thread root kept for its replies. */
  body: string;
  /** Inline comments: the file, the last line of the range, its side, the range's first line (null for one line). Replies carry their root's. */
  path: string | null;
  line: number | null;
  side: "LEFT" | "RIGHT" | null;
  startLine: number | null;
  endLine: number | null;
  /** The head the comment was made on. */
  commitSha: string | null;
  /**
   * The pull request revision (pulls.revisions `number`) whose head is `commitSha`: the revision the
   * comment was made on. Filled by pulls.comments; null when unknown (a write's answer, or a commit
   * that was never a head of the pull request).
   */
  revision: number | null;
  reviewId: string | null;
  /** The thread's root (null for a root). */
  replyToId: string | null;
  /** Part of the author's review not yet submitted (only the author sees it). */
  isPending: boolean;
  /** Suggested replacement text for lines startLine..line (RIGHT side), or null. */
  suggestion: string | null;
  /** The commit that applied the suggestion, or null. */
  appliedSha: string | null;
  author: PullUser | null;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  /** Beyond the spec: when the author last edited the text (ISO 8601), else null — the "edited" marker. */
  editedAt: string | null;
}

export interface PullThreadView extends PullCommentView {
  /** The hunk the thread was made on, up to its line (inline threads), for showing it when outdated. */
  diffHunk: string | null;
  isResolved: boolean;
  resolvedAt: string | null;
  resolvedBy: PullUser | null;
  /** Inline threads: its lines changed since its commit (docs/pulls.md "Review"); false for general comments. */
  isOutdated: boolean;
  /** Where the range is at the current head (null when outdated or not inline). */
  currentLine: number | null;
  currentStartLine: number | null;
  replies: PullCommentView[];
}

/** A comment row normalized from Prisma or the raw read (dates as ISO strings). */
export interface CommentRecord extends Omit<PullCommentView, "side" | "isDeleted" | "revision"> {
  /** The revision the comment was made on, when the reader computed it (pulls.comments' statement). */
  revision?: number | null;
  side: string | null;
  diffHunk: string | null;
  resolvedAt: string | null;
  deletedAt: string | null;
  resolvedBy: PullUser | null;
}

export const commentUserSelect = { id: true, username: true, name: true, isBot: true } as const;
export const commentInclude = {
  author: { select: commentUserSelect },
  resolvedBy: { select: commentUserSelect },
} satisfies Prisma.PullRequestCommentInclude;

type PrismaCommentRow = Prisma.PullRequestCommentGetPayload<{ include: typeof commentInclude }>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A Prisma row (with `commentInclude`) as a CommentRecord. */
export function recordOf(r: PrismaCommentRow): CommentRecord {
  return {
    ...r,
    resolvedAt: iso(r.resolvedAt),
    deletedAt: iso(r.deletedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    editedAt: iso(r.editedAt),
  };
}

/** The API view of one comment. */
export function toCommentView(r: CommentRecord): PullCommentView {
  return {
    id: r.id,
    body: r.deletedAt ? "" : r.body,
    path: r.path,
    line: r.line,
    side: r.side as PullCommentView["side"],
    startLine: r.startLine,
    endLine: r.endLine,
    commitSha: r.commitSha,
    revision: r.revision ?? null,
    reviewId: r.reviewId,
    replyToId: r.replyToId,
    isPending: r.isPending,
    suggestion: r.deletedAt ? null : r.suggestion,
    appliedSha: r.appliedSha,
    author: r.deletedAt ? null : r.author,
    isDeleted: r.deletedAt !== null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    editedAt: r.deletedAt ? null : r.editedAt,
  };
}

/** The thread view of a root (freshness filled in by the caller; replies appended). */
export function toThreadView(r: CommentRecord): PullThreadView {
  return {
    ...toCommentView(r),
    diffHunk: r.diffHunk,
    isResolved: r.resolvedAt !== null,
    resolvedAt: r.resolvedAt,
    resolvedBy: r.resolvedBy,
    isOutdated: false,
    currentLine: r.path ? r.line : null,
    currentStartLine: r.path ? r.startLine : null,
    replies: [],
  };
}
