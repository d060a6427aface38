"use client";
/** Client controls of the issue list: filter selects (kept in the URL), save view, delete view. */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { button, cx, input } from "@/components/ui/styles";
import { PRIORITIES, STATUSES, listQuery, type Label, type ListFilters, type ViewFilters } from "./model";

const select = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800 shadow-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30";

export function ListControls({ filters, labels, signedIn, base }: { filters: ListFilters; labels: Label[]; signedIn: boolean; base: string }) {
  const router = useRouter();
  const go = (patch: Partial<Record<keyof ListFilters, string | undefined>>) => router.push(`${base}${listQuery(filters, patch)}`);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="issue-filters">
      <select className={select} aria-label="Status" value={filters.status ?? ""} onChange={(e) => go({ status: e.target.value || undefined, state: undefined })} data-testid="filter-status">
        <option value="">Any status</option>
        {STATUSES.map((s) => (
          <option key={s.key} value={s.key}>
            {s.label}
          </option>
        ))}
      </select>
      <select className={select} aria-label="Priority" value={filters.priority ?? ""} onChange={(e) => go({ priority: e.target.value || undefined })} data-testid="filter-priority">
        <option value="">Any priority</option>
        {PRIORITIES.map((p) => (
          <option key={p.key} value={p.key}>
            {p.label}
          </option>
        ))}
      </select>
      <select className={select} aria-label="Label" value={filters.label ?? ""} onChange={(e) => go({ label: e.target.value || undefined })} data-testid="filter-label">
        <option value="">Any label</option>
        {filters.label && !labels.some((l) => l.name === filters.label) && <option value={filters.label}>{filters.label}</option>}
        {labels.map((l) => (
          <option key={l.id} value={l.name}>
            {l.name}
          </option>
        ))}
      </select>
      <select className={select} aria-label="Due date" value={filters.due ?? ""} onChange={(e) => go({ due: e.target.value || undefined })} data-testid="filter-due">
        <option value="">Any due date</option>
        <option value="overdue">Overdue</option>
        <option value="due_soon">Due within 7 days</option>
      </select>
      {signedIn && (
        <label className={cx("flex cursor-pointer items-center gap-2 rounded-md border px-2.5 py-1.5 text-sm shadow-sm", filters.assignee ? "border-emerald-500 bg-emerald-50 text-emerald-800" : "border-slate-300 bg-white text-slate-800")}>
          <input type="checkbox" className="accent-emerald-600" checked={filters.assignee === "me"} onChange={(e) => go({ assignee: e.target.checked ? "me" : undefined })} data-testid="filter-assignee-me" />
          Assigned to me
        </label>
      )}
    </div>
  );
}

export function SaveViewButton({ repoId, filters, base }: { repoId: string; filters: ViewFilters; base: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.issues.createView.mutationOptions({
      onSuccess: (view) => {
        setOpen(false);
        setName("");
        router.push(`${base}?view=${view.id}`);
        router.refresh();
      },
    }),
  );
  if (!open) {
    return (
      <button type="button" className={cx(button.ghost, "px-2! py-1! text-xs")} onClick={() => setOpen(true)} data-testid="save-view">
        + Save current filters as view
      </button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      method="post"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate({ repoId, name: name.trim(), filters });
      }}
    >
      <input className={cx(input, "w-48! py-1!")} placeholder="View name" value={name} onChange={(e) => setName(e.target.value)} autoFocus aria-label="View name" data-testid="view-name-input" />
      <button type="submit" className={cx(button.primary, "py-1!")} disabled={!name.trim() || create.isPending} data-testid="view-save-submit">
        Save view
      </button>
      <button type="button" className={cx(button.ghost, "py-1!")} onClick={() => setOpen(false)}>
        Cancel
      </button>
      {create.error && <FormError message={errorMessage(create.error)} />}
    </form>
  );
}

export function DeleteViewButton({ viewId, name, base }: { viewId: string; name: string; base: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const del = useMutation(
    trpc.issues.deleteView.mutationOptions({
      onSuccess: () => {
        router.push(base);
        router.refresh();
      },
    }),
  );
  return (
    <>
      <button type="button" className="ml-auto text-xs text-slate-500 hover:text-red-700" onClick={() => setConfirming(true)} data-testid="delete-view">
        Delete view
      </button>
      <ConfirmDialog open={confirming} title="Delete view" confirmLabel="Delete view" busy={del.isPending} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate({ viewId })}>
        <p>
          Delete the view <strong>{name}</strong>? Its issues are not affected.
        </p>
        {del.error && <FormError message={errorMessage(del.error)} />}
      </ConfirmDialog>
    </>
  );
}
