"use client";
/**
 * The state of the kanban board (./board.tsx): the columns (loaded a page at a time), the card
 * being dragged, the moves in flight and the last error. A move is shown at once and sent as
 * issues.move {status, beforeNumber | afterNumber}; a failure puts the card back and shows the
 * server's message; after a drop a toast offers Undo. dnd-kit's settings: ./use-board-dnd.ts.
 */
import { useCallback, useMemo, useRef, useState } from "react";
import type { DragEndEvent, DragOverEvent, DragStartEvent } from "@dnd-kit/core";
import { arrayMove } from "@dnd-kit/sortable";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { moveAnchor, statusLabel, type Issue } from "./model";
import { addCard, appendPage, columnOf, columnsFrom, moveCard, type BoardData, type Columns } from "./board-model";
import { useBoardDnd } from "./use-board-dnd";

/** Columns with card `number` put back at index `was` of column `from` (from wherever it is now). */
function putBack(cols: Columns, number: number, from: string, was: number): Columns {
  const now = columnOf(cols, number);
  if (!now) return cols;
  if (now !== from) return moveCard(cols, number, now, from, was);
  const list = cols[from].issues;
  const at = list.findIndex((i) => i.number === number);
  return { ...cols, [from]: { ...cols[from], issues: arrayMove(list, at, Math.min(was, list.length - 1)) } };
}

/**
 * The board of repository `repoId`, starting from `data` (issues.board: the first page of every
 * column).
 *
 * Returns `columns` (by status), `active` (the issue being dragged, or null) and `activeId`,
 * `error` (the last failed move), `pending` (moves in flight), `loading` / `loadErrors` by status
 * and `loadMore(status)` (the column's next page), `quickAdd(status, title)` (creates an issue
 * there; rejects with the server's error), and `dnd`: the props of the DndContext
 * (sensors, collision detection, accessibility, drag handlers).
 */
export function useBoard(repoId: string, data: BoardData) {
  const client = useTRPCClient();
  const [columns, setColumnsState] = useState<Columns>(() => columnsFrom(data));
  const [activeId, setActiveId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const [loading, setLoading] = useState<Record<string, boolean>>({});
  const [loadErrors, setLoadErrors] = useState<Record<string, string | null>>({});
  const columnsRef = useRef(columns);
  const snapshot = useRef<Columns | null>(null);
  const loadingRef = useRef<Record<string, boolean>>({});
  const { sensors, collisionDetection, autoScroll, accessibility, dragStarted, dragEnded, pointerHit, movedToNewColumn } = useBoardDnd({
    columnsRef,
    snapshot,
    columns,
  });

  /** Sets the columns and the ref together, so handlers running before the next render see them. */
  const setColumns = useCallback((next: Columns | ((c: Columns) => Columns)) => {
    const value = typeof next === "function" ? next(columnsRef.current) : next;
    if (value === columnsRef.current) return;
    columnsRef.current = value;
    setColumnsState(value);
  }, []);

  const loadMore = useCallback(
    (status: string) => {
      const cursor = columnsRef.current[status]?.nextCursor;
      if (!cursor || loadingRef.current[status]) return;
      loadingRef.current[status] = true;
      setLoading((l) => ({ ...l, [status]: true }));
      setLoadErrors((e) => ({ ...e, [status]: null }));
      client.issues.boardColumn
        .query({ repoId, status, cursor })
        .then((page) => setColumns((cols) => appendPage(cols, status, page)))
        .catch((e) => setLoadErrors((errs) => ({ ...errs, [status]: `Could not load more cards: ${errorMessage(e)}` })))
        .finally(() => {
          loadingRef.current[status] = false;
          setLoading((l) => ({ ...l, [status]: false }));
        });
    },
    [client, repoId, setColumns],
  );

  const active = useMemo(
    () =>
      activeId === null
        ? null
        : (Object.values(columns)
            .flatMap((c) => c.issues)
            .find((i) => i.number === activeId) ?? null),
    [activeId, columns],
  );

  const onDragStart = (e: DragStartEvent) => {
    setError(null);
    snapshot.current = columnsRef.current;
    dragStarted(e.activatorEvent);
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
    movedToNewColumn();
    setColumns(moveCard(cols, Number(active.id), from, to, index));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const before = snapshot.current;
    // a mouse or touch drop lands in the column under the pointer, whatever the last collision was
    // (auto-scroll may have moved the columns under a still pointer since)
    const hit = pointerHit();
    dragEnded();
    snapshot.current = null;
    setActiveId(null);
    if (!before) return;
    const number = Number(active.id);
    let to = over ? columnOf(columnsRef.current, over.id) : undefined;
    let overId = over?.id;
    let next = columnsRef.current;
    const hitStatus = hit ? columnOf(next, hit.column) : undefined;
    if (hit && hitStatus && hitStatus !== to) {
      to = hitStatus;
      overId = hit.card ?? hit.column;
      const now = columnOf(next, number);
      if (now && now !== to) {
        const at = next[to].issues.findIndex((i) => i.number === overId);
        next = moveCard(next, number, now, to, at < 0 ? next[to].issues.length : at);
      }
    }
    if (!to) {
      setColumns(before);
      return;
    }
    const oldIndex = next[to].issues.findIndex((i) => i.number === number);
    const overIndex = next[to].issues.findIndex((i) => i.number === overId);
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
   * offers Undo, which moves the card back the same way.
   */
  const persistMove = (number: number, from: string, to: string, was: number, undoable: boolean) => {
    const list = columnsRef.current[to].issues;
    const index = list.findIndex((i) => i.number === number);
    const others = list.filter((i) => i.number !== number).map((i) => i.number);
    setPending((p) => p + 1);
    client.issues.move
      .mutate({ repoId, number, status: to, ...moveAnchor(others, index) })
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
    dragEnded();
    if (snapshot.current) setColumns(snapshot.current);
    snapshot.current = null;
    setActiveId(null);
  };

  /** Quick-add: creates `title` in column `status` (issues.create) and shows it at the column's end. */
  const quickAdd = async (status: string, title: string) => {
    const issue = await client.issues.create.mutate({ repoId, title, status });
    setColumns((cols) => addCard(cols, issue as Issue));
  };

  return {
    columns,
    quickAdd,
    active,
    activeId,
    error,
    pending,
    loading,
    loadErrors,
    loadMore,
    dnd: { sensors, collisionDetection, autoScroll, accessibility, onDragStart, onDragOver, onDragEnd, onDragCancel },
  };
}
