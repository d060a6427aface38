"use client";
/**
 * The "type the name to confirm" field of the repository settings' destructive dialogs (delete,
 * transfer; GitHub's pattern): a labelled monospace input, Enter confirms, typing clears the error.
 */
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

export function TypeToConfirmField({
  id,
  expected,
  value,
  onChange,
  onConfirm,
  busy,
  error,
  testId,
}: {
  id: string;
  /** What the person must type (shown in the label). */
  expected: string;
  value: string;
  /** Called with the new text; the caller clears its error. */
  onChange: (value: string) => void;
  /** Enter in the field. */
  onConfirm: () => void;
  busy: boolean;
  error?: string;
  testId: string;
}) {
  return (
    <Field
      className="mt-4"
      id={id}
      error={error}
      label={
        <span className="font-normal">
          To confirm, type <strong className="select-all font-mono">{expected}</strong> below:
        </span>
      }
    >
      <Input
        className="font-mono"
        value={value}
        autoComplete="off"
        spellCheck={false}
        disabled={busy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onConfirm();
          }
        }}
        data-testid={testId}
      />
    </Field>
  );
}
