/**
 * The issue list (server component). The API filters and pages in SQL: issues.list for the page
 * (with the `labels` extension) and issues.counts for the open/closed toggle under the current
 * filters. A saved view (?view=<id>) pages through issues.getIssuesByView.
 */
import Link from "next/link";
import { orNull } from "@/components/code/data";
import { relativeTime, fullDate } from "@/components/ui/format";
import { button, card, cx } from "@/components/ui/styles";
import type { IssuesContext } from "./data";
import { IssuesShell } from "./shell";
import { ListControls, SaveViewButton, DeleteViewButton } from "./list-controls";
import {
  PAGE_SIZE, describeViewFilters, listInputs, pagesFor, hasFilters, issueUrl, issuesUrl, listQuery, parseListFilters, viewFiltersFrom,
  type Issue, type ListFilters,
} from "./model";
import { Avatar, DueDate, IssueClosedIcon, IssueOpenedIcon, LabelChip, PriorityIcon, ProgressRing, StatusIcon, priorityLabel, statusLabel } from "./ui";

type Query = Record<string, string | string[] | undefined>;

export async function IssueList({ ctx, query }: { ctx: IssuesContext; query: Query }) {
  const { repo, caller, me, canWrite } = ctx;
  const base = issuesUrl(repo.owner, repo.name);
  const viewId = typeof query.view === "string" ? query.view : undefined;
  const [labels, views] = await Promise.all([caller.issues.listLabels({ repoId: repo.id }), caller.issues.listViews({ repoId: repo.id })]);
  const view = viewId ? views.find((v) => v.id === viewId) ?? null : null;
  const filters = parseListFilters(query);

  const viewNav = (
    <div className="mb-4 flex flex-wrap items-center gap-2 text-sm" data-testid="saved-views">
      <span className="text-xs font-semibold uppercase tracking-wide text-slate-500">Views</span>
      <Link href={base} className={cx("rounded-full border px-3 py-1", !view ? "border-emerald-500 bg-emerald-50 font-medium text-emerald-800" : "border-slate-200 bg-white text-slate-700 hover:bg-slate-50")}>
        All issues
      </Link>
      {views.map((v) => (
        <span key={v.id} className="group inline-flex items-center">
          <Link
            href={`${base}?view=${v.id}`}
            className={cx("rounded-full border px-3 py-1", view?.id === v.id ? "border-emerald-500 bg-emerald-50 font-medium text-emerald-800" : "border-slate-200 bg-white text-slate-700 hover:bg-slate-50")}
            title={describeViewFilters(v.filters, me?.id ?? null)}
            data-testid="saved-view"
          >
            {v.name}
          </Link>
        </span>
      ))}
      {!view && canWrite && <SaveViewButton repoId={repo.id} filters={viewFiltersFrom(filters, me?.id ?? null)} base={base} />}
    </div>
  );

  if (view) {
    const page = filters.page;
    const rows = (await orNull(caller.issues.getIssuesByView({ viewId: view.id, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }))) ?? [];
    const more = rows.length > PAGE_SIZE;
    return (
      <IssuesShell repo={repo} section="list">
        {viewNav}
        <div className={card}>
          <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-3 text-sm">
            <span className="font-semibold text-slate-900" data-testid="view-name">{view.name}</span>
            <span className="text-slate-500">{describeViewFilters(view.filters, me?.id ?? null)}</span>
            {view.sort && <span className="text-slate-500">· sorted by {view.sort.field} {view.sort.direction}</span>}
            {canWrite && <DeleteViewButton viewId={view.id} name={view.name} base={base} />}
          </div>
          <Rows issues={rows.slice(0, PAGE_SIZE)} ctx={ctx} filters={filters} />
        </div>
        <Pager base={base} page={page} hasPrev={page > 1} hasNext={more} extra={`view=${view.id}`} />
      </IssuesShell>
    );
  }

  // the API filters, counts and pages in SQL (issues.list + issues.counts): one page read per view
  const req = listInputs(filters, me?.id ?? null);
  const counts = req.empty ? { open: 0, closed: 0 } : await caller.issues.counts({ repoId: repo.id, ...req.filters });
  const { page, pageCount } = pagesFor(filters.state === "closed" ? counts.closed : counts.open, filters.page);
  const issues = req.empty ? [] : await caller.issues.list({ repoId: repo.id, ...req.filters, state: req.state, limit: req.limit, offset: (page - 1) * req.limit });
  const result = { issues: issues as Issue[], openCount: counts.open, closedCount: counts.closed, page, pageCount };
  const stateLink = (state: "open" | "closed", count: number) => (
    <Link
      href={`${base}${listQuery({ ...filters, status: undefined }, { state })}`}
      className={cx("flex items-center gap-1.5", filters.state === state ? "font-semibold text-slate-900" : "text-slate-600 hover:text-slate-900")}
      aria-current={filters.state === state ? "page" : undefined}
      data-testid={`state-${state}`}
    >
      {state === "open" ? <IssueOpenedIcon /> : <IssueClosedIcon />}
      <span data-testid={`count-${state}`}>{count}</span> {state === "open" ? "Open" : "Closed"}
    </Link>
  );

  return (
    <IssuesShell repo={repo} section="list">
      {viewNav}
      <ListControls filters={filters} labels={labels} signedIn={!!me} base={base} />
      <div className={cx(card, "mt-3")}>
        <div className="flex flex-wrap items-center gap-4 border-b border-slate-200 bg-slate-50 px-4 py-3 text-sm">
          {stateLink("open", result.openCount)}
          {stateLink("closed", result.closedCount)}
          {hasFilters(filters) && (
            <Link href={`${base}${listQuery({ state: filters.state, page: 1 })}`} className="ml-auto text-xs text-slate-600 hover:text-emerald-700" data-testid="clear-filters">
              Clear filters
            </Link>
          )}
        </div>
        <Rows issues={result.issues} ctx={ctx} filters={filters} />
      </div>
      <Pager base={base} page={result.page} hasPrev={result.page > 1} hasNext={result.page < result.pageCount} extra={listQuery(filters).slice(1)} pageCount={result.pageCount} />
    </IssuesShell>
  );
}

function Rows({ issues, ctx, filters }: { issues: Issue[]; ctx: IssuesContext; filters: ListFilters }) {
  const { repo } = ctx;
  const base = issuesUrl(repo.owner, repo.name);
  if (issues.length === 0) {
    return (
      <div className="px-4 py-12 text-center" data-testid="no-issues">
        <IssueOpenedIcon className="h-6! w-6! text-slate-400" />
        <p className="mt-2 font-medium text-slate-900">No issues match.</p>
        <p className="mt-1 text-sm text-slate-500">
          {hasFilters(filters) ? "Try removing some filters." : "Issues track bugs, ideas and work to do."}
        </p>
      </div>
    );
  }
  return (
    <ul className="divide-y divide-slate-100" data-testid="issue-list">
      {issues.map((i) => (
        <li key={i.id} className="flex items-start gap-3 px-4 py-3 hover:bg-slate-50" data-testid="issue-row" data-number={i.number}>
          <span title={statusLabel(i.status)} className="mt-0.5" data-testid="row-status" data-status={i.status}>
            <StatusIcon status={i.status} />
          </span>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Link href={issueUrl(repo.owner, repo.name, i.number)} className="font-medium text-slate-900 hover:text-emerald-700" data-testid="issue-title">
                {i.title}
              </Link>
              {i.labels.map((l) => (
                <LabelChip key={l.id} label={l} href={`${base}${listQuery({ ...filters, label: l.name })}`} />
              ))}
            </div>
            <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
              <span>
                #{i.number} opened <span title={fullDate(i.createdAt)}>{relativeTime(i.createdAt)}</span>
                {i.author && <> by {i.author.username}</>}
              </span>
              <DueDate issue={i} />
              {i.subIssueCount > 0 && <ProgressRing percentage={i.subIssueProgress} count={i.subIssueCount} />}
              {i.estimate !== null && <span title="Estimate">{i.estimate} pts</span>}
            </div>
          </div>
          <span title={`Priority: ${priorityLabel(i.priority)}`} className="mt-0.5" data-testid="row-priority" data-priority={i.priority}>
            <PriorityIcon priority={i.priority} />
          </span>
          <span className="mt-0.5 w-5" data-testid="row-assignee">
            {i.assignee && <Avatar username={i.assignee.username} />}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Pager({ base, page, hasPrev, hasNext, extra, pageCount }: { base: string; page: number; hasPrev: boolean; hasNext: boolean; extra: string; pageCount?: number }) {
  if (!hasPrev && !hasNext) return null;
  const params = new URLSearchParams(extra);
  const href = (p: number) => {
    const q = new URLSearchParams(params);
    if (p <= 1) q.delete("page");
    else q.set("page", String(p));
    const s = q.toString();
    return `${base}${s ? `?${s}` : ""}`;
  };
  const disabled = "pointer-events-none opacity-50";
  return (
    <nav className="mt-4 flex items-center justify-center gap-3 text-sm" aria-label="Pagination" data-testid="pagination">
      <Link href={href(page - 1)} className={cx(button.secondary, !hasPrev && disabled)} aria-disabled={!hasPrev} data-testid="prev-page">
        Previous
      </Link>
      <span className="text-slate-600">
        Page {page}
        {pageCount ? ` of ${pageCount}` : ""}
      </span>
      <Link href={href(page + 1)} className={cx(button.secondary, !hasNext && disabled)} aria-disabled={!hasNext} data-testid="next-page">
        Next
      </Link>
    </nav>
  );
}
