/**
 * Progress of a project or cycle (docs/ui.md "Pages"), from the exact counts of projects.list /
 * cycles.list: done / (total − canceled), as Linear shows it. Server-safe.
 */
import { cx } from "@/components/ui/styles";

export interface IssueCounts {
  total: number;
  open: number;
  done: number;
  canceled: number;
}

/** Percentage done, 0–100 (0 when nothing counts). */
export function percentDone(c: IssueCounts): number {
  const scope = c.total - c.canceled;
  return scope > 0 ? Math.round((c.done / scope) * 100) : 0;
}

/** A labelled progress bar with "done/scope · n%" beside it. */
export function Progress({ counts, label, className }: { counts: IssueCounts; label: string; className?: string }) {
  const pct = percentDone(counts);
  const scope = counts.total - counts.canceled;
  return (
    <div className={cx("flex items-center gap-3", className)} data-testid="progress" data-done={counts.done} data-total={counts.total}>
      <div
        className="h-2 min-w-16 flex-1 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label={label}
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuetext={`${counts.done} of ${scope} done`}
      >
        <div className="h-full rounded-full bg-primary" style={{ width: `${pct}%` }} />
      </div>
      <span className="shrink-0 text-xs tabular-nums text-muted-foreground" data-testid="progress-text">
        {counts.done}/{scope} done · {pct}%
      </span>
    </div>
  );
}
