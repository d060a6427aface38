/**
 * The pull request as the API returns it (spec "Pull request": dates as ISO strings, absent
 * optional fields null) and the mapper every pulls service uses, `toPullView`.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";

export type PullState = "open" | "closed" | "merged";

export interface PullUser {
  id: string;
  username: string;
  name: string | null;
  /** A bot account such as the AI reviewer `svc-ai` (shown with a "bot" badge); absent for people in older views. */
  isBot?: boolean;
}

export interface PullLabel {
  id: string;
  name: string;
  color: string;
}

/** spec "Pull request". */
export interface PullView {
  id: string;
  number: number;
  title: string;
  body: string | null;
  state: PullState;
  sourceBranch: string;
  targetBranch: string;
  headSha: string;
  baseSha: string;
  authorId: string | null;
  author: PullUser | null;
  labels: PullLabel[];
  isDraft: boolean;
  createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  closedAt: string | null;
}

/** The row shape `toPullView` reads (Prisma with `pullViewInclude`, or the list SQL mapped to it). */
export interface PullRow {
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
  author: PullUser | null;
  labels: { label: PullLabel }[];
  isDraft: boolean;
  /** Dates from Prisma, or ISO strings already (the list reads them as text: isoOf). */
  createdAt: Date | string;
  updatedAt: Date | string;
  mergedAt: Date | string | null;
  closedAt: Date | string | null;
}

const iso = (d: Date | string): string => (typeof d === "string" ? d : d.toISOString());

export const pullUserSelect = { id: true, username: true, name: true, isBot: true } as const;

/** Prisma include giving the relations `toPullView` needs (labels by name). */
export const pullViewInclude = {
  author: { select: pullUserSelect },
  labels: { select: { label: { select: { id: true, name: true, color: true } } }, orderBy: { label: { nameLower: "asc" } } },
} satisfies Prisma.PullRequestInclude;

/** Shapes a pull request row for the API (spec "Pull request"). */
export function toPullView(row: PullRow): PullView {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    body: row.body,
    state: row.state as PullState,
    sourceBranch: row.sourceBranch,
    targetBranch: row.targetBranch,
    headSha: row.headSha,
    baseSha: row.baseSha,
    authorId: row.authorId,
    author: row.author ? { id: row.author.id, username: row.author.username, name: row.author.name } : null,
    labels: row.labels.map((l) => ({ id: l.label.id, name: l.label.name, color: l.label.color })),
    isDraft: row.isDraft,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    mergedAt: row.mergedAt === null ? null : iso(row.mergedAt),
    closedAt: row.closedAt === null ? null : iso(row.closedAt),
  };
}

/** The view of pull request `id` (two queries at most: the row with its relations). NOT_FOUND. */
export async function pullViewById(db: Db | Prisma.TransactionClient, id: string): Promise<PullView> {
  const row = await db.pullRequest.findUnique({ where: { id }, include: pullViewInclude });
  if (!row) throw new AppError("NOT_FOUND", "pull request not found");
  return toPullView(row);
}
