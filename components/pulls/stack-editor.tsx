"use client";
/**
 * The stacks page's editing parts (Graphite-style stacks; docs/pulls.md "Stacks in the browser"):
 * the ordered branch list editor (top of the stack first, base at the bottom; Move up / Move down /
 * Remove buttons with the branch in their accessible name, focus kept on the moved branch, the move
 * announced in a live region), the "New stack" dialog, and a stack's Reorder and Delete actions.
 * Writes go through stacks.create / stacks.reorder / stacks.delete; the server re-validates
 * everything.
 */
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { useRunner } from "@/components/issues/issue-shared";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { ChevronDownIcon, XIcon } from "@/components/ui/icons";
import { Input, NativeSelect } from "@/components/ui/input";
import { cx } from "@/components/ui/styles";
import { addableBranches, moveBranch } from "./stack-model";

/**
 * The ordered list of a stack's branches. `value` is bottom first (position order); it is shown
 * top first with the base branch under it. `available` are the branches that may be added.
 */
export function BranchOrderEditor({
  value,
  onChange,
  base,
  available,
  label,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  base: string;
  available: string[];
  label: string;
}) {
  const [toAdd, setToAdd] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const rows = useRef(new Map<string, HTMLLIElement>());
  const pick = toAdd && available.includes(toAdd) ? toAdd : (available[0] ?? "");
  const move = (index: number, delta: number, button: "up" | "down") => {
    const next = moveBranch(value, index, delta);
    if (next === value) return;
    const name = value[index];
    onChange(next);
    const pos = next.indexOf(name);
    setAnnouncement(`${name} moved to position ${pos + 1} of ${next.length}`);
    // keep focus on the moved branch's button (or its other one at an end of the list)
    requestAnimationFrame(() => {
      const row = rows.current.get(name);
      const wanted =
        row?.querySelector<HTMLButtonElement>(`[data-move="${button}"]:not(:disabled)`) ??
        row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)");
      wanted?.focus();
    });
  };
  const top = value.map((name, index) => ({ name, index })).reverse();
  return (
    <div className="space-y-2" data-testid="branch-order-editor">
      <p className="text-sm font-medium text-foreground">{label}</p>
      <ol className="space-y-1" aria-label={label} data-testid="branch-order">
        {top.map(({ name, index }) => (
          <li
            key={name}
            ref={(el) => void (el ? rows.current.set(name, el) : rows.current.delete(name))}
            className="flex items-center gap-2 rounded-md border border-border bg-card px-2 py-1"
            data-testid="branch-order-item"
            data-branch={name}
          >
            <span className="w-6 shrink-0 text-right text-xs tabular-nums text-subtle-foreground" aria-hidden="true">
              {index + 1}
            </span>
            <code className="min-w-0 flex-1 font-mono text-xs text-foreground [overflow-wrap:anywhere]">{name}</code>
            <Button
              size="icon"
              variant="ghost"
              data-move="up"
              aria-label={`Move ${name} up`}
              title="Move up"
              disabled={index === value.length - 1}
              onClick={() => move(index, 1, "up")}
            >
              <ChevronDownIcon className="rotate-180" />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              data-move="down"
              aria-label={`Move ${name} down`}
              title="Move down"
              disabled={index === 0}
              onClick={() => move(index, -1, "down")}
            >
              <ChevronDownIcon />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Remove ${name}`}
              title="Remove"
              onClick={() => (onChange(value.filter((b) => b !== name)), setAnnouncement(`${name} removed`))}
            >
              <XIcon />
            </Button>
          </li>
        ))}
        <li className="flex items-center gap-2 px-2 py-1 text-xs text-subtle-foreground" data-testid="branch-order-base">
          <span className="w-6 shrink-0" aria-hidden="true" />
          <span className="min-w-0 [overflow-wrap:anywhere]">
            base: <code className="font-mono">{base || "—"}</code>
          </span>
        </li>
      </ol>
      {value.length === 0 && <p className="text-xs text-subtle-foreground">No branches yet: add the one that sits on the base first.</p>}
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Add a branch on top" className="min-w-0 flex-1">
          <NativeSelect
            value={pick}
            onChange={(e) => setToAdd(e.target.value)}
            disabled={available.length === 0}
            className="font-mono"
            data-testid="branch-order-add-select"
          >
            {available.length === 0 && <option value="">No more branches</option>}
            {available.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button
          disabled={!pick}
          onClick={() => (onChange([...value, pick]), setToAdd(""), setAnnouncement(`${pick} added on top`))}
          data-testid="branch-order-add"
        >
          Add
        </Button>
      </div>
      <p className="sr-only" aria-live="polite" data-testid="branch-order-status">
        {announcement}
      </p>
    </div>
  );
}

/** The "New stack" button and dialog: name, base branch, the ordered branches. */
export function NewStackDialog({
  repo,
  branches,
  taken,
}: {
  repo: { id: string; defaultBranch: string };
  branches: string[];
  taken: string[];
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [base, setBase] = useState(branches.includes(repo.defaultBranch) ? repo.defaultBranch : (branches[0] ?? ""));
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const takenSet = new Set(taken);
  const reset = () => (setName(""), setChosen([]), setError(null));
  const submit = async () => {
    if (!name.trim()) return setError("A name is required.");
    if (chosen.length === 0) return setError("Add at least one branch.");
    setBusy(true);
    setError(null);
    try {
      await client.stacks.create.mutate({ repoId: repo.id, name: name.trim(), baseBranch: base, branches: chosen });
      setOpen(false);
      reset();
      router.refresh();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(o) => (busy ? null : (setOpen(o), !o && reset()))}>
      <DialogTrigger asChild>
        <Button variant="primary" data-testid="new-stack-button">
          New stack
        </Button>
      </DialogTrigger>
      <DialogContent
        title="New stack"
        description="Branches reviewed one on top of the other: each pull request targets the branch below it."
        testId="new-stack-dialog"
      >
        <form
          className="space-y-4"
          aria-label="New stack"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field label="Name" required error={error && !name.trim() ? error : null}>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" data-testid="new-stack-name" />
          </Field>
          <Field label="Base branch" hint="The branch the bottom of the stack merges into.">
            <NativeSelect
              value={base}
              onChange={(e) => (setBase(e.target.value), setChosen(chosen.filter((b) => b !== e.target.value)))}
              className="font-mono"
              data-testid="new-stack-base"
            >
              {branches.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <BranchOrderEditor
            value={chosen}
            onChange={setChosen}
            base={base}
            available={addableBranches(branches, base, chosen, takenSet)}
            label="Branches, top of the stack first"
          />
          {name.trim() && <FormError message={error} />}
          <div className="flex justify-end gap-2">
            <Button onClick={() => (setOpen(false), reset())} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={busy} data-testid="new-stack-submit">
              {busy ? "Creating…" : "Create stack"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A stack card's Reorder (inline editor, Save / Cancel) and Delete (confirmation) actions. */
export function StackActions({
  stack,
  branches,
  taken,
  children,
}: {
  stack: { id: string; name: string; baseBranch: string; branches: { branchName: string }[] };
  branches: string[];
  /** branches other stacks hold */
  taken: string[];
  /** the read-only branch list, shown while not reordering */
  children: React.ReactNode;
}) {
  const client = useTRPCClient();
  const { run, error, busy, clearError } = useRunner();
  const current = stack.branches.map((b) => b.branchName);
  const [editing, setEditing] = useState(false);
  const [order, setOrder] = useState(current);
  const [confirming, setConfirming] = useState(false);
  const changed = order.length !== current.length || order.some((b, i) => b !== current[i]);
  return (
    <>
      <div className="flex flex-wrap gap-2 sm:ml-auto">
        {!editing && (
          <Button size="sm" onClick={() => (setOrder(current), clearError(), setEditing(true))} data-testid="stack-reorder">
            Reorder
          </Button>
        )}
        <Button size="sm" variant="dangerOutline" onClick={() => (clearError(), setConfirming(true))} data-testid="stack-delete">
          Delete
        </Button>
      </div>
      <div className="basis-full">
        {editing ? (
          <form
            className={cx("space-y-3 rounded-md border border-border bg-muted p-3")}
            aria-label={`Reorder ${stack.name}`}
            onSubmit={async (e) => {
              e.preventDefault();
              if (order.length === 0) return;
              await run(
                () => client.stacks.reorder.mutate({ stackId: stack.id, branches: order }),
                () => setEditing(false),
              );
            }}
          >
            <BranchOrderEditor
              value={order}
              onChange={setOrder}
              base={stack.baseBranch}
              available={addableBranches(branches, stack.baseBranch, order, new Set(taken))}
              label={`Branches of ${stack.name}, top of the stack first`}
            />
            <FormError message={order.length === 0 ? "A stack needs at least one branch: delete the stack instead." : error} />
            <div className="flex justify-end gap-2">
              <Button onClick={() => setEditing(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="primary" disabled={busy || !changed || order.length === 0} data-testid="stack-reorder-save">
                {busy ? "Saving…" : "Save order"}
              </Button>
            </div>
          </form>
        ) : (
          <>
            {children}
            {!confirming && <FormError message={error} />}
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete stack “${stack.name}”?`}
        confirmLabel="Delete stack"
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void run(
            () => client.stacks.delete.mutate({ stackId: stack.id }),
            () => setConfirming(false),
          )
        }
      >
        <p>
          The stack is forgotten; its{" "}
          {stack.branches.length === 1 ? "branch and pull request stay" : `${stack.branches.length} branches and their pull requests stay`}{" "}
          as they are.
        </p>
        <FormError message={error} />
      </ConfirmDialog>
    </>
  );
}
