"use client";
/**
 * One board column and its cards. The header shows the column's exact issue count and
 * estimate sum (from the server, not the loaded cards); the list loads its next page when the
 * sentinel at its end scrolls into view, and a "Load more" button does the same for keyboard
 * users. A card is a plain list item (no role): its title link is the only link, and writers get
 * a separate "Move" button that carries dnd-kit's keyboard activator and ARIA attributes, so no
 * interactive element sits inside another (axe `nested-interactive`). Mouse and touch drag the
 * whole card (touch after a press delay, so a swipe scrolls the board).
 */
import { useEffect, useEffectEvent, useRef } from "react";
import Link from "next/link";
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/styles";
import { issueUrl, type Issue } from "./model";
import { colId, pointsText, type ColumnState } from "./board-model";
import { useQuickAdd } from "./board-quick-add";
import { Avatar, DueDate, LabelChip, PriorityIcon, ProgressRing, StatusIcon, priorityLabel } from "./ui";

type RepoRef = { id: string; owner: string; name: string };

export function Column(props: {
  status: string;
  label: string;
  column: ColumnState;
  repo: RepoRef;
  canWrite: boolean;
  activeId: number | null;
  loading: boolean;
  loadError: string | null;
  onLoadMore: () => void;
  /** quick-add (writers): creates an issue titled `title` in this column */
  onQuickAdd?: (title: string) => Promise<void>;
}) {
  const { status, label, column, repo, canWrite, activeId, loading, loadError, onLoadMore, onQuickAdd } = props;
  const quick = useQuickAdd(label, canWrite ? onQuickAdd : undefined);
  const { setNodeRef, isOver } = useDroppable({ id: colId(status), disabled: !canWrite });
  const sentinel = useRef<HTMLLIElement>(null);
  const more = column.nextCursor !== null;
  // the observer calls the latest onLoadMore without being recreated on every render
  const load = useEffectEvent(() => onLoadMore());
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !more || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load();
      },
      { rootMargin: "300px 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [more, column.nextCursor]);
  const remaining = Math.max(0, column.count - column.issues.length);
  return (
    <section
      className="flex w-72 shrink-0 flex-col rounded-lg border border-border bg-muted/70"
      data-testid="board-column"
      data-status={status}
      data-board-column={colId(status)}
      aria-labelledby={`column-${status}`}
    >
      <header className="flex items-center gap-2 px-3 py-2.5 text-sm">
        <StatusIcon status={status} />
        <h2 className="font-semibold text-foreground" id={`column-${status}`}>
          {label}
        </h2>
        <span
          className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground"
          data-testid="column-count"
          aria-label={`${column.count} issues`}
        >
          {column.count}
        </span>
        {column.estimate > 0 && (
          <span className="ml-auto text-xs text-muted-foreground" data-testid="column-estimate" title="Sum of estimates">
            {pointsText(column.estimate)}
          </span>
        )}
        {quick.button && <span className={cx(column.estimate > 0 ? "" : "ml-auto")}>{quick.button}</span>}
      </header>
      {quick.form}
      <SortableContext id={colId(status)} items={column.issues.map((i) => i.number)} strategy={verticalListSortingStrategy}>
        <ul
          ref={setNodeRef}
          className={cx("flex min-h-24 flex-1 flex-col gap-2 px-2 pb-2", isOver && "rounded-b-lg bg-primary-muted/60")}
          aria-label={`${label} cards`}
        >
          {column.issues.map((i) => (
            <SortableCard key={i.number} issue={i} repo={repo} canWrite={canWrite} dimmed={activeId === i.number} />
          ))}
          {column.issues.length === 0 && !more && (
            <li className="rounded-md border border-dashed border-input px-3 py-4 text-center text-xs text-subtle-foreground">No issues</li>
          )}
          {more && (
            <li ref={sentinel} className="flex flex-col items-stretch gap-1" data-testid="column-sentinel">
              <Button variant="ghost" size="sm" onClick={onLoadMore} disabled={loading} data-testid="column-load-more">
                {loading ? "Loading…" : `Load ${remaining > 0 ? `${remaining} more` : "more"}`}
                <span className="sr-only"> in {label}</span>
              </Button>
              {loadError && (
                <p className="px-1 text-xs text-danger" role="alert">
                  {loadError}
                </p>
              )}
            </li>
          )}
        </ul>
      </SortableContext>
    </section>
  );
}

/**
 * A card's Move button: the keyboard's way to pick the card up (dnd-kit's activator: Space or
 * Enter, arrows, Space again), with the card's number and title as its name. Used by the status
 * board's cards and the grouped board's (./board-grouped-column.tsx).
 */
export function MoveHandle({
  issue,
  activatorRef,
  attributes,
  onKeyDown,
}: {
  issue: Pick<Issue, "number" | "title">;
  activatorRef: (el: HTMLElement | null) => void;
  attributes: object;
  onKeyDown?: (e: unknown) => void;
}) {
  return (
    <button
      ref={activatorRef}
      type="button"
      {...attributes}
      onKeyDown={onKeyDown}
      aria-label={`Move #${issue.number} ${issue.title}`}
      className="-ml-1 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-subtle-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="card-handle"
    >
      <svg viewBox="0 0 16 16" className="h-4 w-4" aria-hidden="true" fill="currentColor">
        <circle cx="6" cy="4" r="1.2" />
        <circle cx="10" cy="4" r="1.2" />
        <circle cx="6" cy="8" r="1.2" />
        <circle cx="10" cy="8" r="1.2" />
        <circle cx="6" cy="12" r="1.2" />
        <circle cx="10" cy="12" r="1.2" />
      </svg>
    </button>
  );
}

function SortableCard({ issue, repo, canWrite, dimmed }: { issue: Issue; repo: RepoRef; canWrite: boolean; dimmed: boolean }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition } = useSortable({
    id: issue.number,
    disabled: !canWrite,
  });
  // mouse and touch start on the whole card; the keyboard only on the Move button (Enter on the
  // title link must open the issue, not pick the card up)
  const { onKeyDown, ...pointerListeners } = (listeners ?? {}) as Record<string, (e: unknown) => void>;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cx("rounded-md", canWrite && "cursor-grab touch-manipulation select-none active:cursor-grabbing", dimmed && "opacity-40")}
      data-testid="board-card"
      data-number={issue.number}
      data-board-card={issue.number}
      {...(canWrite ? pointerListeners : {})}
    >
      <CardBody
        issue={issue}
        repo={repo}
        handle={
          canWrite ? <MoveHandle issue={issue} activatorRef={setActivatorNodeRef} attributes={attributes} onKeyDown={onKeyDown} /> : null
        }
      />
    </li>
  );
}

/** The card's face (also drawn in the drag overlay, without a handle). */
export function CardBody({ issue, repo, overlay, handle }: { issue: Issue; repo: RepoRef; overlay?: boolean; handle?: React.ReactNode }) {
  return (
    <div
      className={cx(
        "rounded-md border border-border bg-card p-3 text-sm shadow-sm",
        overlay && "rotate-1 cursor-grabbing shadow-lg ring-1 ring-ring",
      )}
    >
      <div className="flex items-center gap-2 text-xs text-subtle-foreground">
        {handle}
        <span className="font-mono">#{issue.number}</span>
        <span title={`Priority: ${priorityLabel(issue.priority)}`} className="ml-auto" data-priority={issue.priority}>
          <PriorityIcon priority={issue.priority} />
        </span>
        {issue.assignee && <Avatar username={issue.assignee.username} />}
      </div>
      {overlay ? (
        <span className="mt-1 block font-medium text-foreground">{issue.title}</span>
      ) : (
        <Link
          href={issueUrl(repo.owner, repo.name, issue.number)}
          className="mt-1 block font-medium text-foreground hover:text-primary"
          draggable={false}
          data-testid="card-title"
          prefetch={false}
        >
          {issue.title}
        </Link>
      )}
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
