"use client";
/**
 * Kanban board: one column per status (all of them, empty ones too), cards in their persisted
 * board order. Writers drag cards between and within columns with the mouse, touch or the
 * keyboard (focus a card, Space to pick up, arrows to move, Space to drop, Escape to cancel);
 * the move is shown at once and sent as issues.move {status, beforeNumber | afterNumber}; a
 * failure puts the board back as it was and shows the server's message.
 */
import { useMemo, useRef, useState } from "react";
import Link from "next/link";
import {
  DndContext, DragOverlay, KeyboardSensor, PointerSensor, closestCorners, useDroppable, useSensor, useSensors,
  type DragEndEvent, type DragOverEvent, type DragStartEvent, type KeyboardCoordinateGetter, type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { FormError } from "@/components/ui/form-error";
import { cx } from "@/components/ui/styles";
import { STATUSES, issueUrl, moveAnchor, type Grouped, type Issue } from "./model";
import { Avatar, DueDate, LabelChip, PriorityIcon, ProgressRing, StatusIcon, priorityLabel } from "./ui";

type Columns = Record<string, Issue[]>;
type RepoRef = { id: string; owner: string; name: string };

const colId = (status: string) => `col:${status}`;

function toColumns(grouped: Grouped): Columns {
  const out: Columns = {};
  for (const s of STATUSES) out[s.key] = [...(((grouped as Record<string, Issue[]>)[s.key]) ?? [])];
  return out;
}

/** The column holding `id` (a card number or a column id). */
function columnOf(columns: Columns, id: UniqueIdentifier): string | undefined {
  if (typeof id === "string" && id.startsWith("col:")) return id.slice(4);
  return Object.keys(columns).find((k) => columns[k].some((i) => i.number === id));
}

export function Board({ repo, grouped, canWrite }: { repo: RepoRef; grouped: Grouped; canWrite: boolean }) {
  const client = useTRPCClient();
  const [columns, setColumns] = useState<Columns>(() => toColumns(grouped));
  const [snapshot, setSnapshot] = useState<Columns | null>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const columnsRef = useRef(columns);
  columnsRef.current = columns;
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
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }));
  const active = useMemo(() => (activeId === null ? null : Object.values(columns).flat().find((i) => i.number === activeId) ?? null), [activeId, columns]);

  const onDragStart = (e: DragStartEvent) => {
    setError(null);
    setSnapshot(columns);
    setActiveId(Number(e.active.id));
  };

  // moving across columns while dragging, so the card shows where it will land
  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const from = columnOf(columns, active.id);
    const to = columnOf(columns, over.id);
    if (!from || !to || from === to) return;
    setColumns((cols) => {
      const card = cols[from].find((i) => i.number === active.id);
      if (!card) return cols;
      const target = cols[to];
      const overIndex = target.findIndex((i) => i.number === over.id);
      const below = over.rect && active.rect.current.translated ? active.rect.current.translated.top > over.rect.top + over.rect.height / 2 : false;
      const index = overIndex < 0 ? target.length : overIndex + (below ? 1 : 0);
      return {
        ...cols,
        [from]: cols[from].filter((i) => i.number !== active.id),
        [to]: [...target.slice(0, index), { ...card, status: to }, ...target.slice(index)],
      };
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const before = snapshot;
    setActiveId(null);
    setSnapshot(null);
    if (!before) return;
    const number = Number(active.id);
    const to = over ? columnOf(columns, over.id) : undefined;
    if (!to) {
      setColumns(before);
      return;
    }
    let next = columns;
    const oldIndex = next[to].findIndex((i) => i.number === number);
    const overIndex = next[to].findIndex((i) => i.number === over!.id);
    if (oldIndex >= 0 && overIndex >= 0 && oldIndex !== overIndex) next = { ...next, [to]: arrayMove(next[to], oldIndex, overIndex) };
    setColumns(next);
    const from = columnOf(before, number);
    const index = next[to].findIndex((i) => i.number === number);
    const was = from ? before[from].findIndex((i) => i.number === number) : -1;
    if (from === to && index === was) return;
    const others = next[to].filter((i) => i.number !== number).map((i) => i.number);
    setPending((p) => p + 1);
    client.issues.move
      .mutate({ repoId: repo.id, number, status: to, ...moveAnchor(others, index) })
      .then((issue) => setColumns((cols) => ({ ...cols, [to]: cols[to].map((i) => (i.number === number ? (issue as Issue) : i)) })))
      .catch((e) => {
        setColumns(before);
        setError(`Could not move #${number}: ${errorMessage(e)}`);
      })
      .finally(() => setPending((p) => p - 1));
  };

  const onDragCancel = () => {
    if (snapshot) setColumns(snapshot);
    setSnapshot(null);
    setActiveId(null);
  };

  return (
    <div data-testid="board" data-pending={pending}>
      {error && (
        <div className="mb-3" data-testid="board-error">
          <FormError message={error} />
        </div>
      )}
      {!canWrite && <p className="mb-3 text-sm text-slate-500" data-testid="board-readonly">You can view this board; moving cards needs write access.</p>}
      {canWrite && (
        <p className="sr-only" id="board-help">
          To move a card with the keyboard, focus it, press Space, use the arrow keys, then Space to drop or Escape to cancel.
        </p>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCorners} onDragStart={onDragStart} onDragOver={onDragOver} onDragEnd={onDragEnd} onDragCancel={onDragCancel}>
        <div className="-mx-4 flex gap-3 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0">
          {STATUSES.map((s) => (
            <Column key={s.key} status={s.key} label={s.label} issues={columns[s.key]} repo={repo} canWrite={canWrite} activeId={activeId} />
          ))}
        </div>
        <DragOverlay>{active ? <CardBody issue={active} repo={repo} overlay /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}

function Column({ status, label, issues, repo, canWrite, activeId }: { status: string; label: string; issues: Issue[]; repo: RepoRef; canWrite: boolean; activeId: number | null }) {
  const { setNodeRef, isOver } = useDroppable({ id: colId(status), disabled: !canWrite });
  return (
    <section className="flex w-72 shrink-0 flex-col rounded-lg border border-slate-200 bg-slate-100/70" data-testid="board-column" data-status={status} aria-label={`${label} column`}>
      <header className="flex items-center gap-2 px-3 py-2.5 text-sm">
        <StatusIcon status={status} />
        <h2 className="font-semibold text-slate-800">{label}</h2>
        <span className="rounded-full bg-slate-200 px-1.5 text-xs font-medium text-slate-600" data-testid="column-count">
          {issues.length}
        </span>
      </header>
      <SortableContext id={colId(status)} items={issues.map((i) => i.number)} strategy={verticalListSortingStrategy}>
        <ul ref={setNodeRef} className={cx("flex min-h-24 flex-1 flex-col gap-2 px-2 pb-2", isOver && "rounded-b-lg bg-emerald-50/60")}>
          {issues.map((i) => (
            <SortableCard key={i.number} issue={i} repo={repo} canWrite={canWrite} dimmed={activeId === i.number} />
          ))}
          {issues.length === 0 && <li className="rounded-md border border-dashed border-slate-300 px-3 py-4 text-center text-xs text-slate-400">No issues</li>}
        </ul>
      </SortableContext>
    </section>
  );
}

function SortableCard({ issue, repo, canWrite, dimmed }: { issue: Issue; repo: RepoRef; canWrite: boolean; dimmed: boolean }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id: issue.number, disabled: !canWrite });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cx("rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500", canWrite && "cursor-grab touch-none active:cursor-grabbing", dimmed && "opacity-40")}
      data-testid="board-card"
      data-number={issue.number}
      {...(canWrite ? { ...attributes, ...listeners, "aria-describedby": "board-help" } : {})}
    >
      <CardBody issue={issue} repo={repo} />
    </li>
  );
}

function CardBody({ issue, repo, overlay }: { issue: Issue; repo: RepoRef; overlay?: boolean }) {
  return (
    <div className={cx("rounded-md border border-slate-200 bg-white p-3 text-sm shadow-sm", overlay && "rotate-1 cursor-grabbing shadow-lg ring-1 ring-emerald-400")}>
      <div className="flex items-center gap-2 text-xs text-slate-500">
        <span className="font-mono">#{issue.number}</span>
        <span title={`Priority: ${priorityLabel(issue.priority)}`} className="ml-auto" data-priority={issue.priority}>
          <PriorityIcon priority={issue.priority} />
        </span>
        {issue.assignee && <Avatar username={issue.assignee.username} />}
      </div>
      <Link href={issueUrl(repo.owner, repo.name, issue.number)} className="mt-1 block font-medium text-slate-900 hover:text-emerald-700" draggable={false} data-testid="card-title">
        {issue.title}
      </Link>
      {(issue.labels.length > 0 || issue.dueDate || issue.subIssueCount > 0) && (
        <div className="mt-2 flex flex-wrap items-center gap-1">
          {issue.labels.map((l) => (
            <LabelChip key={l.id} label={l} />
          ))}
          <span className="ml-auto flex items-center gap-2">
            {issue.subIssueCount > 0 && <ProgressRing percentage={issue.subIssueProgress} count={issue.subIssueCount} />}
            <DueDate issue={issue} />
          </span>
        </div>
      )}
    </div>
  );
}
