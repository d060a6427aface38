/**
 * The stored shapes of commit statuses and check runs as the statuses services read them (their
 * Prisma selects), shared by the services, GitHub's JSON shapes (github-shapes.ts) and the webhook
 * payloads, so none of them imports another for a type.
 */
import type { Prisma } from "@/server/db";

/** A stored commit status with its creator (null when the account was deleted). */
export interface CommitStatusRow {
  id: number;
  sha: string;
  state: string;
  context: string;
  description: string | null;
  targetUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  creator: { id: string; username: string; isAdmin: boolean } | null;
}

export const statusSelect = {
  id: true,
  sha: true,
  state: true,
  context: true,
  description: true,
  targetUrl: true,
  createdAt: true,
  updatedAt: true,
  creator: { select: { id: true, username: true, isAdmin: true } },
} as const;

export const checkRunSelect = {
  id: true,
  headSha: true,
  name: true,
  status: true,
  conclusion: true,
  detailsUrl: true,
  externalId: true,
  outputTitle: true,
  outputSummary: true,
  outputText: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type CheckRunRow = Prisma.CheckRunGetPayload<{ select: typeof checkRunSelect }>;
