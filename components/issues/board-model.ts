/**
 * Pure state of the paged board (no React; docs/ui.md "Issues", Board): columns loaded a page at a
 * time from issues.board / issues.boardColumn, moving a card between columns while dragging (counts
 * and estimate sums follow the card), appending a page without repeating cards, and the sentences
 * screen readers hear. Unit-tested in test/unit/ui-board.test.ts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { STATUSES, statusLabel, type Issue } from "./model";

type Outputs = inferRouterOutputs<AppRouter>["issues"];
export type BoardData = Outputs["board"];
export type BoardPage = Outputs["boardColumn"];

/** One column as the board shows it: the loaded cards, the column's exact totals, the next page. */
export interface ColumnState {
  issues: Issue[];
  /** issues in the column on the server, loaded or not (adjusted while a card is dragged) */
  count: number;
  /** their estimate sum (story points) */
  estimate: number;
  nextCursor: string | null;
}
export type Columns = Record<string, ColumnState>;

/** The droppable id of a column (cards use their issue number). */
export const colId = (status: string) => `col:${status}`;

/** Board state from issues.board; every status gets a column, in board order. */
export function columnsFrom(data: BoardData): Columns {
  const out: Columns = {};
  for (const s of STATUSES) {
    const c = data.columns.find((x) => x.status === s.key);
    out[s.key] = { issues: [...(c?.issues ?? [])], count: c?.count ?? 0, estimate: c?.estimate ?? 0, nextCursor: c?.nextCursor ?? null };
  }
  return out;
}

/** The column holding `id` (a card number or a column id), or undefined. */
export function columnOf(columns: Columns, id: string | number): string | undefined {
  if (typeof id === "string" && id.startsWith("col:")) return id.slice(4);
  return Object.keys(columns).find((k) => columns[k].issues.some((i) => i.number === id));
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The card #number moved from column `from` to column `to` at `index` (clamped), with the
 * card's status and both columns' counts and estimate sums following it. Returns `columns`
 * itself (the same object) when there is nothing to move, so React skips the update.
 */
export function moveCard(columns: Columns, number: number, from: string, to: string, index: number): Columns {
  if (from === to) return columns;
  const source = columns[from];
  const target = columns[to];
  const card = source?.issues.find((i) => i.number === number);
  if (!card || !target || target.issues.some((i) => i.number === number)) return columns;
  const at = Math.max(0, Math.min(index, target.issues.length));
  const points = card.estimate ?? 0;
  return {
    ...columns,
    [from]: {
      ...source,
      issues: source.issues.filter((i) => i.number !== number),
      count: Math.max(0, source.count - 1),
      estimate: round(source.estimate - points),
    },
    [to]: {
      ...target,
      issues: [...target.issues.slice(0, at), { ...card, status: to }, ...target.issues.slice(at)],
      count: target.count + 1,
      estimate: round(target.estimate + points),
    },
  };
}

/**
 * The board with a just-created `issue` at the end of its status column (where the server puts
 * new issues), its count and estimate sum included. A card already on the board is not repeated.
 */
export function addCard(columns: Columns, issue: Issue): Columns {
  const column = columns[issue.status];
  if (!column || Object.values(columns).some((c) => c.issues.some((i) => i.number === issue.number))) return columns;
  return {
    ...columns,
    [issue.status]: {
      ...column,
      issues: [...column.issues, issue],
      count: column.count + 1,
      estimate: round(column.estimate + (issue.estimate ?? 0)),
    },
  };
}

/** Column `status` with the next page appended: cards already on the board (moved there meanwhile) are not repeated. */
export function appendPage(columns: Columns, status: string, page: BoardPage): Columns {
  const shown = new Set(Object.values(columns).flatMap((c) => c.issues.map((i) => i.number)));
  const column = columns[status];
  if (!column) return columns;
  return {
    ...columns,
    [status]: {
      issues: [...column.issues, ...page.issues.filter((i) => !shown.has(i.number))],
      count: page.count,
      estimate: page.estimate,
      nextCursor: page.nextCursor,
    },
  };
}

/** "#12 Fix login" */
export function cardName(columns: Columns, number: number): string {
  const column = columnOf(columns, number);
  const issue = column ? columns[column].issues.find((i) => i.number === number) : undefined;
  return issue ? `#${number} ${issue.title}` : `#${number}`;
}

/** Where a card is: "In Progress, position 3 of 7" (position among the column's cards, of its exact count). */
export function placeText(columns: Columns, number: number): string {
  const status = columnOf(columns, number);
  if (!status) return "";
  const column = columns[status];
  const position = column.issues.findIndex((i) => i.number === number) + 1;
  return `${statusLabel(status)}, position ${position} of ${Math.max(column.count, column.issues.length)}`;
}

/** Where a card would land over `overId` (a card or a column): "In Progress, position 2 of 5". */
export function overText(columns: Columns, number: number, overId: string | number): string {
  const status = columnOf(columns, overId);
  if (!status) return "no column";
  const column = columns[status];
  const here = column.issues.some((i) => i.number === number);
  const total = Math.max(column.count, column.issues.length) + (here ? 0 : 1);
  const overIndex = typeof overId === "number" ? column.issues.findIndex((i) => i.number === overId) : -1;
  const position =
    typeof overId === "number" && overIndex >= 0
      ? overIndex + 1
      : here
        ? column.issues.findIndex((i) => i.number === number) + 1
        : column.issues.length + 1;
  return `${statusLabel(status)}, position ${position} of ${total}`;
}

/** Estimate sums as a header shows them: "13 pts", "1.5 pts", "1 pt". */
export function pointsText(points: number): string {
  const n = Math.round(points * 100) / 100;
  return `${n} ${n === 1 ? "pt" : "pts"}`;
}
