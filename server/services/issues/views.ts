/**
 * Saved views {id, repoId, name, filters, sort, createdAt, updatedAt} and getIssuesByView, which
 * turns the filters into one SQL where-clause (never filtering in memory):
 *   status / priority / assignee (user ids) / labels (names, any of them): lists, OR inside a
 *   list, AND between filters; dueDate overdue (open, due before today UTC), due_soon (open, due
 *   today … today+7), no_date (no due date). Sort {field, direction}; priority asc = urgent first;
 *   dueDate/estimate nulls last; ties by number descending. Default sort: number descending.
 */
import type { Db, Prisma } from "@/server/db";
import { notFound } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { dueSoonWindow, overdueWindow, priorityRank } from "./model";
import { findIssues, type IssueView } from "./core";
import { viewFilters, viewSort, type ViewFilters, type ViewSort } from "./schemas";

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

interface ViewRow { id: string; repoId: string; name: string; filters: string; sort: string | null; createdAt: Date; updatedAt: Date }

function view(v: ViewRow): ViewView {
  return {
    id: v.id, repoId: v.repoId, name: v.name,
    filters: viewFilters.parse(JSON.parse(v.filters)),
    sort: v.sort ? viewSort.parse(JSON.parse(v.sort)) : null,
    createdAt: v.createdAt.toISOString(), updatedAt: v.updatedAt.toISOString(),
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
  if (!v) throw notFound("view");
  return v;
}

/** issues.getView {viewId} → the view. */
export async function getView(db: Db, repo: Repo, id: string): Promise<ViewView> {
  return view(await viewRow(db, repo, id));
}

/** issues.createView {name, filters, sort?} → the view. */
export async function createView(db: Db, actor: Actor, repo: Repo, input: { name: string; filters: ViewFilters; sort?: ViewSort | null }): Promise<ViewView> {
  return view(await db.issueView.create({ data: { repoId: repo.id, name: input.name, filters: JSON.stringify(input.filters), sort: input.sort ? JSON.stringify(input.sort) : null, creatorId: actor.user.id } }));
}

/** issues.updateView {viewId, name?, filters? (replaces), sort? (null clears)} → the view. */
export async function updateView(db: Db, repo: Repo, id: string, input: { name?: string; filters?: ViewFilters; sort?: ViewSort | null }): Promise<ViewView> {
  await viewRow(db, repo, id);
  return view(await db.issueView.update({
    where: { id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.filters !== undefined ? { filters: JSON.stringify(input.filters) } : {}),
      ...(input.sort !== undefined ? { sort: input.sort ? JSON.stringify(input.sort) : null } : {}),
    },
  }));
}

/** issues.deleteView {viewId} → {id, deleted: true}. */
export async function deleteView(db: Db, repo: Repo, id: string): Promise<{ id: string; deleted: true }> {
  await viewRow(db, repo, id);
  await db.issueView.delete({ where: { id } });
  return { id, deleted: true };
}

/** The SQL where-clause of a view's filters (pure; unit-tested). */
export function viewWhere(repoId: string, f: ViewFilters, now = new Date()): Prisma.IssueWhereInput {
  const and: Prisma.IssueWhereInput[] = [{ repoId }];
  if (f.status?.length) and.push({ status: { in: f.status } });
  if (f.priority?.length) and.push({ priority: { in: f.priority.map(priorityRank) } });
  if (f.assignee?.length) and.push({ assigneeId: { in: f.assignee } });
  if (f.labels?.length) and.push({ labels: { some: { label: { nameLower: { in: f.labels.map((l) => l.toLowerCase()) } } } } });
  if (f.dueDate === "overdue") and.push({ state: "open", dueDate: { lt: overdueWindow(now).before } });
  if (f.dueDate === "due_soon") {
    const w = dueSoonWindow(7, now);
    and.push({ state: "open", dueDate: { gte: w.from, lte: w.to } });
  }
  if (f.dueDate === "no_date") and.push({ dueDate: null });
  return { AND: and };
}

/** The ORDER BY of a view's sort (pure). */
export function viewOrder(sort: ViewSort | null): Prisma.IssueOrderByWithRelationInput[] {
  if (!sort) return [{ number: "desc" }];
  const d = sort.direction;
  const first: Prisma.IssueOrderByWithRelationInput =
    sort.field === "dueDate" ? { dueDate: { sort: d, nulls: "last" } }
    : sort.field === "estimate" ? { estimate: { sort: d, nulls: "last" } }
    : { [sort.field]: d };
  return sort.field === "number" ? [first] : [first, { number: "desc" }];
}

/** issues.getIssuesByView {viewId, limit? (1–100, 50), offset?} → matching issues, filtered and sorted in SQL. */
export async function getIssuesByView(db: Db, repo: Repo, id: string, page: { limit?: number; offset?: number } = {}): Promise<IssueView[]> {
  const v = view(await viewRow(db, repo, id));
  return findIssues(db, { where: viewWhere(repo.id, v.filters), orderBy: viewOrder(v.sort), take: page.limit ?? 50, skip: page.offset ?? 0 });
}
