"use client";
/**
 * Kanban board: one column per status (all of them, empty ones too), cards in their persisted
 * board order, a page at a time (issues.board, then issues.boardColumn per column;
 * ./board-column.tsx). Writers drag cards between and within columns with the mouse, touch (press
 * and hold 250 ms; a swipe scrolls the board) or the keyboard (Tab to a card's Move button, Space,
 * arrows, Space to drop, Escape to cancel); screen readers hear the card and the column names.
 * State and moves: ./use-board.ts; dnd-kit's settings: ./use-board-dnd.ts.
 */
import { DndContext, DragOverlay } from "@dnd-kit/core";
import { FormError } from "@/components/ui/form-error";
import { STATUSES, statusLabel } from "./model";
import type { BoardData } from "./board-model";
import { CardBody, Column } from "./board-column";
import { useBoard } from "./use-board";

type RepoRef = { id: string; owner: string; name: string };

/** The board page's body: `data` is issues.board's answer; `canWrite` lets the reader move cards. */
export function Board({ repo, data, canWrite }: { repo: RepoRef; data: BoardData; canWrite: boolean }) {
  const { columns, active, activeId, error, pending, loading, loadErrors, loadMore, dnd } = useBoard(repo.id, data);
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
        <div className="flex touch-pan-x touch-pan-y gap-3 overflow-x-auto overscroll-x-contain pb-4" data-testid="board-scroller">
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
            />
          ))}
        </div>
        <DragOverlay>{active ? <CardBody issue={active} repo={repo} overlay /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}
