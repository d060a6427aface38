/**
 * The issue read path: ONE SQL statement per list, whatever the page size — filters, order and
 * paging in the WHERE / ORDER BY / LIMIT, and author, assignee, parent number, labels (JSON
 * aggregate) and sub-issue counts as joins and correlated subqueries. Written for both
 * providers (SQLite and PostgreSQL differ only in placeholders and JSON aggregation) because
 * Prisma's relation loading costs one round trip per relation and its `_count` aggregates the
 * whole table (docs/issues.md "Performance"). Identifiers and sort columns come from fixed
 * lists; every value is a bound parameter.
 */
import { readRows } from "@/server/db/read";
import type { Db, Prisma } from "@/server/db";
import { getConfig } from "@/server/config";
import { isoOf } from "@/server/db/raw";
import { priorityKey } from "@/lib/issues/model";
import type { IssueView, LabelView } from "./shapes";
import { fts5Match, websearchText } from "@/lib/issues/search-query";

type Tx = Prisma.TransactionClient;

/** A filter over one repository's issues; every present field narrows (AND). */
export interface IssueFilter {
  repoId: string;
  ids?: string[];
  /** only these issue numbers */
  numbers?: number[];
  state?: "open" | "closed";
  statuses?: string[];
  /** priority ranks (0 urgent … 4 none) */
  priorities?: number[];
  assigneeIds?: string[];
  /** project name, case-insensitive */
  projectName?: string;
  cycleNumber?: number;
  projectId?: string;
  cycleId?: string;
  parentId?: string;
  /** any of these label names (lower case) */
  labelNames?: string[];
  /** dueDate < dueBefore (YYYY-MM-DD) */
  dueBefore?: string;
  /** dueFrom <= dueDate <= dueTo */
  dueFrom?: string;
  dueTo?: string;
  noDueDate?: boolean;
  /** title contains this text (ASCII case-insensitive; `%`/`_` literal), or the number is it (`12`, `#12`) */
  titleSearch?: string;
  /** label: qualifiers of the issue search (lib/issues/search-query.ts): each group any-of (label names, lower case), all groups */
  labelGroups?: string[][];
  noLabel?: boolean;
  /** assignee: every entry must match; each is any-of user ids or usernames (case-insensitive) */
  assigneeRefs?: UserRefs[];
  noAssignee?: boolean;
  /** author: every entry must match; each is any-of user ids or usernames (case-insensitive) */
  authorRefs?: UserRefs[];
  /** project names any-of (case-insensitive) */
  projectNames?: string[];
  noProject?: boolean;
  cycleNumbers?: number[];
  noCycle?: boolean;
  /** full-text phrases over title and body (searchPhrases); all must match */
  text?: string[][];
}

/** Users named by id (e.g. @me resolved to the caller) or by username. */
export interface UserRefs {
  ids: string[];
  usernames: string[];
}

export const SORTABLE = {
  number: `i."number"`,
  createdAt: `i."createdAt"`,
  updatedAt: `i."updatedAt"`,
  priority: `i."priority"`,
  dueDate: `i."dueDate"`,
  estimate: `i."estimate"`,
  title: `i."title"`,
  status: `i."status"`,
  boardPosition: `i."boardPosition"`,
} as const;
export type SortKey = keyof typeof SORTABLE;
export interface OrderTerm {
  field: SortKey;
  direction: "asc" | "desc";
  nullsLast?: boolean;
}

export type Dialect = "sqlite" | "postgresql";

/** Builds parameterised SQL for a dialect. */
export class Sql {
  readonly params: unknown[] = [];
  constructor(readonly dialect: Dialect) {}
  /** A placeholder bound to `value`. */
  p(value: unknown): string {
    this.params.push(value);
    return this.dialect === "postgresql" ? `$${this.params.length}` : "?";
  }
  list(values: readonly unknown[]): string {
    return values.map((v) => this.p(v)).join(", ");
  }
  /**
   * A page size or offset written into the statement instead of bound: PostgreSQL can then reuse
   * a generic plan of the prepared statement (a bound LIMIT made it plan the issue list on every
   * call, ~1 ms; docs/performance.md "Hot reads off Prisma"). Only non-negative safe integers (the
   * callers' zod schemas guarantee it); anything else throws.
   */
  int(n: number | undefined): string {
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw new Error(`not a page size or offset: ${n}`);
    return String(n);
  }
}

/** WHERE conditions for `f` (pure; unit-tested). */
export function whereSql(sql: Sql, f: IssueFilter): string[] {
  const c: string[] = [`i."repoId" = ${sql.p(f.repoId)}`];
  if (f.ids) c.push(f.ids.length ? `i."id" IN (${sql.list(f.ids)})` : "1 = 0");
  if (f.numbers) c.push(f.numbers.length ? `i."number" IN (${sql.list(f.numbers)})` : "1 = 0");
  if (f.state) c.push(`i."state" = ${sql.p(f.state)}`);
  if (f.statuses?.length) c.push(`i."status" IN (${sql.list(f.statuses)})`);
  if (f.priorities?.length) c.push(`i."priority" IN (${sql.list(f.priorities)})`);
  if (f.assigneeIds?.length) c.push(`i."assigneeId" IN (${sql.list(f.assigneeIds)})`);
  if (f.projectName !== undefined)
    c.push(
      `i."projectId" IN (SELECT pr."id" FROM "Project" pr WHERE pr."repoId" = ${sql.p(f.repoId)} AND pr."nameLower" = ${sql.p(f.projectName.toLowerCase())})`,
    );
  if (f.cycleNumber !== undefined)
    c.push(
      `i."cycleId" IN (SELECT cy."id" FROM "Cycle" cy WHERE cy."repoId" = ${sql.p(f.repoId)} AND cy."number" = ${sql.p(f.cycleNumber)})`,
    );
  if (f.projectId) c.push(`i."projectId" = ${sql.p(f.projectId)}`);
  if (f.cycleId) c.push(`i."cycleId" = ${sql.p(f.cycleId)}`);
  if (f.parentId) c.push(`i."parentId" = ${sql.p(f.parentId)}`);
  if (f.labelNames?.length) {
    // the label ids first (unique index on repoId, nameLower), then one probe of the
    // (issueId, labelId) primary key per candidate issue
    c.push(
      `EXISTS (SELECT 1 FROM "IssueLabel" fil WHERE fil."issueId" = i."id" AND fil."labelId" IN (SELECT fl."id" FROM "Label" fl WHERE fl."repoId" = ${sql.p(f.repoId)} AND fl."nameLower" IN (${sql.list(f.labelNames.map((n) => n.toLowerCase()))})))`,
    );
  }
  if (f.dueBefore) c.push(`i."dueDate" < ${sql.p(f.dueBefore)}`);
  if (f.dueFrom) c.push(`i."dueDate" >= ${sql.p(f.dueFrom)}`);
  if (f.dueTo) c.push(`i."dueDate" <= ${sql.p(f.dueTo)}`);
  if (f.noDueDate) c.push(`i."dueDate" IS NULL`);
  if (f.titleSearch) {
    const pattern = `%${f.titleSearch.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const n = /^#?(\d{1,9})$/.exec(f.titleSearch);
    const byTitle = `LOWER(i."title") LIKE ${sql.p(pattern)} ESCAPE '\\'`;
    c.push(n ? `(${byTitle} OR i."number" = ${sql.p(Number(n[1]))})` : byTitle);
  }
  for (const group of f.labelGroups ?? []) {
    c.push(
      group.length
        ? `EXISTS (SELECT 1 FROM "IssueLabel" fil JOIN "Label" fl ON fl."id" = fil."labelId" WHERE fil."issueId" = i."id" AND fl."nameLower" IN (${sql.list(group.map((n) => n.toLowerCase()))}))`
        : "1 = 0",
    );
  }
  if (f.noLabel) c.push(`NOT EXISTS (SELECT 1 FROM "IssueLabel" fil WHERE fil."issueId" = i."id")`);
  for (const refs of f.assigneeRefs ?? []) c.push(userRefSql(sql, `i."assigneeId"`, refs));
  if (f.noAssignee) c.push(`i."assigneeId" IS NULL`);
  for (const refs of f.authorRefs ?? []) c.push(userRefSql(sql, `i."authorId"`, refs));
  if (f.projectNames) {
    c.push(
      f.projectNames.length
        ? `i."projectId" IN (SELECT pr."id" FROM "Project" pr WHERE pr."repoId" = ${sql.p(f.repoId)} AND pr."nameLower" IN (${sql.list(f.projectNames.map((n) => n.toLowerCase()))}))`
        : "1 = 0",
    );
  }
  if (f.noProject) c.push(`i."projectId" IS NULL`);
  if (f.cycleNumbers) {
    c.push(
      f.cycleNumbers.length
        ? `i."cycleId" IN (SELECT cy."id" FROM "Cycle" cy WHERE cy."repoId" = ${sql.p(f.repoId)} AND cy."number" IN (${sql.list(f.cycleNumbers)}))`
        : "1 = 0",
    );
  }
  if (f.noCycle) c.push(`i."cycleId" IS NULL`);
  if (f.text?.length) c.push(textSql(sql, f.text));
  return c;
}

/** `column` is one of the users (by id, or by case-insensitive username or id); nothing matches an empty set. */
function userRefSql(sql: Sql, column: string, refs: UserRefs): string {
  const parts: string[] = [];
  if (refs.ids.length) parts.push(`${column} IN (${sql.list(refs.ids)})`);
  // a name may also be a user id (saved views store assignees by id; ids are UUIDs, never usernames)
  if (refs.usernames.length)
    parts.push(
      `${column} IN (SELECT fu."id" FROM "User" fu WHERE fu."usernameLower" IN (${sql.list(refs.usernames.map((u) => u.toLowerCase()))}) OR fu."id" IN (${sql.list(refs.usernames)}))`,
    );
  return parts.length ? `(${parts.join(" OR ")})` : "1 = 0";
}

/**
 * Full-text condition on title and body. SQLite: the FTS5 table "IssueSearch"
 * (porter unicode61, diacritics kept) over "IssueSearchDoc", kept in sync by triggers (migration
 * 20261123123900_issue_search); PostgreSQL: the GIN expression index "Issue_search_idx" on
 * to_tsvector('english', title || ' ' || body). The user's words reach the engine only as quoted
 * phrases of letters and digits (fts5Match / websearchText), so no input is an FTS syntax error.
 */
export const PG_SEARCH_VECTOR = `to_tsvector('english'::regconfig, i."title" || ' ' || COALESCE(i."body", ''))`;
function textSql(sql: Sql, phrases: string[][]): string {
  if (sql.dialect === "postgresql")
    return `${PG_SEARCH_VECTOR} @@ websearch_to_tsquery('english'::regconfig, ${sql.p(websearchText(phrases))})`;
  return `i."id" IN (SELECT sd."issueId" FROM "IssueSearch" s JOIN "IssueSearchDoc" sd ON sd."rowid" = s."rowid" WHERE "IssueSearch" MATCH ${sql.p(fts5Match(phrases))})`;
}

export function orderSql(order: OrderTerm[]): string {
  return order.map((o) => `${SORTABLE[o.field]} ${o.direction === "asc" ? "ASC" : "DESC"}${o.nullsLast ? " NULLS LAST" : ""}`).join(", ");
}

/**
 * The full statement for a filtered, ordered page of issues with their relations (pure).
 * A page is a deferred join: the inner SELECT finds the page's ids from the Issue
 * indexes alone (filter, order, LIMIT/OFFSET), and only those rows get the joins and the
 * label / sub-issue subqueries. Without it a sort the index cannot give (a temp B-tree) computed
 * every matching row's labels before keeping 50.
 */
export function issuesSql(
  dialect: Dialect,
  filter: IssueFilter,
  order: OrderTerm[],
  page: { limit?: number; offset?: number } = {},
): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const where = whereSql(sql, filter);
  const orderBy = orderSql(order);
  if (page.limit === undefined) {
    return { text: `${issueSelectSql(dialect)}\nWHERE ${where.join(" AND ")}\nORDER BY ${orderBy}`, params: sql.params };
  }
  const text = `${issueSelectSql(dialect)}
WHERE i."id" IN (SELECT i."id" FROM "Issue" i WHERE ${where.join(" AND ")} ORDER BY ${orderBy} LIMIT ${sql.int(page.limit)} OFFSET ${sql.int(page.offset ?? 0)})
ORDER BY ${orderBy}`;
  return { text, params: sql.params };
}

/**
 * Who closed an issue ("closed … by <user>"): the actor of its newest state change to
 * closed in the activity log (status.ts writes it), by the (issueId, createdAt) index. A
 * correlated subquery of the list statement, evaluated for closed rows only: no N+1.
 */
const CLOSED_BY_SQL = `SELECT ca."actorId" FROM "IssueActivity" ca WHERE ca."issueId" = i."id" AND ca."action" = 'status_changed' AND ca."field" = 'state' AND ca."newValue" = 'closed' ORDER BY ca."id" DESC LIMIT 1`;

/**
 * The SELECT … FROM … JOIN part shared by every issue list (alias `i` for the issue; no bound
 * parameters, so callers may add their own WHERE / ORDER BY / LIMIT after it). `extraColumns`
 * and `extraJoins` are fixed SQL text from the caller (never user values).
 */
export function issueSelectSql(dialect: Dialect, extraColumns = "", extraJoins = ""): string {
  const labelJson =
    dialect === "postgresql"
      ? `COALESCE(json_agg(json_build_object('id', l."id", 'name', l."name", 'color', l."color", 'description', l."description"))::text, '[]')`
      : `json_group_array(json_object('id', l."id", 'name', l."name", 'color', l."color", 'description', l."description"))`;
  // SQLite's statistics count every NULL parentId as one value, so in a repository with few or no
  // sub-issues (stat1 "100000 100000") the planner takes Issue_parentId_idx for useless and
  // counts each row's sub-issues with a full table scan: 20 rows → 40 scans of 100k (measured:
  // 40 ms instead of 0.3 ms). The index always fits `parentId = <an issue id>`; name it.
  const children = dialect === "sqlite" ? ` INDEXED BY "Issue_parentId_idx"` : "";
  return `SELECT i."id", i."number", i."title", i."body", i."state", i."status", i."priority", i."dueDate", i."estimate",
  i."projectId", i."cycleId", i."authorId", i."assigneeId", i."createdAt", i."updatedAt", i."closedAt",
  au."username" AS "authorUsername", au."name" AS "authorName", asg."username" AS "assigneeUsername", asg."name" AS "assigneeName",
  par."number" AS "parentNumber",
  (SELECT ${labelJson} FROM "IssueLabel" il JOIN "Label" l ON l."id" = il."labelId" WHERE il."issueId" = i."id") AS "labels",
  (SELECT CAST(COUNT(*) AS INTEGER) FROM "Issue" ch${children} WHERE ch."parentId" = i."id") AS "subTotal",
  (SELECT CAST(COUNT(*) AS INTEGER) FROM "Issue" ch${children} WHERE ch."parentId" = i."id" AND ch."state" = 'closed') AS "subClosed",
  cb."id" AS "closedById", cb."username" AS "closedByUsername", cb."name" AS "closedByName"${extraColumns}
FROM "Issue" i
LEFT JOIN "User" au ON au."id" = i."authorId"
LEFT JOIN "User" asg ON asg."id" = i."assigneeId"
LEFT JOIN "Issue" par ON par."id" = i."parentId"
LEFT JOIN "User" cb ON i."state" = 'closed' AND cb."id" = (${CLOSED_BY_SQL})${extraJoins}`;
}

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));

export interface Row {
  id: string;
  number: unknown;
  title: string;
  body: string | null;
  state: string;
  status: string;
  priority: unknown;
  dueDate: string | null;
  estimate: unknown;
  projectId: string | null;
  cycleId: string | null;
  authorId: string | null;
  assigneeId: string | null;
  createdAt: unknown;
  updatedAt: unknown;
  closedAt: unknown;
  authorUsername: string | null;
  authorName: string | null;
  assigneeUsername: string | null;
  assigneeName: string | null;
  parentNumber: unknown;
  labels: unknown;
  subTotal: unknown;
  subClosed: unknown;
  closedById?: string | null;
  closedByUsername?: string | null;
  closedByName?: string | null;
}

export function rowToView(r: Row): IssueView {
  const labels = (typeof r.labels === "string" ? JSON.parse(r.labels) : (r.labels ?? [])) as LabelView[];
  const total = num(r.subTotal ?? 0);
  const closed = num(r.subClosed ?? 0);
  return {
    id: r.id,
    number: num(r.number),
    title: r.title,
    body: r.body,
    state: r.state as "open" | "closed",
    status: r.status,
    priority: priorityKey(num(r.priority)),
    dueDate: r.dueDate,
    estimate: r.estimate === null || r.estimate === undefined ? null : num(r.estimate),
    parentNumber: r.parentNumber === null || r.parentNumber === undefined ? null : num(r.parentNumber),
    projectId: r.projectId,
    cycleId: r.cycleId,
    authorId: r.authorId,
    author: r.authorId && r.authorUsername !== null ? { id: r.authorId, username: r.authorUsername, name: r.authorName } : null,
    assigneeId: r.assigneeId,
    assignee: r.assigneeId && r.assigneeUsername !== null ? { id: r.assigneeId, username: r.assigneeUsername, name: r.assigneeName } : null,
    labels: labels
      .map((l) => ({ id: l.id, name: l.name, color: l.color, description: l.description ?? null }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    subIssueCount: total,
    subIssueProgress: total === 0 ? 0 : Math.floor((closed * 100) / total),
    createdAt: isoOf(r.createdAt),
    updatedAt: isoOf(r.updatedAt),
    closedAt: r.closedAt === null || r.closedAt === undefined ? null : isoOf(r.closedAt),
    closedBy: r.closedById && r.closedByUsername ? { id: r.closedById, username: r.closedByUsername, name: r.closedByName ?? null } : null,
  };
}

/** How many issues match `filter`, per state. Exactly one query. */
export async function countIssuesByState(db: Db | Tx, filter: IssueFilter): Promise<{ open: number; closed: number }> {
  const sql = new Sql(getConfig().provider);
  const where = whereSql(sql, filter);
  const rows = await readRows<{ state: string; n: unknown }>(
    db,
    `SELECT i."state" AS "state", CAST(COUNT(*) AS INTEGER) AS "n" FROM "Issue" i WHERE ${where.join(" AND ")} GROUP BY i."state"`,
    sql.params,
  );
  const count = (state: string) => num(rows.find((r) => r.state === state)?.n ?? 0);
  return { open: count("open"), closed: count("closed") };
}

/**
 * Issues matching `filter`, ordered by `order` (number descending appended as the tie-break
 * unless already present), paged when `page.limit` is given. Exactly one query.
 */
export async function queryIssues(
  db: Db | Tx,
  filter: IssueFilter,
  order: OrderTerm[],
  page: { limit?: number; offset?: number } = {},
): Promise<IssueView[]> {
  const full = order.some((o) => o.field === "number") ? order : [...order, { field: "number" as const, direction: "desc" as const }];
  const { text, params } = issuesSql(getConfig().provider, filter, full, page);
  const rows = await readRows<Row>(db, text, params);
  return rows.map(rowToView);
}
