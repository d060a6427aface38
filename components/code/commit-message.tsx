"use client";
import { useId, useState } from "react";

/** A commit's title, with a toggle that shows the rest of the message (its body) when there is one. */
export function CommitMessage({ title, body }: { title: string; body: string }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <div className="min-w-0">
      <div className="flex min-w-0 items-start gap-2">
        <span className="min-w-0 break-words font-medium text-foreground" data-testid="commit-title">
          {title || <span className="italic text-subtle-foreground">No commit message</span>}
        </span>
        {body && (
          <button
            type="button"
            className="mt-0.5 shrink-0 rounded bg-muted px-1.5 text-xs leading-4 font-semibold text-muted-foreground hover:bg-accent hover:text-foreground"
            aria-expanded={open}
            aria-controls={bodyId}
            aria-label={open ? "Hide the full commit message" : "Show the full commit message"}
            title={open ? "Hide the full commit message" : "Show the full commit message"}
            onClick={() => setOpen((o) => !o)}
            data-testid="commit-body-toggle"
          >
            …
          </button>
        )}
      </div>
      {body && open && (
        <pre
          id={bodyId}
          className="mt-2 whitespace-pre-wrap break-words font-mono text-xs leading-5 text-muted-foreground"
          data-testid="commit-body"
        >
          {body}
        </pre>
      )}
    </div>
  );
}
