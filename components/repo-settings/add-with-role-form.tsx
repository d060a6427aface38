"use client";
/**
 * The one "name + role + Add" form of the access pages: add a person (or a repository) with a role.
 * Used by Settings → Collaborators, organization Members, and a team's members and repositories.
 * Submitting (button or Enter) trims and normalizes the name, refuses an empty one with
 * `emptyMessage` next to the field, calls `onAdd`, then clears the name and refreshes the page's
 * server data (useRefresh); an error thrown by `onAdd` is shown next to the field (errorMessage).
 * The button is disabled until hydrated and while adding or refreshing ("Adding…").
 */
import { useState } from "react";
import { errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useRefresh } from "./use-refresh";

/** The name field's settings for a username (lib/names.ts: at most 39 characters; a leading `@` is dropped), spread into the form's props. */
export const USERNAME_FIELD = { placeholder: "username", maxLength: 39, normalize: (s: string) => s.replace(/^@/, "") };

/** One choice of the role select: the value sent to `onAdd` and its label. */
export interface RoleOption<R extends string> {
  value: R;
  label: string;
}

/** The grid of the form's row: name, role (by the select's width), button; literal classes for Tailwind. */
const GRID = {
  none: "sm:grid-cols-[minmax(0,1fr)_auto]",
  "8rem": "sm:grid-cols-[minmax(0,1fr)_8rem_auto]",
  "9rem": "sm:grid-cols-[minmax(0,1fr)_9rem_auto]",
  "10rem": "sm:grid-cols-[minmax(0,1fr)_10rem_auto]",
} as const;

/** The role select of an AddWithRoleForm. */
export interface RoleField<R extends string> {
  /** The select's visible label (its accessible name), e.g. "Role" or "Permission". */
  label: string;
  /** The Field id (the select's element id). */
  id: string;
  testId: string;
  options: readonly RoleOption<R>[];
  /** The role selected at first; kept after an add. */
  defaultValue: R;
  /** The select column's width on wide screens. */
  width: Exclude<keyof typeof GRID, "none">;
}

export interface AddWithRoleFormProps<R extends string> {
  /** The name field's visible label (its accessible name), e.g. "Add a member". */
  label: string;
  placeholder: string;
  maxLength: number;
  /** The Field id (the name input's element id). */
  id: string;
  /** The message when the name is empty after `normalize`. */
  emptyMessage: string;
  /** Maps the trimmed input to the name sent (e.g. drops a leading `@`); identity by default. */
  normalize?: (trimmed: string) => string;
  /** The role select; without it the form is name + Add and `onAdd` gets role undefined. */
  role?: RoleField<R>;
  /** Adds `name` with `role` (the result is ignored); a rejection's message is shown next to the name field. */
  onAdd: (name: string, role: R) => Promise<unknown>;
  /** Called when the name is edited, and before each submit (e.g. to hide a previous success note). */
  onEdit?: () => void;
  /** Below the row, inside the form: e.g. a success note (hidden while `busy`) and a hint. */
  footer?: (busy: boolean) => React.ReactNode;
  testIds: { form: string; name: string; submit: string };
}

/** The name + role + Add form; see the file comment for its behaviour. */
export function AddWithRoleForm<R extends string>({
  label,
  placeholder,
  maxLength,
  id,
  emptyMessage,
  normalize = (s) => s,
  role: roleField,
  onAdd,
  onEdit,
  footer,
  testIds,
}: AddWithRoleFormProps<R>) {
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [role, setRole] = useState<R | undefined>(roleField?.defaultValue);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string>();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    onEdit?.();
    const value = normalize(name.trim());
    if (!value) return setError(emptyMessage);
    setAdding(true);
    try {
      await onAdd(value, role as R);
      setName("");
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setAdding(false);
    }
  }

  const busy = adding || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" noValidate data-testid={testIds.form}>
      <div className={`grid gap-3 ${GRID[roleField?.width ?? "none"]} sm:items-start`}>
        <Field label={label} id={id} error={error}>
          <Input
            value={name}
            autoComplete="off"
            maxLength={maxLength}
            placeholder={placeholder}
            onChange={(e) => {
              setName(e.target.value);
              onEdit?.();
              setError(undefined); // a refusal is about the name as it was (docs/ui.md "Field")
            }}
            data-testid={testIds.name}
          />
        </Field>
        {roleField && (
          <Field label={roleField.label} id={roleField.id}>
            <NativeSelect value={role} onChange={(e) => setRole(e.target.value as R)} data-testid={roleField.testId}>
              {roleField.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        <Button type="submit" variant="primary" className="sm:mt-6" disabled={!hydrated || busy} data-testid={testIds.submit}>
          {busy ? "Adding…" : "Add"}
        </Button>
      </div>
      {footer?.(busy)}
    </form>
  );
}
