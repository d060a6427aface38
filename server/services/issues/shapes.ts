/**
 * The API shapes of the issue tracker (spec "Issue": dates as ISO strings, dueDate as
 * YYYY-MM-DD) and the Prisma selects that load their parts. Types and constants only: the reads
 * that fill them are in ./query.ts.
 */
import type { PriorityKey } from "@/lib/issues/model";

export const userSelect = { id: true, username: true, name: true } as const;
export const labelSelect = { id: true, name: true, color: true, description: true } as const;

export interface UserRef {
  id: string;
  username: string;
  name: string | null;
}
export interface LabelView {
  id: string;
  name: string;
  color: string;
  description: string | null;
}

/** An issue as the API returns it (spec "Issue"; absent optional fields are null). */
export interface IssueView {
  id: string;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  status: string;
  priority: PriorityKey;
  /** YYYY-MM-DD */
  dueDate: string | null;
  estimate: number | null;
  parentNumber: number | null;
  projectId: string | null;
  cycleId: string | null;
  authorId: string | null;
  author: UserRef | null;
  assigneeId: string | null;
  assignee: UserRef | null;
  labels: LabelView[];
  /** number of direct sub-issues */
  subIssueCount: number;
  /** percentage (0–100, floored) of direct sub-issues that are closed */
  subIssueProgress: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Extension: who closed it (newest close in the activity log); null when open or unknown */
  closedBy: UserRef | null;
}
