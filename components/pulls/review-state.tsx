/**
 * A reviewer's state as a small glyph with an accessible name (docs/pulls.md "Review"): approved
 * (check), changes requested (±), commented (speech bubble), pending (hollow dot: requested, no
 * verdict yet).
 */
import { cx } from "@/components/ui/styles";

export type ReviewerState = "approved" | "changes_requested" | "commented" | "pending";

const LABEL: Record<ReviewerState, string> = {
  approved: "Approved",
  changes_requested: "Changes requested",
  commented: "Commented",
  pending: "Awaiting review",
};

/** The state of a reviewer as the sidebar shows it: a pending request wins over an older verdict (re-requested). */
export function reviewerState(r: { requested: boolean; state: string | null; reviewedAt?: string | null }): ReviewerState {
  if (r.requested || !r.state) return "pending";
  return r.state === "approved" || r.state === "changes_requested" ? r.state : "commented";
}

export function ReviewStateIcon({ state, className }: { state: string; className?: string }) {
  const s: ReviewerState = state === "approved" || state === "changes_requested" || state === "commented" ? state : "pending";
  const common = {
    viewBox: "0 0 16 16",
    className: cx("inline-block h-4 w-4 shrink-0", className),
    role: "img",
    "aria-label": LABEL[s],
    "data-testid": "review-state-icon",
    "data-state": s,
  } as const;
  switch (s) {
    case "approved":
      return (
        <svg
          {...common}
          className={cx(common.className, "text-primary")}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M3 8.5l3 3 7-7" />
        </svg>
      );
    case "changes_requested":
      return (
        <svg
          {...common}
          className={cx(common.className, "text-danger")}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          strokeLinecap="round"
        >
          <path d="M8 2.5v6M5 5.5h6M5 12.5h6" />
        </svg>
      );
    case "commented":
      return (
        <svg
          {...common}
          className={cx(common.className, "text-subtle-foreground")}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinejoin="round"
        >
          <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" />
        </svg>
      );
    default:
      return (
        <svg {...common} className={cx(common.className, "text-warning")} fill="none" stroke="currentColor" strokeWidth="2">
          <circle cx="8" cy="8" r="3.5" />
        </svg>
      );
  }
}
