/**
 * The Files changed tab's revision data and its interdiff view (docs/ui.md "Revision picker"),
 * server-rendered: the pull request's revisions, the reader's since-your-review range
 * (pulls.sinceReview), and a
 * chosen range's interdiff (pulls.compareRevisions) in the shared diff viewer, read-only (comment
 * anchors are lines of the head's diff, so the interdiff has no comment forms), paged as the
 * normal Files tab: the first page's line budget here, the rest through pulls.compareRevisionsPage
 * as files scroll into view.
 */
import { TRPCError } from "@trpc/server";
import { DiffViewer } from "@/components/diff/diff-viewer";
import { packFile, PAGE_DIFF_LINES } from "@/components/diff/model";
import { card, cx } from "@/components/ui/styles";
import { firstScreenFiles } from "@/lib/highlight/diff";
import { highlightDiff } from "@/server/highlight";
import type { PullsContext } from "./data";
import { RevisionNotice } from "./revision-picker";
import { parseRange, type RevisionRange, type RevisionRef } from "./revision-range";

export interface RevisionState {
  revisions: RevisionRef[];
  /** The range the address names (`?from=A&to=B`), or null for all changes. */
  range: RevisionRange | null;
  /** The reader's last review's revision → the newest, when the reader reviewed an older one (pulls.sinceReview). */
  since: RevisionRange | null;
  /** Files the since-your-review interdiff changes (null: no range, or it could not be computed). */
  sinceFiles: number | null;
}

/**
 * The revisions of pull request `prId`, the chosen range and the reader's since-your-review range
 * with its file count (pulls.sinceReview, as the Conversation tab's banner). Revisions are an aid
 * here: when they cannot be listed the page shows all changes, without picker.
 */
export async function loadRevisionState(
  ctx: PullsContext,
  prId: string,
  params: { from?: string | string[]; to?: string | string[] },
): Promise<RevisionState> {
  const [revisions, since] = await Promise.all([
    ctx.caller.pulls.revisions({ prId }).catch(() => []),
    ctx.me ? ctx.caller.pulls.sinceReview({ prId }).catch(() => null) : Promise.resolve(null),
  ]);
  return {
    revisions,
    range: parseRange(params, revisions),
    since: since && { from: since.from, to: since.to },
    sinceFiles: since?.files ?? null,
  };
}

/**
 * The interdiff of `range` in the diff viewer, under its notice; a problem computing it is said in
 * place of the diff. The page holds the whole file list and the hunks of the first PAGE_DIFF_LINES
 * lines (as the normal Files tab's pulls.getDiff); the viewer loads the other files' hunks from
 * pulls.compareRevisionsPage when they come into view.
 */
export async function RevisionFiles({ ctx, prId, range, base }: { ctx: PullsContext; prId: string; range: RevisionRange; base: string }) {
  let diff;
  try {
    diff = await ctx.caller.pulls.compareRevisions({ prId, ...range, maxLines: PAGE_DIFF_LINES });
  } catch (e) {
    if (e instanceof TRPCError)
      return (
        <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="pull-diff-problem">
          {e.message}
        </div>
      );
    throw e;
  }
  const highlights = await highlightDiff(diff, { to: firstScreenFiles(diff) });
  return (
    <>
      <RevisionNotice range={range} empty={diff.empty} rebaseConflicted={diff.rebaseConflicted} base={base} />
      {diff.totalFiles > 0 && (
        <DiffViewer
          files={diff.files.map(packFile)}
          highlights={highlights}
          totalFiles={diff.totalFiles}
          source={{ kind: "revisions", prId, from: range.from, to: range.to }}
          shortcuts
        />
      )}
    </>
  );
}
