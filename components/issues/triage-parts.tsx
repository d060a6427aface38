"use client";
/**
 * Small pieces of the triage page (./triage.tsx): key caps, the queue's list of shortcuts and the
 * notice that names the issue the last action was about.
 */
import Link from "next/link";
import { card, cx } from "@/components/ui/styles";
import { issueUrl } from "./model";
import type { TriageNotice, TriageRepo } from "./use-triage-queue";

/** A key cap; inside a button it is decorative (`decorative`: the button names its key in aria-keyshortcuts). */
export const Kbd = ({ children, decorative }: { children: React.ReactNode; decorative?: boolean }) => (
  <kbd
    aria-hidden={decorative || undefined}
    className="inline-flex min-w-5 items-center justify-center rounded border border-input bg-card px-1 font-mono text-xs text-muted-foreground shadow-[0_1px_0_var(--input)]"
  >
    {children}
  </kbd>
);

/** The keys of the queue (the writers' ones only with `canWrite`); `?` opens the site-wide sheet, which lists them too. */
export function TriageShortcuts({ canWrite }: { canWrite: boolean }) {
  return (
    <div className={cx(card, "px-4 py-3 text-sm text-muted-foreground")} data-testid="triage-shortcuts">
      <div className="mb-2 text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Keyboard shortcuts</div>
      <ul className="space-y-1.5">
        <li className="flex items-center gap-2">
          <Kbd>j</Kbd> <Kbd>k</Kbd> next / previous issue
        </li>
        {canWrite && (
          <>
            <li className="flex items-center gap-2">
              <Kbd>a</Kbd> accept (Backlog, or choose status and priority)
            </li>
            <li className="flex items-center gap-2">
              <Kbd>r</Kbd> decline, with a reason
            </li>
            <li className="flex items-center gap-2">
              <Kbd>d</Kbd> mark as duplicate of…
            </li>
            <li className="flex items-center gap-2">
              <Kbd>u</Kbd> undo the last action
            </li>
            <li className="flex items-center gap-2">
              <Kbd>s</Kbd> <Kbd>p</Kbd> <Kbd>Shift A</Kbd> <Kbd>l</Kbd> status (accepts), priority, assignee, labels
            </li>
            <li className="flex items-center gap-2">
              <Kbd>Enter</Kbd> confirm · <Kbd>Esc</Kbd> cancel
            </li>
          </>
        )}
        <li className="flex items-center gap-2">
          <Kbd>?</Kbd> hide these shortcuts
        </li>
      </ul>
    </div>
  );
}

/** What the last action did (a status region) and a link to the issue it left the queue with. */
export function TriageNoticeBar({ notice, repo }: { notice: TriageNotice; repo: TriageRepo }) {
  return (
    <div
      className="flex items-center gap-2 rounded-md border border-primary-border bg-primary-muted px-3 py-2 text-sm text-primary"
      role="status"
      data-testid="triage-notice"
    >
      {notice.text}.{" "}
      <Link href={issueUrl(repo.owner, repo.name, notice.number)} className="font-medium underline">
        Open #{notice.number}
      </Link>
    </div>
  );
}
