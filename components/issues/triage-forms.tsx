"use client";
/**
 * The forms that open under the selected issue of the triage page (./triage.tsx): accept (status
 * and priority) and decline (the reason, posted as a comment). Enter submits, Escape cancels.
 */
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input, NativeSelect } from "@/components/ui/input";
import { PRIORITIES, STATUSES, statusLabel } from "./model";

/**
 * Accept form: `status` / `priority` (a PRIORITIES key, "" keeps the issue's) with their change
 * handlers; `error` and `busy` from the last submit; `onSubmit` accepts, `onCancel` closes.
 */
export function AcceptForm(props: {
  status: string;
  onStatus: (status: string) => void;
  priority: string;
  onPriority: (priority: string) => void;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const { status, onStatus, priority, onPriority, error, busy, onSubmit, onCancel } = props;
  return (
    <form
      method="post"
      className="space-y-3 border-b border-border bg-primary-muted/50 px-5 py-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => e.key === "Escape" && onCancel()}
      data-testid="accept-form"
    >
      <div className="flex flex-wrap gap-3">
        <Field label="Status" className="w-44">
          <NativeSelect value={status} onChange={(e) => onStatus(e.target.value)} data-testid="accept-status">
            {STATUSES.filter((s) => s.key !== "triage").map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Priority" className="w-44">
          <NativeSelect value={priority} onChange={(e) => onPriority(e.target.value)} data-testid="accept-priority">
            {PRIORITIES.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <FormError message={error} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={busy} autoFocus data-testid="accept-confirm">
          Accept into {statusLabel(status)}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Decline form: the `reason` (required: submitting is off while it is blank) and its change
 * handler; `error` and `busy` from the last submit; `onSubmit` declines, `onCancel` closes.
 */
export function RejectForm(props: {
  reason: string;
  onReason: (reason: string) => void;
  error: string | null;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const { reason, onReason, error, busy, onSubmit, onCancel } = props;
  return (
    <form
      method="post"
      className="space-y-3 border-b border-border bg-danger-muted/50 px-5 py-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => e.key === "Escape" && onCancel()}
      data-testid="reject-form"
    >
      <Field label="Reason (posted as a comment)" error={error}>
        <Input
          value={reason}
          onChange={(e) => onReason(e.target.value)}
          placeholder="e.g. Works as intended"
          autoFocus
          data-testid="reject-reason"
        />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" variant="danger" disabled={busy || !reason.trim()} data-testid="reject-confirm">
          Decline issue
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
