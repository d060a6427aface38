"use client";
/**
 * The issue list's bulk-edit bar (docs/ui.md "Issues"): a sticky toolbar over the rows while
 * issues are selected (or while a key opened a picker for the focused row), with "n selected"
 * and pickers for status, priority, assignee, labels (add / remove), estimate, due date,
 * project and cycle, plus Close (Reopen when all are closed). Each change is one
 * issues.bulkUpdate call for all the issues, then the server-rendered list refreshes.
 * The pickers show a value when every issue has it.
 */
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { buttonClass, cx } from "@/components/ui/styles";
import { DueDatePicker } from "./due-date-picker";
import { PRIORITIES, STATUSES, type Issue, type Label } from "./model";
import type { PickerName } from "./picker-keys";
import { AssigneePicker, EstimatePicker, LabelPicker, OptionPicker, type OpenControl, type Person } from "./pickers";
import { CyclePicker, ProjectPicker, type CycleRef, type ProjectRef } from "./plan-pickers";
import { PriorityIcon, StatusIcon } from "./ui";

/** What the bar offers: the repository's labels, assignable people, projects and cycles. */
export interface BulkData {
  repoId: string;
  labels: Label[];
  people: Person[];
  projects: ProjectRef[];
  cycles: CycleRef[];
}

type Patch = Parameters<ReturnType<typeof useTRPCClient>["issues"]["bulkUpdate"]["mutate"]>[0]["patch"];

/** The value every issue shares, or null. */
function common<T>(issues: Issue[], of: (i: Issue) => T): T | null {
  if (!issues.length) return null;
  const first = of(issues[0]);
  return issues.every((i) => of(i) === first) ? first : null;
}

export function BulkBar({
  data,
  issues,
  selectedCount,
  control,
  onClear,
  onDone,
}: {
  data: BulkData;
  /** The issues the bar edits (the selection, or the focused row). */
  issues: Issue[];
  selectedCount: number;
  control: (name: PickerName) => Required<OpenControl>;
  onClear: () => void;
  /** After a change was saved. */
  onDone: () => void;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const numbers = issues.map((i) => i.number);
  const apply = async (patch: Patch, what: string) => {
    setBusy(true);
    try {
      await client.issues.bulkUpdate.mutate({ repoId: data.repoId, numbers, patch });
      startTransition(() => router.refresh());
      onDone();
    } catch (e) {
      toast.error(`Could not change ${what}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const allClosed = issues.every((i) => i.state === "closed");
  const status = common(issues, (i) => i.status);
  const priority = common(issues, (i) => i.priority);
  const assigneeId = common(issues, (i) => i.assigneeId);
  const assignee = assigneeId ? (issues[0].assignee ?? null) : null;
  const estimate = common(issues, (i) => i.estimate);
  const dueDate = common(issues, (i) => i.dueDate);
  const projectId = common(issues, (i) => i.projectId);
  const cycleId = common(issues, (i) => i.cycleId);
  const onAll = data.labels.filter((l) => issues.every((i) => i.labels.some((x) => x.id === l.id))).map((l) => l.id);
  const count = selectedCount || issues.length;
  const cell = "w-40 min-w-0 shrink-0";

  return (
    <div
      role="toolbar"
      aria-label="Bulk edit"
      aria-busy={busy || undefined}
      className="sticky top-0 z-20 flex flex-wrap items-center gap-2 border-b border-border bg-card px-4 py-2 text-sm shadow-sm"
      data-testid="bulk-bar"
    >
      <span className="mr-1 font-medium text-foreground" data-testid="bulk-count" aria-live="polite">
        {selectedCount ? `${count} selected` : `#${numbers[0]}`}
      </span>
      <div className={cell}>
        <OptionPicker
          name="status"
          label="Status"
          options={STATUSES}
          value={status}
          placeholder="Status"
          icon={(k) => <StatusIcon status={k} />}
          onPick={(s) => void apply({ status: s }, "the status")}
          {...control("status")}
        />
      </div>
      <div className={cell}>
        <OptionPicker
          name="priority"
          label="Priority"
          options={PRIORITIES}
          value={priority}
          placeholder="Priority"
          icon={(k) => <PriorityIcon priority={k} />}
          onPick={(p) => void apply({ priority: p }, "the priority")}
          {...control("priority")}
        />
      </div>
      <div className={cell}>
        <AssigneePicker
          people={data.people}
          value={assignee}
          disabled={data.people.length === 0}
          onPick={(p) => void apply({ assigneeId: p?.id ?? null }, "the assignee")}
          {...control("assignee")}
        />
      </div>
      <div className={cell}>
        <LabelPicker
          labels={data.labels}
          selected={onAll}
          testId="labels-picker"
          onToggle={(l, on) => void apply(on ? { addLabels: [l.id] } : { removeLabels: [l.id] }, "the labels")}
          {...control("labels")}
        />
      </div>
      <div className={cell}>
        <EstimatePicker value={estimate} onPick={(e) => void apply({ estimate: e }, "the estimate")} {...control("estimate")} />
      </div>
      <div className={cell}>
        <DueDatePicker
          value={dueDate}
          state={allClosed ? "closed" : "open"}
          onChange={(d) => void apply({ dueDate: d }, "the due date")}
          {...control("due")}
        />
      </div>
      <div className={cell}>
        <ProjectPicker projects={data.projects} value={projectId} onPick={(id) => void apply({ projectId: id }, "the project")} />
      </div>
      <div className={cell}>
        <CyclePicker cycles={data.cycles} value={cycleId} onPick={(id) => void apply({ cycleId: id }, "the cycle")} />
      </div>
      <button
        type="button"
        className={buttonClass({ variant: "secondary", size: "sm" })}
        disabled={busy}
        onClick={() => void apply({ state: allClosed ? "open" : "closed" }, "the state")}
        data-testid="bulk-close"
      >
        {allClosed ? "Reopen" : "Close"}
      </button>
      {selectedCount > 0 && (
        <button
          type="button"
          className={cx(buttonClass({ variant: "ghost", size: "sm" }), "ml-auto")}
          onClick={onClear}
          aria-keyshortcuts="Escape"
          data-testid="bulk-clear"
        >
          Clear selection
        </button>
      )}
    </div>
  );
}
