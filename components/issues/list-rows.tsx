/**
 * The issue list's rows, its empty states and its pager (server components). Rows show "closed … by
 * <user>" on closed issues from the API's `closedBy` (one statement for the page, no N+1). Empty
 * states (docs/ui.md "Issues"): The rows sit in ./list-selection.tsx (keyboard focus, selection and
 * the bulk-edit bar, client side); each row stays server-rendered inside it. Empty states: no issue in the repository at all ("Create the first issue"),
 * nothing matching the search ("Clear filters"), no closed / no open issues.
 */
import Link from "next/link";
import { relativeTime, fullDate } from "@/components/ui/format";
import { button, cx } from "@/components/ui/styles";
import { PrefetchLink } from "@/components/ui/prefetch-link";
import { parseIssueQuery, quoteValue } from "@/lib/issues/search-query";
import { pointsText } from "./board-model";
import type { BulkData } from "./bulk-bar";
import { ListSelection, SelectableRow } from "./list-selection";
import { issueUrl, type Issue } from "./model";
import { emptyKind, listHref, withMenuValues } from "./query-state";
import {
  Avatar,
  DueDate,
  IssueClosedIcon,
  IssueOpenedIcon,
  LabelChip,
  PriorityIcon,
  ProgressRing,
  StatusIcon,
  priorityLabel,
  statusLabel,
} from "./ui";

/** The page's rows, or the matching empty state. `repoTotal` is only read when there are no rows. */
export function Rows({
  issues,
  repo,
  base,
  q,
  view,
  repoTotal,
  canCreate,
  clearHref,
  bulk,
}: {
  issues: Issue[];
  repo: { owner: string; name: string };
  base: string;
  q: string;
  view: string | null;
  repoTotal: number;
  canCreate: boolean;
  clearHref: string;
  /** Writers: selection and the bulk-edit bar; null for readers. */
  bulk: BulkData | null;
}) {
  if (issues.length === 0) return <Empty kind={emptyKind(q, repoTotal)} base={base} canCreate={canCreate} clearHref={clearHref} />;
  const labelHref = (name: string) => {
    const p = parseIssueQuery(q);
    const current = p.filters.labels.flat();
    return listHref(base, { q: current.includes(name) ? q : withMenuValues(q, "labels", [...current, name]), view });
  };
  const hrefs = Object.fromEntries(issues.map((i) => [i.number, issueUrl(repo.owner, repo.name, i.number)]));
  return (
    <ListSelection issues={issues} hrefs={hrefs} bulk={bulk}>
      <ul className="divide-y divide-border" data-testid="issue-list">
        {issues.map((i) => (
          <SelectableRow key={i.id} number={i.number} title={i.title}>
            <span title={statusLabel(i.status)} className="mt-0.5" data-testid="row-status" data-status={i.status}>
              <StatusIcon status={i.status} />
            </span>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <PrefetchLink
                  href={issueUrl(repo.owner, repo.name, i.number)}
                  className="font-medium text-foreground hover:text-primary"
                  data-testid="issue-title"
                >
                  {i.title}
                </PrefetchLink>
                {i.labels.map((l) => (
                  <LabelChip key={l.id} label={l} href={labelHref(l.name)} />
                ))}
              </div>
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-subtle-foreground">
                <RowByline issue={i} base={base} view={view} />
                <DueDate issue={i} />
                {i.subIssueCount > 0 && <ProgressRing percentage={i.subIssueProgress} count={i.subIssueCount} />}
                {i.estimate !== null && <span title="Estimate">{pointsText(i.estimate)}</span>}
              </div>
            </div>
            <span title={`Priority: ${priorityLabel(i.priority)}`} className="mt-0.5" data-testid="row-priority" data-priority={i.priority}>
              <PriorityIcon priority={i.priority} />
            </span>
            <span className="mt-0.5 w-5" data-testid="row-assignee">
              {i.assignee && <Avatar username={i.assignee.username} />}
            </span>
          </SelectableRow>
        ))}
      </ul>
    </ListSelection>
  );
}

/** "#12 opened 3 days ago by alice" or, closed, "#12 by alice was closed 2 hours ago by bob" (GitHub's wording). */
function RowByline({ issue: i, base, view }: { issue: Issue; base: string; view: string | null }) {
  const author = i.author && (
    <>
      {" "}
      by{" "}
      <Link
        href={listHref(base, { q: `is:${i.state} author:${quoteValue(i.author.username)}`, view })}
        prefetch={false}
        className="hover:text-primary"
        data-testid="row-author"
      >
        {i.author.username}
      </Link>
    </>
  );
  if (i.state === "closed" && i.closedAt) {
    return (
      <span data-testid="row-closed">
        #{i.number}
        {author} was closed <span title={fullDate(i.closedAt)}>{relativeTime(i.closedAt)}</span>
        {i.closedBy && (
          <>
            {" "}
            by <span data-testid="row-closed-by">{i.closedBy.username}</span>
          </>
        )}
      </span>
    );
  }
  return (
    <span>
      #{i.number} opened <span title={fullDate(i.createdAt)}>{relativeTime(i.createdAt)}</span>
      {author}
    </span>
  );
}

function Empty({
  kind,
  base,
  canCreate,
  clearHref,
}: {
  kind: ReturnType<typeof emptyKind>;
  base: string;
  canCreate: boolean;
  clearHref: string;
}) {
  const text = {
    "no-issues": { title: "There aren’t any issues yet.", hint: "Issues track bugs, ideas and work to do." },
    "no-match": { title: "No issues match your search.", hint: "Try other words or remove some filters." },
    "no-closed": { title: "There aren’t any closed issues.", hint: "Closed issues show up here." },
    "no-open": { title: "There aren’t any open issues.", hint: "Everything is closed." },
  }[kind];
  return (
    <div className="px-4 py-12 text-center" data-testid="no-issues" data-kind={kind}>
      {kind === "no-closed" ? (
        <IssueClosedIcon className="h-6! w-6! text-subtle-foreground" />
      ) : (
        <IssueOpenedIcon className="h-6! w-6! text-subtle-foreground" />
      )}
      <p className="mt-2 font-medium text-foreground">{text.title}</p>
      <p className="mt-1 text-sm text-subtle-foreground">{text.hint}</p>
      <div className="mt-4 flex justify-center gap-2">
        {kind === "no-issues" && canCreate && (
          <Link href={`${base}/new`} className={button.primary} data-testid="empty-new-issue">
            Create the first issue
          </Link>
        )}
        {kind === "no-match" && (
          <Link href={clearHref} className={button.secondary} data-testid="empty-clear-filters">
            Clear filters
          </Link>
        )}
      </div>
    </div>
  );
}

/** Previous / Next links keeping the query and view; "Page n of m" when the count is known. */
export function Pager({
  base,
  q,
  view,
  page,
  pageCount,
}: {
  base: string;
  q: string | undefined;
  view: string | null;
  page: number;
  pageCount: number;
}) {
  const hasPrev = page > 1;
  const hasNext = page < pageCount;
  if (!hasPrev && !hasNext) return null;
  const disabled = "pointer-events-none opacity-50";
  return (
    <nav className="mt-4 flex items-center justify-center gap-3 text-sm" aria-label="Pagination" data-testid="pagination">
      <Link
        href={listHref(base, { q, view, page: page - 1 })}
        className={cx(button.secondary, !hasPrev && disabled)}
        aria-disabled={!hasPrev}
        data-testid="prev-page"
      >
        Previous
      </Link>
      <span className="text-muted-foreground">
        Page {page} of {pageCount}
      </span>
      <Link
        href={listHref(base, { q, view, page: page + 1 })}
        className={cx(button.secondary, !hasNext && disabled)}
        aria-disabled={!hasNext}
        data-testid="next-page"
      >
        Next
      </Link>
    </nav>
  );
}
