"use client";
/**
 * Kanban board: one column per status (all of them, empty ones too), cards in their persisted
 * board order, a page at a time (issues.board, then issues.boardColumn per column;
 * ./board-column.tsx). Writers drag cards between and within columns with the mouse, touch (press
 * and hold 250 ms; a swipe scrolls the board) or the keyboard (Tab to a card's Move button, Space,
 * arrows, Space to drop, Escape to cancel); screen readers hear the card and the column names.
 * State and moves: ./use-board.ts; dnd-kit's settings: ./use-board-dnd.ts.
 */
import { usePathname, useRouter } from "next/navigation";
import { DndContext, DragOverlay } from "@dnd-kit/core";
import { FormError } from "@/components/ui/form-error";
import { NativeSelect } from "@/components/ui/input";
import { STATUSES, statusLabel } from "./model";
import type { BoardData } from "./board-model";
import { CardBody, Column } from "./board-column";
import { useBoard } from "./use-board";
import { GROUP_FIELDS, GROUP_LABELS, type GroupField } from "./board-group";
import { boardQuery, type RowField } from "./board-lanes";
import { GroupedBoard } from "./board-grouped";

type RepoRef = { id: string; owner: string; name: string };

/**
 * The board page's body: the "Group by" and "Rows" controls, then the board by status (`data`:
 * issues.board's answer, null unless by status without rows) or grouped by `group` with lanes by
 * `rows` (./board-grouped.tsx). `canWrite` lets the reader move and add cards.
 */
export function Board({
  repo,
  data,
  canWrite,
  group,
  rows,
}: {
  repo: RepoRef;
  data: BoardData | null;
  canWrite: boolean;
  group: GroupField;
  rows: RowField;
}) {
  return (
    <>
      <GroupBy group={group} rows={rows} />
      {group === "status" && rows === "none" && data ? (
        <StatusBoard repo={repo} data={data} canWrite={canWrite} />
      ) : (
        <GroupedBoard key={`${group}:${rows}`} repo={repo} field={group} rows={rows} canWrite={canWrite} />
      )}
    </>
  );
}

/**
 * "Group by" (columns: status, the default, priority, assignee, label, project or cycle) and
 * "Rows" (swimlanes: none, the default, or another of those fields), kept in the URL as `?group=`
 * and `?rows=` (./board-lanes.ts `boardQuery`).
 */
function GroupBy({ group, rows }: { group: GroupField; rows: RowField }) {
  const router = useRouter();
  const pathname = usePathname();
  const go = (g: GroupField, r: RowField) => router.push(`${pathname}${boardQuery(g, r)}`);
  return (
    <div className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <span className="flex items-center gap-2">
        <label htmlFor="board-group" className="text-muted-foreground">
          Group by
        </label>
        <NativeSelect
          id="board-group"
          className="h-8 w-auto py-0 text-sm"
          value={group}
          onChange={(e) => go(e.target.value as GroupField, rows)}
          data-testid="board-group"
        >
          {GROUP_FIELDS.map((f) => (
            <option key={f} value={f}>
              {GROUP_LABELS[f]}
            </option>
          ))}
        </NativeSelect>
      </span>
      <span className="flex items-center gap-2">
        <label htmlFor="board-rows" className="text-muted-foreground">
          Rows
        </label>
        <NativeSelect
          id="board-rows"
          className="h-8 w-auto py-0 text-sm"
          value={rows}
          onChange={(e) => go(group, e.target.value as RowField)}
          data-testid="board-rows"
        >
          <option value="none">None</option>
          {GROUP_FIELDS.filter((f) => f !== group).map((f) => (
            <option key={f} value={f}>
              {GROUP_LABELS[f]}
            </option>
          ))}
        </NativeSelect>
      </span>
    </div>
  );
}

function StatusBoard({ repo, data, canWrite }: { repo: RepoRef; data: BoardData; canWrite: boolean }) {
  const { columns, active, activeId, error, pending, loading, loadErrors, loadMore, quickAdd, dnd } = useBoard(repo.id, data);
  return (
    <div data-testid="board" data-pending={pending} data-dragging={activeId !== null ? "true" : "false"}>
      {error && (
        <div className="mb-3" data-testid="board-error">
          <FormError message={error} />
        </div>
      )}
      {!canWrite && (
        <p className="mb-3 text-sm text-subtle-foreground" data-testid="board-readonly">
          You can view this board; moving cards needs write access.
        </p>
      )}
      <DndContext {...dnd}>
        <div
          className="flex touch-pan-x touch-pan-y gap-3 overflow-x-auto overscroll-x-contain pb-4"
          data-testid="board-scroller"
          data-board-scroller=""
        >
          {STATUSES.map((s) => (
            <Column
              key={s.key}
              status={s.key}
              label={statusLabel(s.key)}
              column={columns[s.key]}
              repo={repo}
              canWrite={canWrite}
              activeId={activeId}
              loading={Boolean(loading[s.key])}
              loadError={loadErrors[s.key] ?? null}
              onLoadMore={() => loadMore(s.key)}
              onQuickAdd={(title) => quickAdd(s.key, title)}
            />
          ))}
        </div>
        <DragOverlay>{active ? <CardBody issue={active} repo={repo} overlay /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}
