"use client";
/**
 * Asking before Cancel throws typed text away (docs/ui.md "Drafts"): every comment and
 * description box with a Cancel button (issue comment and description edits, the pull request's
 * description, review comment edits, replies and new line comments) calls `confirmDiscard`
 * instead of discarding. Unsaved text — not blank, and not what the box started with when it
 * edits something — opens "Discard your comment?" (Discard / Keep editing, focus on Keep
 * editing, Escape keeps editing); anything else is discarded at once, as before.
 */
import { useRef, useState } from "react";
import { Button } from "./button";
import { Dialog, DialogContent } from "./dialog";

/** True when `text` would be lost: not blank and changed from `initial` ("" for a new comment). */
export function hasUnsavedText(text: string, initial = ""): boolean {
  return text.trim() !== "" && text !== initial;
}

/**
 * `confirmDiscard(text, initial, discard)`: runs `discard` now when nothing would be lost
 * (hasUnsavedText), else after the reader chooses Discard in the dialog. `dialog` is the dialog
 * element to render beside the box (a portal: where it sits in the tree does not matter).
 */
export function useDiscardConfirm(): {
  confirmDiscard: (text: string, initial: string, discard: () => void) => void;
  dialog: React.ReactNode;
} {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const confirmDiscard = (text: string, initial: string, discard: () => void) => {
    if (hasUnsavedText(text, initial)) setPending(() => discard);
    else discard();
  };
  const dialog = (
    <Dialog open={pending !== null} onOpenChange={(o) => !o && setPending(null)}>
      <DialogContent
        title="Discard your comment?"
        description="The text you typed will be lost."
        testId="discard-dialog"
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          keepRef.current?.focus();
        }}
        footer={
          <>
            <Button ref={keepRef} variant="secondary" onClick={() => setPending(null)} data-testid="discard-keep">
              Keep editing
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                const discard = pending;
                setPending(null);
                discard?.();
              }}
              data-testid="discard-confirm"
            >
              Discard
            </Button>
          </>
        }
      />
    </Dialog>
  );
  return { confirmDiscard, dialog };
}
