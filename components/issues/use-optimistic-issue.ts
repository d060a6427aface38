"use client";
/**
 * Optimistic updates with rollback for the issue page's properties (docs/ui.md "Data flow"):
 * ./use-optimistic.ts on the issue, with the state following a changed status.
 */
import { stateForStatus } from "@/lib/issues/model";
import type { IssueDetail } from "./model";
import { useOptimistic } from "./use-optimistic";

/** The fields a property picker changes. */
export type IssuePatch = Partial<
  Pick<
    IssueDetail,
    "status" | "state" | "priority" | "labels" | "assigneeId" | "assignee" | "dueDate" | "estimate" | "projectId" | "cycleId"
  >
>;

const withState = (p: Partial<IssueDetail>): Partial<IssueDetail> =>
  p.status !== undefined ? { ...p, state: stateForStatus(p.status) } : p;

/** `view`: the issue with pending changes applied; `change(patch, mutation, what)` as in useOptimistic. */
export function useOptimisticIssue(issue: IssueDetail) {
  const { view, change } = useOptimistic<IssueDetail>(issue, withState);
  return {
    view,
    change: change as (
      patch: IssuePatch | ((current: IssueDetail) => IssuePatch),
      mutation: () => Promise<unknown>,
      what: string,
    ) => Promise<boolean>,
  };
}
