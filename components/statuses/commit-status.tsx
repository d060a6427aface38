"use client";
/**
 * Commit status UI (issue #23; docs/ui.md "Commit statuses"): the state icon of a commit (✓ green
 * success, ✗ red failure or error, ● amber pending) that opens a popover listing its contexts, the
 * context list itself (also the merge box's checks section) and the checks summary line. Data is
 * svc's combined view (tRPC statuses.forCommits / statuses.combined: status contexts and check runs).
 */
import type { CombinedStatus, StatusContext } from "@/server/services/statuses/combined-status";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { CheckIcon, XIcon } from "@/components/ui/icons";
import { buttonClass, cx } from "@/components/ui/styles";

type State = StatusContext["state"];

const TONE: Record<State, string> = {
  success: "text-green-700 dark:text-green-400",
  failure: "text-danger",
  error: "text-danger",
  pending: "text-warning",
};
const WORD: Record<State, string> = { success: "succeeded", failure: "failed", error: "errored", pending: "pending" };

/** The state's icon: ✓, ✗ or ● (decorative; the caller names the state in text or a label). */
export function StateIcon({ state, className }: { state: State; className?: string }) {
  return (
    <span className={cx("inline-flex h-4 w-4 shrink-0 items-center justify-center", TONE[state], className)} aria-hidden="true">
      {state === "success" ? <CheckIcon /> : state === "pending" ? <span className="h-2 w-2 rounded-full bg-current" /> : <XIcon />}
    </span>
  );
}

/** "2 successful, 1 failing and 1 pending checks" (only the non-zero parts; "No checks" for none). */
export function checksSummary(counts: CombinedStatus["counts"]): string {
  const parts = [
    counts.success && `${counts.success} successful`,
    counts.failure && `${counts.failure} failing`,
    counts.pending && `${counts.pending} pending`,
  ].filter(Boolean) as string[];
  if (!parts.length) return "No checks";
  const total = counts.success + counts.failure + counts.pending;
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
  return `${list} check${total === 1 ? "" : "s"}`;
}

/** Only http(s) links are rendered (the REST API refuses others; this guards older rows too). */
function safeUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** Every context: state icon, name, description and a "Details" link (target_url / details_url). */
export function StatusContextList({ contexts, className }: { contexts: StatusContext[]; className?: string }) {
  return (
    <ul className={cx("divide-y divide-border", className)} data-testid="status-contexts">
      {contexts.map((c) => {
        const href = safeUrl(c.targetUrl);
        return (
          <li
            key={`${c.kind}:${c.context}`}
            className="flex items-center gap-2 px-3 py-2 text-sm"
            data-testid="status-context"
            data-context={c.context}
            data-state={c.state}
          >
            <StateIcon state={c.state} />
            <span className="sr-only">{WORD[c.state]}:</span>
            <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
              <span className="font-medium text-foreground">{c.context}</span>
              {c.description && <span className="text-muted-foreground"> — {c.description}</span>}
            </span>
            {href && (
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="shrink-0 text-xs text-primary underline underline-offset-2"
                data-testid="status-details"
              >
                Details
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The icon of a commit's combined state beside a commit (history, a pull request's commits, the
 * branch switcher); a button that opens the list of contexts. Nothing for a commit without contexts.
 */
export function CommitStatusIcon({ status }: { status: CombinedStatus | undefined }) {
  if (!status || status.contexts.length === 0) return null;
  const label = `${checksSummary(status.counts)}: ${status.state === "success" ? "all passed" : status.state === "failure" ? "some failed" : "some pending"}`;
  return (
    <Popover>
      <PopoverTrigger
        className={cx(buttonClass({ variant: "ghost" }), "h-6 w-6 shrink-0")}
        aria-label={label}
        title={label}
        data-testid="commit-status"
        data-state={status.state}
      >
        <StateIcon state={status.state} />
      </PopoverTrigger>
      <PopoverContent className="w-80 p-0" data-testid="commit-status-popover">
        <p className="border-b border-border px-3 py-2 text-xs font-medium text-muted-foreground">{checksSummary(status.counts)}</p>
        <StatusContextList contexts={status.contexts} />
      </PopoverContent>
    </Popover>
  );
}

/**
 * A commit's combined state as a mark inside another control (a branch switcher's option, where a
 * button may not nest): the icon with the state in words for screen readers and in its title.
 * Nothing for a commit without contexts.
 */
export function CommitStateMark({ status }: { status: CombinedStatus | undefined }) {
  if (!status || status.contexts.length === 0) return null;
  const label = `checks ${WORD[status.state]}: ${checksSummary(status.counts)}`;
  return (
    <span className="inline-flex shrink-0" title={label} data-testid="branch-status" data-state={status.state}>
      <StateIcon state={status.state} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The merge box's checks section: the summary line and every context. Nothing without contexts. */
export function ChecksSection({ checks }: { checks: CombinedStatus | null | undefined }) {
  if (!checks || checks.contexts.length === 0) return null;
  return (
    <div className="border-b border-border" data-testid="merge-checks" data-state={checks.state}>
      <p className="flex items-center gap-2 px-4 pt-3 pb-1 text-sm font-medium text-foreground" data-testid="checks-summary">
        <StateIcon state={checks.state} />
        {checksSummary(checks.counts)}
      </p>
      <StatusContextList contexts={checks.contexts} className="px-1 pb-1" />
    </div>
  );
}
