"use client";
/**
 * The issue page's sidebar: status, priority, labels, assignee, due date, estimate (pickers from
 * ./pickers.tsx and ./due-date-picker.tsx, changed optimistically by the page's
 * useOptimisticIssue), then parent, sub-issues and relations (./issue-relations.tsx). On phones
 * it comes before the description, so the properties are next to the title (docs/ui.md "Issues").
 */
import { useTRPCClient } from "@/components/trpc/provider";
import { DueDatePicker } from "./due-date-picker";
import { ParentSection, RelationsSection, SubIssuesSection } from "./issue-relations";
import { Section } from "./issue-section";
import { PRIORITIES, STATUSES, type Issue, type IssueDetail, type Label } from "./model";
import { AssigneePicker, EstimatePicker, LabelPicker, OptionPicker, labelColorFor } from "./pickers";
import { LabelChip, PriorityIcon, StatusIcon } from "./ui";
import type { Assignee, Me, RepoRef, Run, Titles } from "./issue-shared";
import type { useOptimisticIssue } from "./use-optimistic-issue";

type Change = ReturnType<typeof useOptimisticIssue>["change"];

/** The sidebar for `issue` (the optimistic view); property pickers call `change`, the rest `run`. Readers get the same sections read-only. */
export function Sidebar({
  repo,
  issue,
  subIssues,
  labels,
  titles,
  me,
  canWrite,
  run,
  change,
  assignees,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  subIssues: Issue[];
  labels: Label[];
  titles: Titles;
  me: Me;
  canWrite: boolean;
  run: Run;
  change: Change;
  assignees: Assignee[];
}) {
  const client = useTRPCClient();
  const base = { repoId: repo.id, number: issue.number };
  const selectedLabels = issue.labels.map((l) => l.id);
  const setAssignee = (person: Assignee | { id: string; username: string } | null) =>
    change(
      {
        assigneeId: person?.id ?? null,
        assignee: person ? { id: person.id, username: person.username, name: "name" in person ? person.name : null } : null,
      },
      () => client.issues.update.mutate({ issueId: issue.id, assigneeId: person?.id ?? null }),
      "the assignee",
    );
  return (
    <aside className="order-1 min-w-0 space-y-3 text-sm lg:order-2" data-testid="issue-sidebar">
      <Section title="Status" testId="sidebar-status">
        <OptionPicker
          name="status"
          label="Status"
          options={STATUSES}
          value={issue.status}
          icon={(key) => <StatusIcon status={key} />}
          disabled={!canWrite}
          onPick={(status) =>
            status !== issue.status && void change({ status }, () => client.issues.updateStatus.mutate({ ...base, status }), "the status")
          }
        />
      </Section>
      <Section title="Priority" testId="sidebar-priority">
        <OptionPicker
          name="priority"
          label="Priority"
          options={PRIORITIES}
          value={issue.priority}
          icon={(key) => <PriorityIcon priority={key} />}
          disabled={!canWrite}
          onPick={(priority) =>
            priority !== issue.priority &&
            void change({ priority }, () => client.issues.updatePriority.mutate({ ...base, priority }), "the priority")
          }
        />
      </Section>
      <Section title="Labels" testId="sidebar-labels">
        {canWrite ? (
          <LabelPicker
            labels={labels}
            selected={selectedLabels}
            testId="labels-picker"
            onCreate={async (name) => {
              await run(async () => {
                const label = await client.issues.createLabel.mutate({ repoId: repo.id, name, color: labelColorFor(name) });
                await change(
                  (v) => ({ labels: [...v.labels, label] }),
                  () => client.issues.addLabel.mutate({ ...base, labelId: label.id }),
                  "the labels",
                );
              });
            }}
            onToggle={(l, on) =>
              void change(
                (v) => ({
                  labels: on
                    ? [...v.labels.filter((x) => x.id !== l.id), l].sort((a, b) => a.name.localeCompare(b.name))
                    : v.labels.filter((x) => x.id !== l.id),
                }),
                () =>
                  on
                    ? client.issues.addLabel.mutate({ ...base, labelId: l.id })
                    : client.issues.removeLabel.mutate({ ...base, labelId: l.id }),
                "the labels",
              )
            }
          />
        ) : (
          <div className="flex flex-wrap gap-1 px-2 py-1">
            {issue.labels.length ? (
              issue.labels.map((l) => <LabelChip key={l.id} label={l} />)
            ) : (
              <span className="text-subtle-foreground">None yet</span>
            )}
          </div>
        )}
      </Section>
      <Section
        title="Assignee"
        testId="sidebar-assignee"
        action={
          canWrite && me ? (
            issue.assigneeId === me.id ? (
              <button
                type="button"
                className="text-xs text-subtle-foreground hover:text-danger"
                onClick={() => void setAssignee(null)}
                data-testid="unassign"
              >
                Unassign
              </button>
            ) : (
              <button
                type="button"
                className="text-xs text-primary hover:underline"
                onClick={() => void setAssignee(me)}
                data-testid="assign-me"
              >
                Assign to me
              </button>
            )
          ) : null
        }
      >
        <AssigneePicker
          people={assignees}
          value={issue.assignee}
          disabled={!canWrite || assignees.length === 0}
          onPick={(p) => p?.id !== issue.assigneeId && void setAssignee(p)}
        />
      </Section>
      <Section title="Due date" testId="sidebar-due">
        <DueDatePicker
          value={issue.dueDate}
          state={issue.state}
          disabled={!canWrite}
          onChange={(dueDate) =>
            void change(
              { dueDate },
              () => (dueDate ? client.issues.setDueDate.mutate({ ...base, dueDate }) : client.issues.clearDueDate.mutate(base)),
              "the due date",
            )
          }
        />
      </Section>
      <Section title="Estimate" testId="sidebar-estimate">
        <EstimatePicker
          value={issue.estimate}
          disabled={!canWrite}
          onPick={(estimate) =>
            estimate !== issue.estimate &&
            void change(
              { estimate },
              () =>
                estimate === null ? client.issues.clearEstimate.mutate(base) : client.issues.setEstimate.mutate({ ...base, estimate }),
              "the estimate",
            )
          }
        />
      </Section>
      <ParentSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
      <SubIssuesSection repo={repo} issue={issue} subIssues={subIssues} canWrite={canWrite} run={run} client={client} />
      <RelationsSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
    </aside>
  );
}
