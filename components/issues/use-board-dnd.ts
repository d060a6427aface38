"use client";
/**
 * dnd-kit's configuration for the board (./use-board.ts): sensors, collision detection and the
 * screen-reader announcements, all reading the columns from a ref updated synchronously (never
 * from a stale render).
 *
 * Collisions follow dnd-kit's multi-container pattern: they prefer the pointer, then rectangle
 * intersection, then the closest card inside the column. Right after a card changed column,
 * layout shifts may briefly leave nothing under the pointer; the last target is kept then, so a
 * card near a column edge does not flip between two columns on every render ("Maximum update
 * depth exceeded", React #185).
 *
 * Auto-scroll (dnd-kit's `autoScroll` options, docs/ui.md "Issues", Board): the board scrolls
 * while the pointer is near its edge, and `canScroll` stops it as soon as the column under the
 * pointer is fully in view, so holding a card over a column that straddles the edge brings that
 * column in and stops there instead of running to the board's end (only the outer strip of the
 * board keeps scrolling). A mouse or touch drop lands in the column under the pointer at release
 * (`pointerHit`), whatever the collision detection last reported.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
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
  type AutoScrollOptions,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { STATUSES } from "./model";
import { cardName, colId, columnOf, overText, placeText, type Columns } from "./board-model";

/** Pixels at the board's left and right ends where auto-scroll always runs (beyond the last visible column). */
const EDGE_STRIP = 40;

type Point = { x: number; y: number };

/** The column (its element) and the card (its number, if any) at viewport point `p`, under the drag overlay. */
function hitAt(p: Point): { column: HTMLElement; card: number | null } | null {
  let card: number | null = null;
  for (const el of document.elementsFromPoint(p.x, p.y)) {
    if (!(el instanceof HTMLElement)) continue;
    const c = el.closest<HTMLElement>("[data-board-card]");
    if (c && card === null) card = Number(c.dataset.boardCard);
    const column = el.closest<HTMLElement>("[data-board-column]");
    if (column) return { column, card };
  }
  return null;
}

/**
 * Whether dnd-kit may auto-scroll `el` with the pointer at `p` (viewport px): always for other
 * scroll containers, with no pointer, or with the pointer in the board's outer `EDGE_STRIP`;
 * otherwise only while the column under the pointer is cut off by the board's edge.
 */
function mayAutoScroll(el: Element, p: Point | null): boolean {
  if (!p || !(el instanceof HTMLElement) || !el.hasAttribute("data-board-scroller")) return true;
  const box = el.getBoundingClientRect();
  if (p.x >= box.right - EDGE_STRIP || p.x <= box.left + EDGE_STRIP) return true;
  const hit = hitAt(p);
  if (!hit) return true;
  const r = hit.column.getBoundingClientRect();
  return r.left < box.left - 1 || r.right > box.right + 1;
}

/** Viewport coordinates of a mouse, pointer or touch event; null for others (the keyboard). */
function pointOf(e: Event | null): Point | null {
  if (!e) return null;
  if ("touches" in e) {
    const t = (e as TouchEvent).touches[0] ?? (e as TouchEvent).changedTouches[0];
    return t ? { x: t.clientX, y: t.clientY } : null;
  }
  if ("clientX" in e) return { x: (e as MouseEvent).clientX, y: (e as MouseEvent).clientY };
  return null;
}

const INSTRUCTIONS =
  "To move a card, focus its Move button and press Space or Enter. Use the up and down arrow keys to move it within its column and the left and right arrow keys to move it to the neighbouring column. Press Space or Enter again to drop it, or Escape to cancel.";

/**
 * The DndContext settings of the board. `columnsRef`: the columns now; `snapshot`: the columns
 * as the current drag found them (null outside a drag); `columns`: the rendered columns (a change
 * ends the "just moved to another column" window at the next frame).
 *
 * Returns `sensors` (mouse after 5 px, touch after a 250 ms hold, keyboard), `collisionDetection`,
 * `autoScroll` (DndContext's option), `accessibility` (announcements and instructions),
 * `dragStarted(activatorEvent)` (forget the last target; follow the pointer of a mouse or touch
 * drag), `dragEnded()`, `pointerHit()` (the droppable id of the column under the pointer and the
 * card number there, or null for a keyboard drag or outside the columns) and
 * `movedToNewColumn()` (call when a drag-over moved the card to another column).
 */
export function useBoardDnd({
  columnsRef,
  snapshot,
  columns,
}: {
  columnsRef: React.RefObject<Columns>;
  snapshot: React.RefObject<Columns | null>;
  columns: Columns;
}) {
  const lastOverId = useRef<UniqueIdentifier | null>(null);
  const movedToNewColumn = useRef(false);
  const edge = useEdgeAutoScroll();

  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      movedToNewColumn.current = false;
    });
    return () => cancelAnimationFrame(frame);
  }, [columns]);

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
  }, [columnsRef]);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  const collisionDetection: CollisionDetection = useCallback(
    (args) => {
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
    },
    [columnsRef],
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
  }, [columnsRef, snapshot]);
  const accessibility = useMemo(() => ({ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }), [announcements]);

  return {
    sensors,
    collisionDetection,
    accessibility,
    autoScroll: edge.autoScroll,
    dragStarted: (activatorEvent: Event | null) => {
      lastOverId.current = null;
      edge.dragStarted(activatorEvent);
    },
    dragEnded: edge.dragEnded,
    pointerHit: edge.pointerHit,
    movedToNewColumn: () => {
      movedToNewColumn.current = true;
    },
  };
}

/**
 * Auto-scroll and drop point of a board's drag (this board and ./board-grouped.tsx): columns carry
 * `data-board-column` (their droppable id), cards `data-board-card` (their number), the scroll
 * container `data-board-scroller`.
 *
 * Returns `autoScroll` (DndContext's option: threshold 15 % of the board's width, `canScroll`
 * stopping once the column under the pointer is in view), `dragStarted(activatorEvent)` (follows
 * the pointer of a mouse or touch drag; a keyboard drag has none), `dragEnded()` and
 * `pointerHit()`: the droppable id of the column under the pointer and the card number there, or
 * null (keyboard drag, or the pointer outside the columns).
 */
export function useEdgeAutoScroll() {
  const pointer = useRef<Point | null>(null);
  const [tracking, setTracking] = useState(false);
  // flips when auto-scroll becomes allowed or not; a new `canScroll` makes dnd-kit re-check (and
  // stop its scroll interval), which it otherwise does only when the pointer moves
  const gateOpen = useRef(true);
  const [gateFlips, setGateFlips] = useState(0);

  useEffect(() => {
    if (!tracking) return;
    const check = () => {
      const scroller = document.querySelector("[data-board-scroller]");
      const open = scroller ? mayAutoScroll(scroller, pointer.current) : true;
      if (open === gateOpen.current) return;
      gateOpen.current = open;
      setGateFlips((n) => n + 1);
    };
    const move = (e: Event) => {
      pointer.current = pointOf(e) ?? pointer.current;
      check();
    };
    window.addEventListener("pointermove", move, { passive: true });
    window.addEventListener("touchmove", move, { passive: true });
    document.addEventListener("scroll", check, { capture: true, passive: true });
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("touchmove", move);
      document.removeEventListener("scroll", check, { capture: true });
    };
  }, [tracking]);

  const autoScroll: AutoScrollOptions = useMemo(
    () => ({
      threshold: { x: 0.15, y: 0.2 },
      acceleration: 8,
      // read live; `gateFlips` only makes this a new function when the answer flips
      canScroll: (el: Element) => gateFlips >= 0 && mayAutoScroll(el, pointer.current),
    }),
    [gateFlips],
  );

  return {
    autoScroll,
    dragStarted: (activatorEvent: Event | null) => {
      pointer.current = pointOf(activatorEvent);
      gateOpen.current = true;
      setTracking(pointer.current !== null);
    },
    dragEnded: () => {
      setTracking(false);
    },
    pointerHit: (): { column: string; card: number | null } | null => {
      const hit = pointer.current && tracking ? hitAt(pointer.current) : null;
      return hit ? { column: hit.column.dataset.boardColumn!, card: hit.card } : null;
    },
  };
}
