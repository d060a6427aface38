"use client";
/**
 * The state of the grouped board (./board-grouped.tsx): columns by priority, assignee, label,
 * project, cycle or status, optionally split into swimlanes by a second field (`rows`,
 * ./board-lanes.ts). Holds the issues (issues.list, 100 a page, at most GROUPED_MAX, and the
 * total from issues.counts), the repository's labels, projects and cycles (their columns and
 * lanes), the collapsed lanes (localStorage, per repository and rows field), the card being
 * dragged and the last error. A drop is shown at once and sent as one issues.bulkUpdate
 * {numbers: [n], patch} carrying the column's and the lane's change (between labels the
 * dragged-from label is replaced); a failure puts the card back and shows the server's message.
 * Quick-add creates with issues.create and the cell's values (./board-group.ts `createFields`).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import {
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import type { Issue } from "./model";
import { createFields, groupIssues, type GroupContext, type GroupField } from "./board-group";
import { applyMoves, dropPatch, laneIssues, type Lane, type Move, type RowField } from "./board-lanes";
import { useEdgeAutoScroll } from "./use-board-dnd";

/** At most this many issues are grouped (newest first); the board says so when there are more. */
export const GROUPED_MAX = 500;
const PAGE = 100;

/** A cell: lane key ("" without lanes) and column key. */
type Cell = { lane: string; col: string };
/** The droppable id of a cell, and the draggable id of a card in it (a labelled card is in several). */
export const cellId = (lane: string, col: string) => `grp:${lane}:${col}`;
export const cellCardId = (lane: string, col: string, number: number) => `${lane}:${col}|${number}`;
const parseCardId = (id: UniqueIdentifier) => {
  const [cell, number] = String(id).split("|");
  const [lane, col] = cell.split(":");
  return { lane, col, number: Number(number) };
};
const cellOf = (id: UniqueIdentifier | undefined): Cell | undefined => {
  if (typeof id !== "string" || !id.startsWith("grp:")) return undefined;
  const [, lane, col] = id.split(":");
  return { lane, col };
};
const collapsedKey = (repoId: string, rows: RowField) => `svc:board-collapsed:${repoId}:${rows}`;

const INSTRUCTIONS =
  "To move a card, focus its Move button and press Space or Enter. Use the left and right arrow keys to move it to the neighbouring column, and the up and down arrow keys to move it to the lane above or below. Press Space or Enter again to drop it, or Escape to cancel.";

/**
 * The board of repository `repoId` with columns by `field` and lanes by `rows` ("none": one lane,
 * key "").
 *
 * Returns `lanes` (./board-lanes.ts; without rows one lane with key "" holding the columns),
 * `loaded` (false until the first answer), `total` (the repository's issues, issues.counts) and
 * `truncated` (more than the GROUPED_MAX newest exist), `collapsed` and `toggleLane(key)`,
 * `active` (the card being dragged and its cell), `error`, `pending` (writes in flight),
 * `quickAdd(lane, col, title)` (resolves when created; rejects with the server's message) and
 * `dnd` (the DndContext props).
 */
export function useGroupedBoard(repoId: string, field: GroupField, rows: RowField) {
  const client = useTRPCClient();
  const [issues, setIssues] = useState<Issue[]>([]);
  const [ctx, setCtx] = useState<GroupContext>({ labels: [], projects: [], cycles: [] });
  const [loaded, setLoaded] = useState(false);
  const [total, setTotal] = useState(0);
  const [truncated, setTruncated] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<({ issue: Issue } & Cell) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const edge = useEdgeAutoScroll();

  useEffect(() => {
    let live = true;
    const uses = (f: GroupField) => field === f || rows === f;
    (async () => {
      const [labels, projects, cycles, counts] = await Promise.all([
        uses("label") ? client.issues.listLabels.query({ repoId }) : Promise.resolve([]),
        uses("project") ? client.projects.list.query({ repoId }) : Promise.resolve([]),
        uses("cycle") ? client.cycles.list.query({ repoId }) : Promise.resolve([]),
        client.issues.counts.query({ repoId }),
      ]);
      const all: Issue[] = [];
      for (let offset = 0; offset < GROUPED_MAX; offset += PAGE) {
        const page = await client.issues.list.query({ repoId, limit: PAGE, offset });
        all.push(...page);
        if (page.length < PAGE) break;
      }
      if (!live) return;
      let stored: string[] = [];
      try {
        stored = rows === "none" ? [] : (JSON.parse(localStorage.getItem(collapsedKey(repoId, rows)) ?? "[]") as string[]);
      } catch {
        stored = [];
      }
      setCollapsed(new Set(Array.isArray(stored) ? stored : []));
      setCtx({
        labels,
        projects: projects.map((p) => ({ id: p.id, name: p.name })),
        cycles: cycles.map((c) => ({ id: c.id, number: c.number, name: c.name })),
      });
      setIssues(all);
      setTotal(Math.max(all.length, counts.open + counts.closed));
      setTruncated(counts.open + counts.closed > all.length);
      setLoaded(true);
    })().catch((e) => live && setError(`Could not load the board: ${errorMessage(e)}`));
    return () => {
      live = false;
    };
  }, [client, repoId, field, rows]);

  const lanes: Lane[] = useMemo(
    () =>
      rows === "none"
        ? [{ key: "", label: "", count: issues.length, cells: groupIssues(issues, field, ctx) }]
        : laneIssues(issues, rows, field, ctx),
    [issues, field, rows, ctx],
  );
  const lanesRef = useRef(lanes);
  const collapsedRef = useRef(collapsed);
  useEffect(() => {
    lanesRef.current = lanes;
    collapsedRef.current = collapsed;
  }, [lanes, collapsed]);
  const laneOf = (key: string | undefined) => lanesRef.current.find((l) => l.key === key);
  const colLabel = (c: Cell | undefined) => laneOf(c?.lane)?.cells.find((g) => g.key === c?.col)?.label ?? "no column";
  const cellLabel = (c: Cell | undefined) => (c && rows !== "none" ? `${colLabel(c)} in ${laneOf(c.lane)?.label ?? c.lane}` : colLabel(c));

  const toggleLane = (key: string) => {
    const next = new Set(collapsedRef.current);
    if (!next.delete(key)) next.add(key);
    setCollapsed(next);
    try {
      localStorage.setItem(collapsedKey(repoId, rows), JSON.stringify([...next]));
    } catch {
      // storage full or disabled: the lane still collapses for this visit
    }
  };

  const replace = (number: number, next: Issue) => setIssues((list) => list.map((i) => (i.number === number ? next : i)));

  const onDragStart = (e: DragStartEvent) => {
    setError(null);
    edge.dragStarted(e.activatorEvent);
    const { lane, col, number } = parseCardId(e.active.id);
    const issue = issues.find((i) => i.number === number);
    setActive(issue ? { issue, lane, col } : null);
  };

  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    // a mouse or touch drop lands in the cell under the pointer (see useEdgeAutoScroll)
    const hit = edge.pointerHit();
    edge.dragEnded();
    setActive(null);
    const from = parseCardId(a.id);
    const to = cellOf(hit?.column) ?? cellOf(over?.id);
    const issue = issues.find((i) => i.number === from.number);
    if (!issue || !to) return;
    const moves: Move[] = [{ field, from: from.col, to: to.col, toLabel: colLabel(to) }];
    if (rows !== "none") moves.push({ field: rows, from: from.lane, to: to.lane, toLabel: laneOf(to.lane)?.label ?? to.lane });
    const patch = dropPatch(issue, moves);
    if (!patch) return;
    const number = issue.number;
    replace(number, applyMoves(issue, moves, ctx));
    setPending((p) => p + 1);
    client.issues.bulkUpdate
      .mutate({ repoId, numbers: [number], patch })
      .then((answer) => {
        if (answer[0]) replace(number, answer[0] as Issue);
        toast(`Moved #${number} to ${cellLabel(to)}`);
      })
      .catch((e) => {
        replace(number, issue);
        setError(`Could not move #${number}: ${errorMessage(e)}`);
      })
      .finally(() => setPending((p) => p - 1));
  };

  const onDragCancel = () => {
    edge.dragEnded();
    setActive(null);
  };

  const quickAdd = async (lane: string, col: string, title: string) => {
    const fields = { ...(rows === "none" ? {} : createFields(rows, lane, ctx)), ...createFields(field, col, ctx) };
    const issue = await client.issues.create.mutate({ repoId, title, ...fields });
    setIssues((list) => [issue as Issue, ...list]);
  };

  // left/right: the neighbouring column's top in the same lane; up/down: the same column in the
  // nearest expanded lane above or below (there is no order within a grouped cell)
  const coordinateGetter: KeyboardCoordinateGetter = (event, { context }) => {
    const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.code];
    if (!step) return undefined;
    const current = cellOf(context.over?.id) ?? (context.active ? parseCardId(context.active.id) : undefined);
    const dragged = context.collisionRect;
    if (!current || !dragged) return undefined;
    const list = lanesRef.current;
    let laneIndex = list.findIndex((l) => l.key === current.lane);
    const cols = list[laneIndex]?.cells ?? [];
    const col = cols[cols.findIndex((g) => g.key === current.col) + step[1]];
    if (!col) return undefined;
    let rect = step[0] === 0 ? context.droppableRects.get(cellId(current.lane, col.key)) : undefined;
    while (step[0] !== 0 && !rect && list[laneIndex + step[0]]) {
      laneIndex += step[0];
      rect = context.droppableRects.get(cellId(list[laneIndex].key, col.key));
    }
    if (!rect) return undefined;
    event.preventDefault();
    return { x: rect.left + (rect.width - dragged.width) / 2, y: rect.top + 4 };
  };
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );
  const collisionDetection: CollisionDetection = (args) => {
    const pointer = pointerWithin(args);
    return pointer.length > 0 ? pointer : rectIntersection(args);
  };
  const name = (id: UniqueIdentifier) => {
    const number = parseCardId(id).number;
    const issue = issues.find((i) => i.number === number);
    return issue ? `#${number} ${issue.title}` : `#${number}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active: a }) => `Picked up ${name(a.id)}, in ${cellLabel(parseCardId(a.id))}.`,
    onDragOver: ({ active: a, over }) =>
      over ? `${name(a.id)} is over ${cellLabel(cellOf(over.id))}.` : `${name(a.id)} is not over a column.`,
    onDragEnd: ({ active: a, over }) =>
      over
        ? `Moved ${name(a.id)} to ${cellLabel(cellOf(over.id))}.`
        : `${name(a.id)} was dropped outside the columns and stays where it was.`,
    onDragCancel: ({ active: a }) => `Moving ${name(a.id)} was cancelled.`,
  };

  return {
    lanes,
    loaded,
    total,
    truncated,
    collapsed,
    toggleLane,
    active,
    error,
    pending,
    quickAdd,
    dnd: {
      sensors,
      collisionDetection,
      autoScroll: edge.autoScroll,
      accessibility: { announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } },
      onDragStart,
      onDragEnd,
      onDragCancel,
    },
  };
}
