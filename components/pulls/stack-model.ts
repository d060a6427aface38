/**
 * Pure helpers of the stack pages (Graphite-style stacks; no React, no database).
 * A stack's branches are kept bottom first (index = position: 0 sits on the base branch), as the
 * stacks router takes and returns them; the pages show them top first, the base at the bottom,
 * as `gt log` and Graphite's stack view do. Unit-tested in test/unit/ui-stacks.test.ts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { pullsUrl } from "./model";

export type StackView = inferRouterOutputs<AppRouter>["stacks"]["list"][number];

/** `/<owner>/<repo>/pulls/stacks`, or a stack's anchor on that page. */
export function stacksUrl(owner: string, repo: string, stackId?: string): string {
  return `${pullsUrl(owner, repo)}/stacks${stackId ? `#${stackAnchor(stackId)}` : ""}`;
}

/** The element id of a stack's card on the stacks page. */
export function stackAnchor(stackId: string): string {
  return `stack-${stackId}`;
}

/**
 * `list` with the item at `index` moved `delta` places (+1 = one place higher in the stack, i.e.
 * a later position), clamped to the ends; the same array when nothing moves.
 */
export function moveBranch<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = Math.min(list.length - 1, Math.max(0, index + delta));
  if (index < 0 || index >= list.length || to === index) return list as T[];
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * The branches a stack editor may add: the repository's branches without the base branch, the
 * ones already in the list, and the ones other stacks hold (a branch belongs to one stack), in
 * the given order.
 */
export function addableBranches(all: readonly string[], base: string, chosen: readonly string[], taken: ReadonlySet<string>): string[] {
  const inList = new Set(chosen);
  return all.filter((b) => b !== base && !inList.has(b) && !taken.has(b));
}

/**
 * The branch a stack's branch at `position` is reviewed against: the one below it, or the stack's
 * base for position 0 (the compare page's base when its pull request is opened).
 */
export function branchBelow(stack: { baseBranch: string; branches: { branchName: string; position: number }[] }, position: number): string {
  return stack.branches.find((b) => b.position === position - 1)?.branchName ?? stack.baseBranch;
}
