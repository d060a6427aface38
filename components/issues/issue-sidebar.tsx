"use client";
/**
 * The issue page's sidebar: status, priority, labels, assignee, due date, estimate, project and
 * cycle (pickers from ./pickers.tsx, ./due-date-picker.tsx and ./plan-pickers.tsx, changed
 * optimistically by the page's useOptimisticIssue; `s` `p` `a` `l` `e` `d` open the first six:
 * ./picker-keys.ts), then parent, sub-issues and relations (./issue-relations.tsx). On phones
 * it comes before the description, so the properties are next to the title (docs/ui.md "Issues").
 */
import { useTRPCClient } from "@/components/trpc/provider";
import { DueDatePicker } from "./due-date-picker";
import { ParentSection, RelationsSection, SubIssuesSection } from "./issue-relations";
import { Section } from "./issue-section";
import { PRIORITIES, STATUSES, type Issue, type IssueDetail, type Label } from "./model";
import { AssigneePicker, EstimatePicker, LabelPicker, OptionPicker, labelColorFor } from "./pickers";
import { usePickerKeys } from "./picker-keys";
import { CyclePicker, ProjectPicker, type CycleRef, type ProjectRef } from "./plan-pickers";
import { LabelChip, PriorityIcon, StatusIcon } from "./ui";
import type { Assignee, Me, RepoRef, Run, Titles } from "./issue-shared";
import type { useOptimisticIssue } from "./use-optimistic-issue";
import { SubscribeButton } from "@/components/notifications/subscribe-button";

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
  projects,
  cycles,
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
  projects: ProjectRef[];
  cycles: CycleRef[];
}) {
  const client = useTRPCClient();
  const { control } = usePickerKeys({ idPrefix: "issue", group: "Issue", enabled: () => canWrite });
  /** Moves the issue into project / cycle `id`, or out of its current one (null): projects/cycles.addIssue / removeIssue. */
  const setPlan = (kind: "project" | "cycle", id: string | null) => {
    const current = kind === "project" ? issue.projectId : issue.cycleId;
    if (id === current) return;
    const mutation = () => {
      if (kind === "project") {
        return id
          ? client.projects.addIssue.mutate({ repoId: repo.id, projectId: id, number: issue.number })
          : client.projects.removeIssue.mutate({ repoId: repo.id, projectId: current!, number: issue.number });
      }
      return id
        ? client.cycles.addIssue.mutate({ repoId: repo.id, cycleId: id, number: issue.number })
        : client.cycles.removeIssue.mutate({ repoId: repo.id, cycleId: current!, number: issue.number });
    };
    void change(kind === "project" ? { projectId: id } : { cycleId: id }, mutation, `the ${kind}`);
  };
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
          {...control("status")}
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
          {...control("priority")}
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
            {...control("labels")}
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
          {...control("assignee")}
          onPick={(p) => p?.id !== issue.assigneeId && void setAssignee(p)}
        />
      </Section>
      <Section title="Due date" testId="sidebar-due">
        <DueDatePicker
          value={issue.dueDate}
          state={issue.state}
          disabled={!canWrite}
          {...control("due")}
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
          {...control("estimate")}
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
      <Section title="Project" testId="sidebar-project">
        <ProjectPicker projects={projects} value={issue.projectId} disabled={!canWrite} onPick={(id) => setPlan("project", id)} />
      </Section>
      <Section title="Cycle" testId="sidebar-cycle">
        <CyclePicker cycles={cycles} value={issue.cycleId} disabled={!canWrite} onPick={(id) => setPlan("cycle", id)} />
      </Section>
      <ParentSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
      <SubIssuesSection repo={repo} issue={issue} subIssues={subIssues} canWrite={canWrite} run={run} client={client} />
      <RelationsSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
      {me && (
        <Section title="Notifications" testId="sidebar-notifications">
          <SubscribeButton subjectType="issue" subjectId={issue.id} />
        </Section>
      )}
    </aside>
  );
}
