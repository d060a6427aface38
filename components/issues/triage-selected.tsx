"use client";
/**
 * The selected issue of the triage page (./triage.tsx): title, author, priority and labels (for
 * writers as pickers: ./triage-properties.tsx), the writers' Accept / Decline / Duplicate buttons
 * (each names its key in aria-keyshortcuts), the open form (./triage-forms.tsx) and the issue's
 * description.
 */
import Link from "next/link";
import { button, card, cx } from "@/components/ui/styles";
import { IssueSearch } from "./issue-search";
import { IssueMarkdown } from "./markdown";
import { issueUrl, type Issue, type Label } from "./model";
import type { Person } from "./pickers";
import { AcceptForm, RejectForm } from "./triage-forms";
import { Kbd } from "./triage-parts";
import { TriageProperties } from "./triage-properties";
import { LabelChip, PriorityIcon, TimeAgo, priorityLabel } from "./ui";
import type { TriageRepo, TriageState } from "./use-triage-queue";

/**
 * `selected`: the issue shown; `state`: useTriageQueue's result (forms, actions); `canWrite` shows
 * the actions and the property pickers, which offer `labels` and `people` (the assignees).
 */
export function SelectedIssue({
  selected,
  state,
  repo,
  canWrite,
  labels,
  people,
}: {
  selected: Issue;
  state: TriageState;
  repo: TriageRepo;
  canWrite: boolean;
  labels: Label[];
  people: Person[];
}) {
  return (
    <div className={card} data-testid="triage-selected" data-number={selected.number}>
      <div className="border-b border-border px-5 py-4">
        <div className="flex flex-wrap items-start gap-3">
          <h2 className="min-w-0 flex-1 text-lg font-semibold text-foreground">
            <Link href={issueUrl(repo.owner, repo.name, selected.number)} className="hover:text-primary">
              {selected.title}
            </Link>{" "}
            <span className="font-normal text-subtle-foreground">#{selected.number}</span>
          </h2>
          {canWrite && (
            <div className="flex gap-2">
              <button
                type="button"
                className={button.primary}
                onClick={() => state.openMode("accept")}
                aria-keyshortcuts="a"
                data-testid="triage-accept"
              >
                Accept <Kbd decorative>a</Kbd>
              </button>
              <button
                type="button"
                className={button.dangerOutline}
                onClick={() => state.openMode("reject")}
                aria-keyshortcuts="r"
                data-testid="triage-reject"
              >
                Decline <Kbd decorative>r</Kbd>
              </button>
              <IssueSearch
                repoId={repo.id}
                exclude={[selected.number]}
                label={`Mark #${selected.number} as a duplicate of`}
                testId="triage-duplicate"
                nameTriggerByContent
                className={cx(button.secondary, "text-sm! text-foreground! hover:no-underline!")}
                open={state.dupOpen}
                onOpenChange={state.setDupOpen}
                onPick={(c) => void state.duplicate(c)}
              >
                Duplicate <Kbd decorative>d</Kbd>
              </IssueSearch>
            </div>
          )}
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-subtle-foreground">
          <span>
            opened by <strong className="font-medium text-muted-foreground">{selected.author?.username ?? "someone"}</strong>{" "}
            <TimeAgo iso={selected.createdAt} />
          </span>
          {!canWrite && (
            <>
              <span className="flex items-center gap-1">
                <PriorityIcon priority={selected.priority} className="h-3.5! w-3.5!" /> {priorityLabel(selected.priority)}
              </span>
              {selected.labels.map((l) => (
                <LabelChip key={l.id} label={l} />
              ))}
            </>
          )}
        </div>
        {canWrite && <TriageProperties selected={selected} state={state} repo={repo} labels={labels} people={people} />}
      </div>

      {state.mode === "accept" && (
        <AcceptForm
          status={state.status}
          onStatus={state.setStatus}
          priority={state.priority}
          onPriority={state.setPriority}
          error={state.error}
          busy={state.busy}
          onSubmit={() => void state.accept()}
          onCancel={state.closeMode}
        />
      )}
      {state.mode === "reject" && (
        <RejectForm
          reason={state.reason}
          onReason={state.setReason}
          error={state.error}
          busy={state.busy}
          onSubmit={() => void state.reject()}
          onCancel={state.closeMode}
        />
      )}
      <div className="px-5 py-4">
        {selected.body?.trim() ? (
          <IssueMarkdown source={selected.body} repo={repo} />
        ) : (
          <p className="text-sm italic text-subtle-foreground">No description provided.</p>
        )}
      </div>
    </div>
  );
}
