/** Small presentational pieces of the issue pages (server- and client-safe: no hooks). */
import Link from "next/link";
import { cx } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";
import { DEFAULT_STATUSES, statusDef } from "@/lib/issues/model";
import { dueState, formatDueDate, priorityLabel, statusLabel, type Label } from "./model";

type IconProps = { className?: string };
const iconBase = "inline-block h-4 w-4 shrink-0";

/** Linear-style status glyph: dashed circle (triage/backlog), ring, half, check, cross. */
export function StatusIcon({ status, className }: { status: string } & IconProps) {
  const def = statusDef(status) ?? DEFAULT_STATUSES[1];
  const c = def.color;
  const common = { viewBox: "0 0 16 16", className: cx(iconBase, className), "aria-hidden": true as const };
  switch (def.category) {
    case "triage":
      return (
        <svg {...common} fill="none">
          <circle cx="8" cy="8" r="6" stroke={c} strokeWidth="1.6" />
          <path d="M5.5 8h5M8 5.5v5" stroke={c} strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      );
    case "backlog":
      return (
        <svg {...common} fill="none">
          <circle cx="8" cy="8" r="6" stroke={c} strokeWidth="1.6" strokeDasharray="2.2 2" />
        </svg>
      );
    case "unstarted":
      return (
        <svg {...common} fill="none">
          <circle cx="8" cy="8" r="6" stroke={c} strokeWidth="1.6" />
        </svg>
      );
    case "started": {
      const review = status === "in_review";
      return (
        <svg {...common} fill="none">
          <circle cx="8" cy="8" r="6" stroke={c} strokeWidth="1.6" />
          <path d={review ? "M8 4a4 4 0 1 1-3.46 6A4 4 0 0 1 8 4Z M8 8V4" : "M8 4a4 4 0 0 1 0 8Z"} fill={c} />
        </svg>
      );
    }
    case "completed":
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="7" fill={c} />
          <path d="M5 8.2l2 2 4-4.2" stroke="#fff" strokeWidth="1.6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    default:
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="7" fill={c} />
          <path d="M5.6 5.6l4.8 4.8M10.4 5.6l-4.8 4.8" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      );
  }
}

/** Linear-style priority glyph: bars for low/medium/high, an exclamation box for urgent, dashes for none. */
export function PriorityIcon({ priority, className }: { priority: string } & IconProps) {
  const common = { viewBox: "0 0 16 16", className: cx(iconBase, className), "aria-hidden": true as const };
  if (priority === "urgent") {
    return (
      <svg {...common}>
        <rect x="1.5" y="1.5" width="13" height="13" rx="3" fill="#f97316" />
        <path d="M8 4.5v4.5" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
        <circle cx="8" cy="11.5" r="1" fill="#fff" />
      </svg>
    );
  }
  if (priority === "none" || !["high", "medium", "low"].includes(priority)) {
    return (
      <svg {...common} fill="#94a3b8">
        <rect x="2" y="7.2" width="3" height="1.6" rx=".5" />
        <rect x="6.5" y="7.2" width="3" height="1.6" rx=".5" />
        <rect x="11" y="7.2" width="3" height="1.6" rx=".5" />
      </svg>
    );
  }
  const filled = priority === "high" ? 3 : priority === "medium" ? 2 : 1;
  return (
    <svg {...common}>
      {[0, 1, 2].map((i) => (
        <rect key={i} x={2 + i * 4.5} y={10 - i * 3.5} width="3" height={4 + i * 3.5} rx=".8" fill={i < filled ? "#475569" : "#cbd5e1"} />
      ))}
    </svg>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full border border-border bg-card px-2 py-0.5 text-xs font-medium text-muted-foreground"
      data-testid="status-badge"
    >
      <StatusIcon status={status} className="h-3.5! w-3.5!" /> {statusLabel(status)}
    </span>
  );
}

/** Open (green) / Closed (purple) pill, as GitHub shows it. */
export function StateBadge({ state, status }: { state: string; status: string }) {
  const closed = state === "closed";
  const canceled = status === "canceled";
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-medium",
        !closed ? "bg-primary text-primary-foreground" : canceled ? "bg-slate-600 text-white" : "bg-violet-700 text-white",
      )}
      data-testid="state-badge"
    >
      {!closed ? "Open" : canceled ? "Closed as not planned" : "Closed"}
    </span>
  );
}

/** Black or white text, whichever reads better on `hex`. */
function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return "#0f172a";
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#0f172a" : "#ffffff";
}

export function LabelChip({ label, href }: { label: Pick<Label, "name" | "color" | "description">; href?: string }) {
  const style = { backgroundColor: label.color, color: textOn(label.color) };
  const cls = "inline-flex max-w-[12rem] items-center truncate rounded-full px-2 py-0.5 text-xs font-medium leading-4";
  if (href) {
    return (
      <Link
        href={href}
        className={cx(cls, "hover:opacity-90")}
        style={style}
        title={label.description ?? undefined}
        data-testid="label-chip"
      >
        {label.name}
      </Link>
    );
  }
  return (
    <span className={cls} style={style} title={label.description ?? undefined} data-testid="label-chip">
      {label.name}
    </span>
  );
}

/** Users' initials avatars are the one shared component (same colour everywhere). */
export { Avatar } from "@/components/ui/avatar";

export function DueDate({ issue, className }: { issue: { state: string; dueDate: string | null }; className?: string }) {
  if (!issue.dueDate) return null;
  const s = dueState(issue);
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 text-xs",
        s === "overdue" ? "font-medium text-danger" : s === "soon" ? "text-warning" : "text-subtle-foreground",
        className,
      )}
      title={s === "overdue" ? `Overdue: due ${issue.dueDate}` : `Due ${issue.dueDate}`}
      data-testid="due-date"
      data-due={s}
    >
      <CalendarIcon /> {formatDueDate(issue.dueDate)}
    </span>
  );
}

export function ProgressRing({ percentage, count }: { percentage: number; count: number }) {
  const r = 6;
  const c = 2 * Math.PI * r;
  return (
    <span
      className="inline-flex items-center gap-1 text-xs text-subtle-foreground"
      title={`${count} sub-issue${count === 1 ? "" : "s"}, ${percentage}% done`}
      data-testid="sub-issue-progress"
    >
      <svg viewBox="0 0 16 16" className="h-3.5 w-3.5 -rotate-90" aria-hidden="true">
        <circle cx="8" cy="8" r={r} fill="none" stroke="#e2e8f0" strokeWidth="2.5" />
        <circle cx="8" cy="8" r={r} fill="none" stroke="#10b981" strokeWidth="2.5" strokeDasharray={`${(percentage / 100) * c} ${c}`} />
      </svg>
      {percentage}%
    </span>
  );
}

export function ProgressBar({ percentage }: { percentage: number }) {
  return (
    <div
      className="h-1.5 w-full overflow-hidden rounded-full bg-accent"
      role="progressbar"
      aria-valuenow={percentage}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="h-full rounded-full bg-primary transition-all" style={{ width: `${percentage}%` }} />
    </div>
  );
}

export function CalendarIcon({ className }: IconProps) {
  return (
    <svg
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      className={cx("inline-block h-3.5 w-3.5 shrink-0", className)}
      aria-hidden="true"
    >
      <rect x="2" y="3" width="12" height="11" rx="2" />
      <path d="M2 6.5h12M5.5 1.5v3M10.5 1.5v3" strokeLinecap="round" />
    </svg>
  );
}

export function IssueOpenedIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M8 9.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3Z" />
      <path d="M8 0a8 8 0 1 1 0 16A8 8 0 0 1 8 0ZM1.5 8a6.5 6.5 0 1 0 13 0 6.5 6.5 0 0 0-13 0Z" />
    </svg>
  );
}

export function IssueClosedIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M11.28 6.78a.75.75 0 0 0-1.06-1.06L7.25 8.69 5.78 7.22a.75.75 0 0 0-1.06 1.06l2 2a.75.75 0 0 0 1.06 0l3.5-3.5Z" />
      <path d="M16 8A8 8 0 1 1 0 8a8 8 0 0 1 16 0Zm-1.5 0a6.5 6.5 0 1 0-13 0 6.5 6.5 0 0 0 13 0Z" />
    </svg>
  );
}

export function CommentIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M2.5 3.5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v6.5a1 1 0 0 1-1 1H7l-3 2.5V11h-.5a1 1 0 0 1-1-1Z" strokeLinejoin="round" />
    </svg>
  );
}

export { priorityLabel, statusLabel };

/**
 * "3 minutes ago" with the full date as title. Rendered on the server and again in the browser,
 * which may round differently a few seconds later: the text mismatch is expected, not an error.
 */
export function TimeAgo({ iso, prefix = "" }: { iso: string; prefix?: string }) {
  return (
    <time dateTime={iso} title={fullDate(iso)} suppressHydrationWarning>
      {prefix}
      {relativeTime(iso)}
    </time>
  );
}
