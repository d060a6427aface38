"use client";
/**
 * The grouped board (`?group=`, `?rows=`; ./board-group.ts, ./board-lanes.ts): a column per value
 * of the grouping field (and "No …"), the repository's newest issues (at most GROUPED_MAX) in
 * them, optionally split into swimlanes by a second field — each lane a collapsible row (its
 * header a button with aria-expanded) holding the same columns, all in one horizontal scroller.
 * Writers drag a card to another cell to set the column's field and, across lanes, the lane's
 * field (mouse, touch after a 250 ms hold, or the keyboard: the card's Move button, Space, arrows,
 * Space); a card with several labels is in each label's column or lane and a drop replaces the
 * label it was dragged from. There is no order within a grouped cell (board order is per status).
 * State: ./use-board-grouped.ts; a cell: ./board-grouped-column.tsx.
 */
import { DndContext, DragOverlay } from "@dnd-kit/core";
import { FormError } from "@/components/ui/form-error";
import { ChevronDownIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/styles";
import { CardBody } from "./board-column";
import type { GroupField } from "./board-group";
import type { Lane, RowField } from "./board-lanes";
import { GroupColumn } from "./board-grouped-column";
import { GROUPED_MAX, useGroupedBoard } from "./use-board-grouped";
import { PriorityIcon } from "./ui";

type RepoRef = { id: string; owner: string; name: string };

/** The grouped board's body: columns by `field`, lanes by `rows` ("none": no lanes); `canWrite` lets the reader move and add cards. */
export function GroupedBoard({ repo, field, rows, canWrite }: { repo: RepoRef; field: GroupField; rows: RowField; canWrite: boolean }) {
  const board = useGroupedBoard(repo.id, field, rows);
  const { lanes, loaded, total, truncated, collapsed, toggleLane, active, error, pending, quickAdd, dnd } = board;
  const cells = (lane: Lane) =>
    lane.cells.map((g) => (
      <GroupColumn
        key={g.key}
        group={g}
        lane={lane.key}
        laneLabel={lane.label}
        field={field}
        repo={repo}
        canWrite={canWrite}
        activeNumber={active?.issue.number ?? null}
        onQuickAdd={(title) => quickAdd(lane.key, g.key, title)}
      />
    ));
  return (
    <div
      data-testid="board"
      data-group={field}
      data-rows={rows}
      data-pending={pending}
      data-dragging={active ? "true" : "false"}
      data-loaded={loaded}
    >
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
      {truncated && (
        <p className="mb-3 text-sm text-subtle-foreground" data-testid="board-truncated">
          Showing the newest {GROUPED_MAX} of {total} issues; group by status without rows to see them all.
        </p>
      )}
      {!loaded && !error && (
        <p className="mb-3 text-sm text-subtle-foreground" role="status">
          Loading the board…
        </p>
      )}
      <DndContext {...dnd}>
        {/* relative: the sr-only texts in the cells (absolutely positioned) stay inside the scroller, not widening the page */}
        <div
          className={cx("relative touch-pan-x touch-pan-y overflow-x-auto overscroll-x-contain pb-4", rows === "none" && "flex gap-3")}
          data-testid="board-scroller"
          data-board-scroller=""
        >
          {loaded && rows === "none" && lanes[0] && cells(lanes[0])}
          {loaded && rows !== "none" && (
            <div className="flex w-max min-w-full flex-col gap-2">
              {lanes.map((lane) => (
                <SwimLane key={lane.key} lane={lane} rows={rows} open={!collapsed.has(lane.key)} onToggle={() => toggleLane(lane.key)}>
                  {cells(lane)}
                </SwimLane>
              ))}
              {lanes.length === 0 && <p className="px-1 py-4 text-sm text-subtle-foreground">No issues</p>}
            </div>
          )}
        </div>
        <DragOverlay>{active ? <CardBody issue={active.issue} repo={repo} overlay /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}

/** A swimlane: its header (a button with aria-expanded: name and issue count) and, when open, its cells. */
function SwimLane({
  lane,
  rows,
  open,
  onToggle,
  children,
}: {
  lane: Lane;
  rows: GroupField;
  open: boolean;
  onToggle: () => void;
  children: React.ReactNode;
}) {
  const bodyId = `lane-${rows}-${lane.key}`;
  return (
    <section aria-labelledby={`${bodyId}-title`} data-testid="board-lane" data-lane-key={lane.key} data-open={open}>
      <h2 className="sticky left-0 w-fit max-w-[calc(100vw-2rem)] text-sm">
        <button
          type="button"
          id={`${bodyId}-title`}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
          className="flex items-center gap-2 rounded-md px-1 py-1.5 font-semibold text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-testid="lane-toggle"
        >
          <ChevronDownIcon className={cx("h-4 w-4 shrink-0 transition-transform", !open && "-rotate-90")} />
          {rows === "priority" && <PriorityIcon priority={lane.key} />}
          <span className="truncate">{lane.label}</span>
          <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground" data-testid="lane-count">
            {lane.count}
            <span className="sr-only"> issues</span>
          </span>
        </button>
      </h2>
      <div id={bodyId} hidden={!open} className="flex gap-3 pt-1">
        {open && children}
      </div>
    </section>
  );
}
