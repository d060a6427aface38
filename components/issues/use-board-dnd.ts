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
 */
import { useCallback, useEffect, useMemo, useRef } from "react";
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
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { STATUSES } from "./model";
import { cardName, colId, columnOf, overText, placeText, type Columns } from "./board-model";

const INSTRUCTIONS =
  "To move a card, focus its Move button and press Space or Enter. Use the up and down arrow keys to move it within its column and the left and right arrow keys to move it to the neighbouring column. Press Space or Enter again to drop it, or Escape to cancel.";

/**
 * The DndContext settings of the board. `columnsRef`: the columns now; `snapshot`: the columns
 * as the current drag found them (null outside a drag); `columns`: the rendered columns (a change
 * ends the "just moved to another column" window at the next frame).
 *
 * Returns `sensors` (mouse after 5 px, touch after a 250 ms hold, keyboard), `collisionDetection`,
 * `accessibility` (announcements and instructions), `dragStarted()` (forget the last target) and
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
    dragStarted: () => {
      lastOverId.current = null;
    },
    movedToNewColumn: () => {
      movedToNewColumn.current = true;
    },
  };
}
