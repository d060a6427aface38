"use client";
/**
 * Quick-add in a board column (docs/ui.md "Issues", Board): the "+" in the column header opens an
 * inline title box under it; Enter creates the issue in that column (its status, priority,
 * assignee, label or project) and keeps the box open, empty, for the next one; Escape closes it
 * and focus returns to the "+".
 */
import { useId, useRef, useState } from "react";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/components/trpc/provider";

function PlusIcon() {
  return (
    <svg viewBox="0 0 16 16" className="h-4 w-4" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
      <path d="M8 3v10M3 8h10" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The "+" of column `label` and, when open, its title box (`children` of the column are not
 * involved: render `button` in the header and `form` under it). `onCreate(title)` resolves once
 * the issue exists and rejects with an Error whose message is shown.
 */
export function useQuickAdd(label: string, onCreate: ((title: string) => Promise<void>) | undefined) {
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const errorId = useId();
  if (!onCreate) return { button: null, form: null };
  const close = () => {
    setOpen(false);
    setTitle("");
    setError(null);
    buttonRef.current?.focus();
  };
  const submit = async () => {
    const t = title.trim();
    if (!t || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onCreate(t);
      setTitle("");
    } catch (e) {
      setError(`Could not create the issue: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const button = (
    <button
      ref={buttonRef}
      type="button"
      onClick={() => (open ? close() : setOpen(true))}
      aria-label={`Add issue to ${label}`}
      aria-expanded={open}
      className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="column-quick-add"
    >
      <PlusIcon />
    </button>
  );
  const form = open ? (
    <form
      className="px-2 pb-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Input
        autoFocus
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
        maxLength={256}
        placeholder="Issue title"
        aria-label={`New issue title in ${label}`}
        aria-describedby={error ? errorId : undefined}
        readOnly={busy}
        aria-busy={busy}
        className="h-8 text-sm"
        data-testid="quick-add-input"
      />
      {error && (
        <p id={errorId} className="mt-1 px-1 text-xs text-danger" role="alert">
          {error}
        </p>
      )}
    </form>
  ) : null;
  return { button, form };
}
