"use client";
/**
 * A cell of the grouped board (./board-grouped.tsx): a column, in a swimlane or not, with its
 * cards (each draggable with the mouse, touch after a 250 ms hold, or the keyboard from its Move
 * button) and the quick-add "+".
 */
import { useDraggable, useDroppable } from "@dnd-kit/core";
import { cx } from "@/components/ui/styles";
import type { Issue } from "./model";
import { CardBody, MoveHandle } from "./board-column";
import type { Group, GroupField } from "./board-group";
import { useQuickAdd } from "./board-quick-add";
import { cellCardId, cellId } from "./use-board-grouped";
import { PriorityIcon } from "./ui";

type RepoRef = { id: string; owner: string; name: string };

/**
 * One cell of the grouped board: column `group` (in lane `lane`, "" without lanes; `laneLabel`
 * names it for screen readers), its cards and, for writers, its quick-add.
 */
export function GroupColumn(props: {
  group: Group;
  lane: string;
  laneLabel: string;
  field: GroupField;
  repo: RepoRef;
  canWrite: boolean;
  activeNumber: number | null;
  onQuickAdd: (title: string) => Promise<void>;
}) {
  const { group, lane, laneLabel, field, repo, canWrite, activeNumber, onQuickAdd } = props;
  const { setNodeRef, isOver } = useDroppable({ id: cellId(lane, group.key), disabled: !canWrite });
  const name = lane ? `${group.label} in ${laneLabel}` : group.label;
  const quick = useQuickAdd(name, canWrite ? onQuickAdd : undefined);
  const headingId = `column-${field}-${lane}-${group.key}`;
  const Heading = lane ? "h3" : "h2";
  return (
    <section
      className="flex w-72 shrink-0 flex-col rounded-lg border border-border bg-muted/70"
      data-testid="board-column"
      data-group-key={group.key}
      data-lane-key={lane || undefined}
      data-board-column={cellId(lane, group.key)}
      aria-labelledby={headingId}
    >
      <header className="flex items-center gap-2 px-3 py-2.5 text-sm">
        {field === "priority" && <PriorityIcon priority={group.key} />}
        <Heading className="truncate font-semibold text-foreground" id={headingId}>
          {group.label}
          {lane && <span className="sr-only"> in {laneLabel}</span>}
        </Heading>
        <span
          className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground"
          data-testid="column-count"
          aria-label={`${group.issues.length} issues`}
        >
          {group.issues.length}
        </span>
        {quick.button && <span className="ml-auto">{quick.button}</span>}
      </header>
      {quick.form}
      <ul
        ref={setNodeRef}
        className={cx("flex min-h-24 flex-1 flex-col gap-2 px-2 pb-2", isOver && "rounded-b-lg bg-primary-muted/60")}
        aria-label={`${name} cards`}
      >
        {group.issues.map((i) => (
          <GroupCard
            key={i.number}
            issue={i}
            lane={lane}
            groupKey={group.key}
            repo={repo}
            canWrite={canWrite}
            dimmed={activeNumber === i.number}
          />
        ))}
        {group.issues.length === 0 && (
          <li className="rounded-md border border-dashed border-input px-3 py-4 text-center text-xs text-subtle-foreground">No issues</li>
        )}
      </ul>
    </section>
  );
}

function GroupCard({
  issue,
  lane,
  groupKey,
  repo,
  canWrite,
  dimmed,
}: {
  issue: Issue;
  lane: string;
  groupKey: string;
  repo: RepoRef;
  canWrite: boolean;
  dimmed: boolean;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef } = useDraggable({
    id: cellCardId(lane, groupKey, issue.number),
    disabled: !canWrite,
  });
  // as on the status board: mouse and touch on the whole card, the keyboard on the Move button
  const { onKeyDown, ...pointerListeners } = (listeners ?? {}) as Record<string, (e: unknown) => void>;
  return (
    <li
      ref={setNodeRef}
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
