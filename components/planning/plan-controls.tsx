"use client";
/**
 * Writers' controls on a project or cycle page (docs/ui.md "Pages"): "Add issue" (a searchable
 * picker of the repository's open issues not in it yet → projects.addIssue / cycles.addIssue) and
 * "Remove" on a row (projects.removeIssue / cycles.removeIssue), each followed by a toast and a
 * refresh of the server data (the counts and lists come from the server).
 */
import { useMutation } from "@tanstack/react-query";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Combobox } from "@/components/ui/combobox";
import { XIcon } from "@/components/ui/icons";
import { toast } from "@/components/ui/toast";
import { useRefresh } from "@/components/repo-settings/use-refresh";

/** What the controls act on: a project (by id) or a cycle (by id), named for messages. */
export type PlanTarget = { kind: "project" | "cycle"; id: string; label: string };

/** add/remove mutations for the target (the vanilla tRPC client picks the project or cycle procedure). */
function usePlanMutations(target: PlanTarget, repoId: string) {
  const client = useTRPCClient();
  const add = useMutation({
    mutationFn: (number: number) =>
      target.kind === "project"
        ? client.projects.addIssue.mutate({ repoId, projectId: target.id, number })
        : client.cycles.addIssue.mutate({ repoId, cycleId: target.id, number }),
  });
  const remove = useMutation({
    mutationFn: (number: number) =>
      target.kind === "project"
        ? client.projects.removeIssue.mutate({ repoId, projectId: target.id, number })
        : client.cycles.removeIssue.mutate({ repoId, cycleId: target.id, number }),
  });
  return { add, remove };
}

export function AddIssuePicker({
  repoId,
  target,
  candidates,
}: {
  repoId: string;
  target: PlanTarget;
  candidates: { number: number; title: string }[];
}) {
  const { add } = usePlanMutations(target, repoId);
  const { refresh, refreshing } = useRefresh();
  async function pick(value: string | null) {
    if (!value) return;
    const number = Number(value);
    try {
      await add.mutateAsync(number);
      toast.success(`Added #${number} to ${target.label}`);
      refresh();
    } catch (err) {
      toast.error(`Could not add #${number}: ${errorMessage(err)}`);
    }
  }
  return (
    <div className="w-full max-w-xs">
      <Combobox
        options={candidates.map((c) => ({
          value: String(c.number),
          label: c.title,
          hint: `#${c.number}`,
          keywords: [`#${c.number}`, String(c.number)],
        }))}
        value={null}
        onChange={pick}
        placeholder={add.isPending || refreshing ? "Adding…" : "Add an open issue…"}
        searchPlaceholder="Search open issues"
        emptyText="No open issues to add."
        disabled={add.isPending || refreshing}
        ariaLabel={`Add an issue to ${target.label}`}
        triggerClassName="border border-input bg-card shadow-sm"
        testId="add-issue"
      />
    </div>
  );
}

export function RemoveIssueButton({ repoId, target, number }: { repoId: string; target: PlanTarget; number: number }) {
  const { add, remove } = usePlanMutations(target, repoId);
  const { refresh, refreshing } = useRefresh();
  const call = (m: typeof add | typeof remove) => m.mutateAsync(number);
  async function onClick() {
    try {
      await call(remove);
      refresh();
      toast.success(`Removed #${number} from ${target.label}`, {
        action: {
          label: "Undo",
          onClick: () => void call(add).then(refresh, (err) => toast.error(`Could not put #${number} back: ${errorMessage(err)}`)),
        },
      });
    } catch (err) {
      toast.error(`Could not remove #${number}: ${errorMessage(err)}`);
    }
  }
  return (
    <Button
      variant="ghost"
      size="icon"
      className="h-7! w-7!"
      onClick={onClick}
      disabled={remove.isPending || refreshing}
      aria-label={`Remove #${number} from ${target.label}`}
      title={`Remove from ${target.label}`}
      data-testid="remove-from-plan"
    >
      <XIcon />
    </Button>
  );
}
