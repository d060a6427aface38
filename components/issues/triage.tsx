"use client";
/**
 * Triage queue (issues.listTriage, oldest first) with keyboard shortcuts: j / k move, a accepts
 * (into Backlog, or a chosen status and priority), r rejects (asks for the required reason),
 * d marks as a duplicate (issue search), u undoes the last action, and s / p / Shift+A / l open
 * the status (accept into), priority, assignee and label pickers (./triage-properties.tsx); `?`
 * opens the site-wide shortcut sheet, which lists these keys too. Every action shows a toast with **Undo**, which puts
 * the issue back into triage through the existing procedures (./triage-undo.ts). Readers see the
 * queue without the actions. State and keys: ./use-triage-queue.ts.
 */
import { useRef } from "react";
import { card, cx } from "@/components/ui/styles";
import type { Issue, Label } from "./model";
import type { Person } from "./pickers";
import { TriageList } from "./triage-list";
import { TriageNoticeBar, TriageShortcuts } from "./triage-parts";
import { SelectedIssue } from "./triage-selected";
import { useTriageQueue, type TriageRepo } from "./use-triage-queue";

/**
 * The triage page's body: `initial` is the queue as the server read it; `canWrite` enables the
 * actions and the property pickers, which offer `labels` and `people` (the assignees).
 */
export function TriageQueue({
  repo,
  initial,
  canWrite,
  labels = [],
  people = [],
}: {
  repo: TriageRepo;
  initial: Issue[];
  canWrite: boolean;
  labels?: Label[];
  people?: Person[];
}) {
  const keysRef = useRef<HTMLDivElement>(null);
  const state = useTriageQueue({ repo, initial, canWrite, keysRef });
  return (
    <div className="grid gap-6 lg:grid-cols-[22rem_1fr]" data-testid="triage" ref={keysRef}>
      <div className="space-y-3">
        <TriageList queue={state.queue} selected={state.selected} onSelect={state.select} rowRef={state.rowRef} />
        <TriageShortcuts canWrite={canWrite} />
      </div>

      <div className="min-w-0 space-y-3">
        {state.notice && <TriageNoticeBar notice={state.notice} repo={repo} />}
        {!canWrite && (
          <p className="text-sm text-subtle-foreground">You can follow the queue; accepting and declining issues needs write access.</p>
        )}
        {state.selected ? (
          <SelectedIssue selected={state.selected} state={state} repo={repo} canWrite={canWrite} labels={labels} people={people} />
        ) : (
          <div className={cx(card, "px-5 py-12 text-center text-sm text-subtle-foreground")}>Nothing to triage.</div>
        )}
      </div>
    </div>
  );
}
