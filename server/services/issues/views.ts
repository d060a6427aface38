/**
 * Saved views {id, repoId, name, filters, sort, createdAt, updatedAt} and getIssuesByView, which
 * turns the filters into one SQL where-clause (never filtering in memory):
 *   status / priority / assignee (user ids) / labels (names, any of them): lists, OR inside a
 *   list, AND between filters; dueDate overdue (open, due before today UTC), due_soon (open, due
 *   today … today+7), no_date (no due date); the `q` extension is a search query
 *   (issues.list q, validated when saved) AND-ed with the rest. Sort {field, direction}; priority asc = urgent first;
 *   dueDate/estimate nulls last; ties by number descending. Default sort: number descending.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { dueSoonWindow, overdueWindow, priorityRank } from "@/lib/issues/model";
import type { IssueView } from "./shapes";
import { queryIssues, type IssueFilter, type OrderTerm } from "./query";
import { viewFilters, viewSort, type ViewFilters, type ViewSort } from "./schemas";
import { applyQuery, sortOrder } from "./search";

type Repo = Pick<AuthorizedRepo, "id">;

export interface ViewView {
  id: string;
  repoId: string;
  name: string;
  filters: ViewFilters;
  sort: ViewSort | null;
  createdAt: string;
  updatedAt: string;
}

interface ViewRow {
  id: string;
  repoId: string;
  name: string;
  filters: string;
  sort: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function view(v: ViewRow): ViewView {
  return {
    id: v.id,
    repoId: v.repoId,
    name: v.name,
    filters: viewFilters.parse(JSON.parse(v.filters)),
    sort: v.sort ? viewSort.parse(JSON.parse(v.sort)) : null,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}

/** Repository id of a view (the viewId locator). */
export async function viewRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.issueView.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}

/** issues.listViews → views by name. */
export async function listViews(db: Db, repo: Repo): Promise<ViewView[]> {
  return (await db.issueView.findMany({ where: { repoId: repo.id }, orderBy: [{ name: "asc" }, { createdAt: "asc" }] })).map(view);
}

async function viewRow(db: Db, repo: Repo, id: string): Promise<ViewRow> {
  const v = await db.issueView.findFirst({ where: { id, repoId: repo.id } });
  if (!v) throw new AppError("NOT_FOUND", "view not found");
  return v;
}

/** issues.getView {viewId} → the view. */
export async function getView(db: Db, repo: Repo, id: string): Promise<ViewView> {
  return view(await viewRow(db, repo, id));
}

/** issues.createView {name, filters, sort?} → the view. */
export async function createView(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { name: string; filters: ViewFilters; sort?: ViewSort | null },
): Promise<ViewView> {
  return view(
    await inTransaction(db, (tx) =>
      tx.issueView.create({
        data: {
          repoId: repo.id,
          name: input.name,
          filters: JSON.stringify(input.filters),
          sort: input.sort ? JSON.stringify(input.sort) : null,
          creatorId: actor.user.id,
        },
      }),
    ),
  );
}

/** issues.updateView {viewId, name?, filters? (replaces), sort? (null clears)} → the view. */
export async function updateView(
  db: Db,
  repo: Repo,
  id: string,
  input: { name?: string; filters?: ViewFilters; sort?: ViewSort | null },
): Promise<ViewView> {
  await viewRow(db, repo, id);
  return view(
    await inTransaction(db, (tx) =>
      tx.issueView.update({
        where: { id },
        data: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.filters !== undefined ? { filters: JSON.stringify(input.filters) } : {}),
          ...(input.sort !== undefined ? { sort: input.sort ? JSON.stringify(input.sort) : null } : {}),
        },
      }),
    ),
  );
}

/** issues.deleteView {viewId} → {id, deleted: true}. */
export async function deleteView(db: Db, repo: Repo, id: string): Promise<{ id: string; deleted: true }> {
  await viewRow(db, repo, id);
  await inTransaction(db, (tx) => tx.issueView.delete({ where: { id } }));
  return { id, deleted: true };
}

/** The issue filter of a view's filters (pure; unit-tested). Applied in SQL by ./query.ts. */
export function viewFilter(repoId: string, f: ViewFilters, now = new Date()): IssueFilter {
  const out: IssueFilter = { repoId };
  if (f.status?.length) out.statuses = f.status;
  if (f.priority?.length) out.priorities = f.priority.map(priorityRank);
  if (f.assignee?.length) out.assigneeIds = f.assignee;
  if (f.labels?.length) out.labelNames = f.labels.map((l) => l.toLowerCase());
  if (f.dueDate === "overdue") Object.assign(out, { state: "open", dueBefore: overdueWindow(now).before });
  if (f.dueDate === "due_soon") {
    const w = dueSoonWindow(7, now);
    Object.assign(out, { state: "open", dueFrom: w.from, dueTo: w.to });
  }
  if (f.dueDate === "no_date") out.noDueDate = true;
  return out;
}

/** The ORDER BY of a view's sort (pure): dueDate/estimate nulls last; number descending breaks ties. */
export function viewOrder(sort: ViewSort | null): OrderTerm[] {
  if (!sort) return [{ field: "number", direction: "desc" }];
  const first: OrderTerm = {
    field: sort.field,
    direction: sort.direction,
    ...(sort.field === "dueDate" || sort.field === "estimate" ? { nullsLast: true } : {}),
  };
  return sort.field === "number" ? [first] : [first, { field: "number", direction: "desc" }];
}

/**
 * issues.getIssuesByView {viewId, limit? (1–100, 50), offset?} → matching issues, filtered,
 * sorted and paged in one SQL query. The `q` extension of filters narrows further (@me is the
 * caller, `meId`); the view's sort wins over q's sort:, which applies when the view has none.
 */
export async function getIssuesByView(
  db: Db,
  repo: Repo,
  id: string,
  page: { limit?: number; offset?: number } = {},
  meId: string | null = null,
  loaded?: ViewQuery,
): Promise<IssueView[]> {
  const stored = loaded ?? (await viewQueryRow(db, repo, id));
  const filters = viewFilters.parse(JSON.parse(stored.filters));
  const viewSortValue = stored.sort ? viewSort.parse(JSON.parse(stored.sort)) : null;
  const { filter, sort } = applyQuery(viewFilter(repo.id, filters), filters.q, meId);
  return queryIssues(db, filter, !viewSortValue && sort ? sortOrder(sort) : viewOrder(viewSortValue), {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
}

/** A view's filters and sort (one read on the read path, server/db/read.ts). NOT_FOUND "view not found". */
async function viewQueryRow(db: Db, repo: Repo, id: string): Promise<ViewQuery> {
  const [p1, p2] = getConfig().provider === "postgresql" ? ["$1", "$2"] : ["?", "?"];
  const [row] = await readRows<ViewQuery>(db, `SELECT "filters", "sort" FROM "IssueView" WHERE "id" = ${p1} AND "repoId" = ${p2}`, [
    id,
    repo.id,
  ]);
  if (!row) throw new AppError("NOT_FOUND", "view not found");
  return row;
}

/** The stored columns getIssuesByView reads (JSON text), e.g. loaded with the authorization query. */
export type ViewQuery = Pick<ViewRow, "filters" | "sort">;

/**
 * The view columns the tRPC tier reads with the authorization query for getIssuesByView
 * (RepoLocatorDef.via; server/services/repos/access.ts authorizeRepoVia), and their shape check.
 */
export const VIEW_QUERY_COLUMNS = ["filters", "sort"] as const;
export function viewQueryOf(entity: Record<string, unknown> | undefined): ViewQuery | undefined {
  if (!entity || typeof entity.filters !== "string" || (entity.sort !== null && typeof entity.sort !== "string")) return undefined;
  return { filters: entity.filters, sort: entity.sort as string | null };
}
