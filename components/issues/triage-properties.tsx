"use client";
/**
 * The selected triage issue's properties, for writers (./triage-selected.tsx): status, priority,
 * assignee and labels with the issue page's pickers (./pickers.tsx), opened by Linear's keys
 * through the shortcut registry — `s` status, `p` priority, `Shift+A` assignee (plain `a`
 * accepts here, as the queue's main action), `l` labels — which stay quiet while typing, while
 * a form is open and inside an open picker (components/keyboard/registry.ts). Picking a status
 * accepts the issue into it (acceptTriage, with Undo like the Accept button, as Linear does);
 * priority, assignee and labels change the issue in place and it stays in the queue.
 */
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { PRIORITIES, STATUSES, type Issue, type Label } from "./model";
import { AssigneePicker, LabelPicker, OptionPicker, type Person } from "./pickers";
import { usePickerKeys, type PickerKey } from "./picker-keys";
import { PriorityIcon, StatusIcon } from "./ui";
import type { TriageRepo, TriageState } from "./use-triage-queue";

/** The triage queue's property keys (listed in the `?` sheet under "Triage"). */
export const TRIAGE_PICKER_KEYS: readonly PickerKey[] = [
  { key: "s", picker: "status", label: "Accept into a status…" },
  { key: "p", picker: "priority", label: "Set priority" },
  { key: "A", picker: "assignee", label: "Set assignee" },
  { key: "l", picker: "labels", label: "Set labels" },
];

/**
 * The pickers of `selected`; `state` is useTriageQueue's result (accept, replace, the open form),
 * `labels` and `people` the repository's labels and assignees.
 */
export function TriageProperties({
  selected,
  state,
  repo,
  labels,
  people,
}: {
  selected: Issue;
  state: TriageState;
  repo: TriageRepo;
  labels: Label[];
  people: Person[];
}) {
  const client = useTRPCClient();
  const { control } = usePickerKeys({
    idPrefix: "triage",
    group: "Triage",
    keys: TRIAGE_PICKER_KEYS,
    enabled: () => !state.mode && !state.dupOpen && !state.busy,
  });
  const base = { repoId: repo.id, number: selected.number };
  /** Runs a property change and shows the changed issue; a refusal is a toast naming what failed. */
  const change = async (what: string, mutation: () => Promise<Issue>) => {
    try {
      state.replace(await mutation());
    } catch (e) {
      toast.error(`Could not change ${what}: ${errorMessage(e)}`);
    }
  };
  return (
    <div className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm sm:grid-cols-4" data-testid="triage-properties">
      <Property title="Status">
        <OptionPicker
          name="triage-status"
          label="Status"
          options={STATUSES}
          value={selected.status}
          icon={(key) => <StatusIcon status={key} />}
          disabled={state.busy}
          {...control("status")}
          onPick={(status) => status !== selected.status && void state.accept(status)}
        />
      </Property>
      <Property title="Priority">
        <OptionPicker
          name="triage-priority"
          label="Priority"
          options={PRIORITIES}
          value={selected.priority}
          icon={(key) => <PriorityIcon priority={key} />}
          {...control("priority")}
          onPick={(priority) =>
            priority !== selected.priority && void change("the priority", () => client.issues.updatePriority.mutate({ ...base, priority }))
          }
        />
      </Property>
      <Property title="Assignee">
        <AssigneePicker
          people={people}
          value={selected.assignee}
          disabled={people.length === 0}
          {...control("assignee")}
          onPick={(p) =>
            p?.id !== selected.assigneeId &&
            void change("the assignee", () => client.issues.update.mutate({ issueId: selected.id, assigneeId: p?.id ?? null }))
          }
        />
      </Property>
      <Property title="Labels">
        <LabelPicker
          labels={labels}
          selected={selected.labels.map((l) => l.id)}
          testId="triage-labels"
          {...control("labels")}
          onToggle={(l, on) =>
            void change("the labels", () =>
              on ? client.issues.addLabel.mutate({ ...base, labelId: l.id }) : client.issues.removeLabel.mutate({ ...base, labelId: l.id }),
            )
          }
        />
      </Property>
    </div>
  );
}

function Property({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <div className="px-2 text-xs font-medium text-subtle-foreground">{title}</div>
      {children}
    </div>
  );
}
