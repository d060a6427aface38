import { AlertIcon } from "./icons";

/** A red message box for a form's error; renders nothing without a message. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      data-testid="form-error"
      className="flex items-start gap-2 rounded-md border border-danger-border bg-danger-muted px-3 py-2 text-sm text-danger"
    >
      <AlertIcon className="mt-0.5 text-danger" />
      <span className="first-letter:uppercase">{message}</span>
    </div>
  );
}
