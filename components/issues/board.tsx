"use client";
/**
 * Kanban board (issues #3 and #7): one column per status (all of them, empty ones too), cards in
 * their persisted board order, a page at a time (issues.board, then issues.boardColumn per
 * column; ./board-column.tsx). Writers drag cards between and within columns with the mouse,
 * touch (press and hold 250 ms; a swipe scrolls the board) or the keyboard (Tab to a card's Move
 * button, Space, arrows, Space to drop, Escape to cancel); screen readers hear the card and the
 * column names. A move is shown at once and sent as issues.move {status, beforeNumber |
 * afterNumber}; a failure puts the card back and shows the server's message.
 *
 * Drag-over follows dnd-kit's multi-container pattern: collisions prefer the pointer, then
 * rectangle intersection, then the closest card inside the column; a card changes column only
 * when the target column actually differs from the one it is in (read from a ref updated
 * synchronously, never from a stale render), and an update that changes nothing is not set.
 * Without it a card near a column edge flipped between two columns on every render
 * ("Maximum update depth exceeded", React #185).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  closestCorners,
  getFirstCollision,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { arrayMove, sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { STATUSES, moveAnchor, statusLabel, type Issue } from "./model";
import {
  appendPage,
  cardName,
  colId,
  columnOf,
  columnsFrom,
  moveCard,
  overText,
  placeText,
  type BoardData,
  type Columns,
} from "./board-model";
import { CardBody, Column } from "./board-column";

type RepoRef = { id: string; owner: string; name: string };

const INSTRUCTIONS =
  "To move a card, focus its Move button and press Space or Enter. Use the up and down arrow keys to move it within its column and the left and right arrow keys to move it to the neighbouring column. Press Space or Enter again to drop it, or Escape to cancel.";

/** Columns with card `number` put back at index `was` of column `from` (from wherever it is now). */
function putBack(cols: Columns, number: number, from: string, was: number): Columns {
  const now = columnOf(cols, number);
  if (!now) return cols;
  if (now !== from) return moveCard(cols, number, now, from, was);
  const list = cols[from].issues;
  const at = list.findIndex((i) => i.number === number);
  return { ...cols, [from]: { ...cols[from], issues: arrayMove(list, at, Math.min(was, list.length - 1)) } };
}

export function Board({ repo, data, canWrite }: { repo: RepoRef; data: BoardData; canWrite: boolean }) {
  const client = useTRPCClient();
  const [columns, setColumnsState] = useState<Columns>(() => columnsFrom(data));
  const [activeId, setActiveId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const [loading, setLoading] = useState<Record<string, boolean>>({});
  const [loadErrors, setLoadErrors] = useState<Record<string, string | null>>({});
  const columnsRef = useRef(columns);
  const snapshot = useRef<Columns | null>(null);
  const lastOverId = useRef<UniqueIdentifier | null>(null);
  const movedToNewColumn = useRef(false);
  const loadingRef = useRef<Record<string, boolean>>({});

  /** Sets the columns and the ref together, so handlers running before the next render see them. */
  const setColumns = useCallback((next: Columns | ((c: Columns) => Columns)) => {
    const value = typeof next === "function" ? next(columnsRef.current) : next;
    if (value === columnsRef.current) return;
    columnsRef.current = value;
    setColumnsState(value);
  }, []);

  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      movedToNewColumn.current = false;
    });
    return () => cancelAnimationFrame(frame);
  }, [columns]);

  const loadMore = useCallback(
    (status: string) => {
      const cursor = columnsRef.current[status]?.nextCursor;
      if (!cursor || loadingRef.current[status]) return;
      loadingRef.current[status] = true;
      setLoading((l) => ({ ...l, [status]: true }));
      setLoadErrors((e) => ({ ...e, [status]: null }));
      client.issues.boardColumn
        .query({ repoId: repo.id, status, cursor })
        .then((page) => setColumns((cols) => appendPage(cols, status, page)))
        .catch((e) => setLoadErrors((errs) => ({ ...errs, [status]: `Could not load more cards: ${errorMessage(e)}` })))
        .finally(() => {
          loadingRef.current[status] = false;
          setLoading((l) => ({ ...l, [status]: false }));
        });
    },
    [client, repo.id, setColumns],
  );

  // arrows up/down move within a column (dnd-kit's sortable getter); left/right jump to the
  // top of the neighbouring column, which the sortable getter does not do across containers
  const keyboardCoordinates = useMemo(() => {
    const getter: KeyboardCoordinateGetter = (event, args) => {
      if (event.code !== "ArrowLeft" && event.code !== "ArrowRight") return sortableKeyboardCoordinates(event, args);
      const { context } = args;
      const current = columnOf(columnsRef.current, context.over?.id ?? context.active?.id ?? "");
      const index = STATUSES.findIndex((s) => s.key === current);
      const next = STATUSES[index + (event.code === "ArrowRight" ? 1 : -1)];
      const rect = next ? context.droppableRects.get(colId(next.key)) : undefined;
      const dragged = context.collisionRect;
      if (!rect || !dragged) return undefined;
      event.preventDefault();
      return { x: rect.left + (rect.width - dragged.width) / 2, y: rect.top + 4 };
    };
    return getter;
  }, []);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  const collisionDetection: CollisionDetection = useCallback((args) => {
    const pointer = pointerWithin(args);
    const hits = pointer.length > 0 ? pointer : rectIntersection(args);
    let overId = getFirstCollision(hits, "id");
    if (overId != null) {
      const status = typeof overId === "string" && overId.startsWith("col:") ? overId.slice(4) : null;
      const cards = status ? (columnsRef.current[status]?.issues ?? []) : [];
      if (cards.length > 0) {
        // over a column with cards: the closest card inside it
        const inside = args.droppableContainers.filter((c) => c.id !== overId && cards.some((i) => i.number === c.id));
        overId = closestCorners({ ...args, droppableContainers: inside })[0]?.id ?? overId;
      }
      lastOverId.current = overId;
      return [{ id: overId }];
    }
    // just moved to another column: layout shifts may briefly leave nothing under the pointer
    if (movedToNewColumn.current) lastOverId.current = args.active.id;
    return lastOverId.current != null ? [{ id: lastOverId.current }] : [];
  }, []);

  const active = useMemo(
    () =>
      activeId === null
        ? null
        : (Object.values(columns)
            .flatMap((c) => c.issues)
            .find((i) => i.number === activeId) ?? null),
    [activeId, columns],
  );

  const announcements: Announcements = useMemo(() => {
    const name = (id: UniqueIdentifier) => cardName(columnsRef.current, Number(id));
    return {
      onDragStart: ({ active }) => `Picked up ${name(active.id)}, in ${placeText(columnsRef.current, Number(active.id))}.`,
      onDragOver: ({ active, over }) => {
        if (!over) return `${name(active.id)} is not over a column.`;
        // over itself where it started (the first collision of every drag): the pickup said it
        const start = snapshot.current ? columnOf(snapshot.current, active.id) : undefined;
        if (over.id === active.id && start === columnOf(columnsRef.current, active.id)) return undefined;
        return `${name(active.id)} is over ${overText(columnsRef.current, Number(active.id), over.id)}.`;
      },
      onDragEnd: ({ active, over }) =>
        over
          ? `Moved ${name(active.id)} to ${placeText(columnsRef.current, Number(active.id))}.`
          : `${name(active.id)} was dropped outside the columns and stays in ${placeText(columnsRef.current, Number(active.id))}.`,
      onDragCancel: ({ active }) =>
        `Moving ${name(active.id)} was cancelled. It stays in ${placeText(columnsRef.current, Number(active.id))}.`,
    };
  }, []);

  const onDragStart = (e: DragStartEvent) => {
    setError(null);
    snapshot.current = columnsRef.current;
    lastOverId.current = null;
    setActiveId(Number(e.active.id));
  };

  // moving across columns while dragging, so the card shows where it will land
  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const cols = columnsRef.current;
    const from = columnOf(cols, active.id);
    const to = columnOf(cols, over.id);
    if (!from || !to || from === to) return;
    const target = cols[to].issues;
    const overIndex = target.findIndex((i) => i.number === over.id);
    const below =
      over.rect && active.rect.current.translated ? active.rect.current.translated.top > over.rect.top + over.rect.height / 2 : false;
    const index = overIndex < 0 ? target.length : overIndex + (below ? 1 : 0);
    movedToNewColumn.current = true;
    setColumns(moveCard(cols, Number(active.id), from, to, index));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const before = snapshot.current;
    snapshot.current = null;
    setActiveId(null);
    if (!before) return;
    const number = Number(active.id);
    const to = over ? columnOf(columnsRef.current, over.id) : undefined;
    if (!to) {
      setColumns(before);
      return;
    }
    let next = columnsRef.current;
    const oldIndex = next[to].issues.findIndex((i) => i.number === number);
    const overIndex = next[to].issues.findIndex((i) => i.number === over!.id);
    if (oldIndex >= 0 && overIndex >= 0 && oldIndex !== overIndex)
      next = { ...next, [to]: { ...next[to], issues: arrayMove(next[to].issues, oldIndex, overIndex) } };
    setColumns(next);
    const from = columnOf(before, number);
    const index = next[to].issues.findIndex((i) => i.number === number);
    const was = from ? before[from].issues.findIndex((i) => i.number === number) : -1;
    if (!from || (from === to && index === was)) return;
    persistMove(number, from, to, was, true);
  };

  /**
   * Sends the move of card `number` (already shown in column `to`) as issues.move with the
   * neighbours it now has; on failure puts just this card back at index `was` of `from` (pages
   * loaded meanwhile stay) and shows the server's message. After a drop (`undoable`) a toast
   * offers Undo, which moves the card back the same way (issue #7).
   */
  const persistMove = (number: number, from: string, to: string, was: number, undoable: boolean) => {
    const list = columnsRef.current[to].issues;
    const index = list.findIndex((i) => i.number === number);
    const others = list.filter((i) => i.number !== number).map((i) => i.number);
    setPending((p) => p + 1);
    client.issues.move
      .mutate({ repoId: repo.id, number, status: to, ...moveAnchor(others, index) })
      .then((issue) => {
        setColumns((cols) => ({
          ...cols,
          [to]: { ...cols[to], issues: cols[to].issues.map((i) => (i.number === number ? (issue as Issue) : i)) },
        }));
        if (undoable) {
          toast(from === to ? `Moved #${number} within ${statusLabel(to)}` : `Moved #${number} to ${statusLabel(to)}`, {
            action: { label: "Undo", onClick: () => undoMove(number, from, was) },
          });
        }
      })
      .catch((e) => {
        setColumns((cols) => putBack(cols, number, from, was));
        setError(`Could not move #${number}: ${errorMessage(e)}`);
      })
      .finally(() => setPending((p) => p - 1));
  };

  /** Undo of a drop: the card goes back to index `was` of column `from`, shown at once and sent as a move. */
  const undoMove = (number: number, from: string, was: number) => {
    const now = columnOf(columnsRef.current, number);
    if (!now) return;
    const index = columnsRef.current[now].issues.findIndex((i) => i.number === number);
    setError(null);
    setColumns((cols) => putBack(cols, number, from, was));
    persistMove(number, now, from, index, false);
  };

  const onDragCancel = () => {
    if (snapshot.current) setColumns(snapshot.current);
    snapshot.current = null;
    setActiveId(null);
  };

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
      <DndContext
        sensors={sensors}
        collisionDetection={collisionDetection}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
        accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      >
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
