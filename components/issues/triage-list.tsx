"use client";
/**
 * The queue column of the triage page (./triage.tsx): a listbox of the issues awaiting triage,
 * oldest first, with the selected one marked; a click selects (the keys are handled by
 * ./use-triage-queue.ts).
 */
import { card, cx } from "@/components/ui/styles";
import type { Issue } from "./model";
import { PriorityIcon, StatusIcon, TimeAgo } from "./ui";

/**
 * `queue`: the issues; `selected`: the selected one (or null); `onSelect(n)`: the n-th row was
 * clicked; `rowRef(number)`: the ref callback of the row of issue `number`.
 */
export function TriageList({
  queue,
  selected,
  onSelect,
  rowRef,
}: {
  queue: Issue[];
  selected: Issue | null;
  onSelect: (index: number) => void;
  rowRef: (number: number) => (el: HTMLLIElement | null) => void;
}) {
  return (
    <div className={card}>
      <div className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2.5 text-sm">
        <StatusIcon status="triage" />
        <h1 className="font-semibold text-foreground">Triage</h1>
        <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground" data-testid="triage-count">
          {queue.length}
        </span>
      </div>
      {queue.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-subtle-foreground" data-testid="triage-empty">
          Triage is empty. New issues from people without write access land here.
        </p>
      ) : (
        <ul className="max-h-[60vh] divide-y divide-border overflow-y-auto" role="listbox" aria-label="Issues awaiting triage">
          {queue.map((i, n) => (
            <li
              key={i.id}
              ref={rowRef(i.number)}
              role="option"
              aria-selected={selected?.number === i.number}
              onClick={() => onSelect(n)}
              className={cx(
                "cursor-pointer border-l-2 px-4 py-2.5 text-sm",
                selected?.number === i.number ? "border-primary bg-primary-muted/60" : "border-transparent hover:bg-muted",
              )}
              data-testid="triage-item"
              data-number={i.number}
              data-selected={selected?.number === i.number ? "true" : undefined}
            >
              <div className="flex items-center gap-2">
                <PriorityIcon priority={i.priority} />
                <span className="min-w-0 flex-1 truncate font-medium text-foreground">{i.title}</span>
              </div>
              <div className="mt-0.5 pl-6 text-xs text-subtle-foreground">
                #{i.number} · {i.author?.username ?? "someone"} · <TimeAgo iso={i.createdAt} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
