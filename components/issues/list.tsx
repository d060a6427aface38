/**
 * The issue list (server component), GitHub-style (docs/ui.md "Issues"). Its whole state is one
 * search query `?q=` (default `is:open`; components/issues/query-state.ts): the search box, the
 * filter and sort menus, the Open/Closed tabs and label/author links all rewrite it. The API
 * filters, searches (full text), sorts and pages in SQL: issues.counts for the tabs and issues.list
 * for the page, both with `q` — two statements whatever the repository's size. A saved view
 * (?view=<id>) opens its query in the box, where it can be refined and saved back.
 * Older URLs (?state=&status=&priority=&label=&assignee=me&due=) become a query.
 */
import Link from "next/link";
import { TRPCError } from "@trpc/server";
import { orNull } from "@/components/code/data";
import { card, cx } from "@/components/ui/styles";
import { FormError } from "@/components/ui/form-error";
import { parseIssueQuery } from "@/lib/issues/search-query";
import type { IssuesContext } from "./data";
import { IssuesShell } from "./shell";
import { SaveViewButton, ViewActions } from "./list-controls";
import { FilterMenus, SearchBox, type Option } from "./list-menus";
import { Pager, Rows } from "./list-rows";
import { PAGE_SIZE, pagesFor, issuesUrl, type Issue } from "./model";
import { DEFAULT_QUERY, clearedQuery, hasQueryFilters, legacyQuery, listHref, normalizeQuery, queryOfView, withState } from "./query-state";
import { IssueClosedIcon, IssueOpenedIcon } from "./ui";

type Query = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The message of a refused query (BAD_REQUEST), or rethrows anything else. */
function badRequest(e: unknown): string {
  if (e instanceof TRPCError && e.code === "BAD_REQUEST") return e.message;
  throw e;
}

export async function IssueList({ ctx, query }: { ctx: IssuesContext; query: Query }) {
  const { repo, caller, me, canWrite } = ctx;
  const base = issuesUrl(repo.owner, repo.name);
  const viewId = first(query.view) ?? null;
  const [labels, views, assignees, projects, cycles] = await Promise.all([
    caller.issues.listLabels({ repoId: repo.id }),
    caller.issues.listViews({ repoId: repo.id }),
    orNull(caller.repos.assignees({ repoId: repo.id })),
    canWrite ? caller.projects.list({ repoId: repo.id }) : [],
    canWrite ? caller.cycles.list({ repoId: repo.id }) : [],
  ]);
  const view = viewId ? (views.find((v) => v.id === viewId) ?? null) : null;
  const savedQ = view ? queryOfView(view, me?.id ?? null) : null;
  const urlQ = first(query.q);
  const q = (urlQ ?? savedQ ?? legacyQuery(query) ?? DEFAULT_QUERY).slice(0, 256);
  const parsed = parseIssueQuery(q);
  const state = parsed.filters.state;
  const requested = Number.parseInt(first(query.page) ?? "1", 10);

  let error: string | null = parsed.errors.length ? "Fix the search to see issues." : null;
  let issues: Issue[] = [];
  let counts = { open: 0, closed: 0 };
  let paging = { page: 1, pageCount: 1 };
  if (!error) {
    try {
      counts = await caller.issues.counts({ repoId: repo.id, q });
      const total = state === "closed" ? counts.closed : state === "open" ? counts.open : counts.open + counts.closed;
      paging = pagesFor(total, Number.isFinite(requested) && requested > 0 ? Math.min(requested, 10_000) : 1);
      issues = (await caller.issues.list({ repoId: repo.id, q, limit: PAGE_SIZE, offset: (paging.page - 1) * PAGE_SIZE })) as Issue[];
    } catch (e) {
      error = badRequest(e);
    }
  }
  // only an empty page needs to know whether the repository has any issue at all
  const repoTotal = !error && issues.length === 0 ? await caller.issues.counts({ repoId: repo.id }).then((c) => c.open + c.closed) : 1;
  const labelOptions: Option[] = labels.map((l) => ({ value: l.name, label: l.name, color: l.color }));
  const userOptions: Option[] = (assignees ?? []).map((u) => ({
    value: u.username,
    label: u.name ? `${u.username} (${u.name})` : u.username,
  }));
  const clearHref = listHref(base, { q: clearedQuery(q), view: view?.id });
  const modified = savedQ !== null && normalizeQuery(q) !== normalizeQuery(savedQ);

  const stateLink = (s: "open" | "closed", count: number) => (
    <Link
      href={listHref(base, { q: withState(q, s), view: view?.id })}
      className={cx(
        "flex items-center gap-1.5",
        state === s ? "font-semibold text-foreground" : "text-muted-foreground hover:text-foreground",
      )}
      aria-current={state === s ? "page" : undefined}
      data-testid={`state-${s}`}
    >
      {s === "open" ? <IssueOpenedIcon /> : <IssueClosedIcon />}
      <span data-testid={`count-${s}`}>{count}</span> {s === "open" ? "Open" : "Closed"}
    </Link>
  );

  return (
    <IssuesShell repo={repo} section="list">
      <nav className="mb-4 flex flex-wrap items-center gap-2 text-sm" aria-label="Saved views" data-testid="saved-views">
        <span className="text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Views</span>
        <Link
          href={base}
          aria-current={!view ? "page" : undefined}
          className={cx(
            "rounded-full border px-3 py-1",
            !view
              ? "border-primary bg-primary-muted font-medium text-primary"
              : "border-border bg-card text-muted-foreground hover:bg-muted",
          )}
        >
          All issues
        </Link>
        {views.map((v) => (
          <Link
            key={v.id}
            href={listHref(base, { view: v.id })}
            aria-current={view?.id === v.id ? "page" : undefined}
            className={cx(
              "rounded-full border px-3 py-1",
              view?.id === v.id
                ? "border-primary bg-primary-muted font-medium text-primary"
                : "border-border bg-card text-muted-foreground hover:bg-muted",
            )}
            title={queryOfView(v, me?.id ?? null) || "All issues"}
            data-testid="saved-view"
          >
            {v.name}
          </Link>
        ))}
        {!view && canWrite && <SaveViewButton repoId={repo.id} q={q} base={base} />}
      </nav>

      {view && (
        <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" data-testid="view-bar">
          <span className="font-semibold text-foreground" data-testid="view-name">
            {view.name}
          </span>
          {modified && (
            <span
              className="rounded-full border border-warning-border bg-warning-muted px-2 py-0.5 text-xs text-foreground"
              data-testid="view-modified"
            >
              Unsaved changes
            </span>
          )}
          {canWrite && <ViewActions repoId={repo.id} viewId={view.id} name={view.name} q={q} base={base} modified={modified} />}
        </div>
      )}

      <div className="flex flex-wrap items-start gap-2">
        <SearchBox q={q} base={base} view={view?.id ?? null} />
        <FilterMenus q={q} base={base} view={view?.id ?? null} labels={labelOptions} users={userOptions} signedIn={!!me} />
      </div>

      <div className={cx(card, "mt-3")}>
        <div className="flex flex-wrap items-center gap-4 border-b border-border bg-muted px-4 py-3 text-sm">
          {stateLink("open", counts.open)}
          {stateLink("closed", counts.closed)}
          {hasQueryFilters(q) && (
            <Link href={clearHref} className="ml-auto text-xs text-muted-foreground hover:text-primary" data-testid="clear-filters">
              Clear filters
            </Link>
          )}
        </div>
        {error ? (
          <div className="p-4" data-testid="search-error">
            <FormError message={error} />
          </div>
        ) : (
          <Rows
            issues={issues}
            repo={repo}
            base={base}
            q={q}
            view={view?.id ?? null}
            repoTotal={repoTotal}
            canCreate={!!me}
            clearHref={clearHref}
            bulk={
              canWrite
                ? {
                    repoId: repo.id,
                    labels,
                    people: assignees ?? [],
                    projects: projects.map((p) => ({ id: p.id, name: p.name })),
                    cycles: cycles.map((c) => ({ id: c.id, number: c.number, name: c.name, timing: c.timing })),
                  }
                : null
            }
          />
        )}
      </div>
      <Pager base={base} q={q} view={view?.id ?? null} page={paging.page} pageCount={paging.pageCount} />
    </IssuesShell>
  );
}
