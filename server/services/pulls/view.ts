/**
 * The API shape of a pull request (spec "Pull request": id, number, title, body, state,
 * sourceBranch, targetBranch, headSha, baseSha, authorId, author, labels, isDraft, createdAt,
 * updatedAt, mergedAt, closedAt; dates as ISO strings) and the Prisma include that loads what
 * it needs.
 */
import type { Prisma } from "@/server/db";

/** Include for `toPullView`: the author's public fields and the labels. */
export const pullViewInclude = {
  author: { select: { id: true, username: true, name: true } },
  labels: { include: { label: { select: { id: true, name: true, color: true } } }, orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.PullRequestInclude;

export type PullRowWithView = Prisma.PullRequestGetPayload<{ include: typeof pullViewInclude }>;

export interface PullView {
  id: string;
  number: number;
  title: string;
  body: string | null;
  state: string;
  sourceBranch: string;
  targetBranch: string;
  headSha: string;
  baseSha: string;
  authorId: string | null;
  author: { id: string; username: string; name: string | null } | null;
  labels: { id: string; name: string; color: string }[];
  isDraft: boolean;
  createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  closedAt: string | null;
}

/** A PullRequest row (with `pullViewInclude`) as the spec's Pull request. */
export function toPullView(row: PullRowWithView): PullView {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    body: row.body,
    state: row.state,
    sourceBranch: row.sourceBranch,
    targetBranch: row.targetBranch,
    headSha: row.headSha,
    baseSha: row.baseSha,
    authorId: row.authorId,
    author: row.author ? { id: row.author.id, username: row.author.username, name: row.author.name } : null,
    labels: row.labels.map((l) => ({ id: l.label.id, name: l.label.name, color: l.label.color })),
    isDraft: row.isDraft,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    mergedAt: row.mergedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}
