"use client";
/**
 * The commit message dialog of "Commit suggestion" and "Commit suggestions" (docs/pulls.md
 * "Suggestions"), as GitHub's: a commit message (the subject, filled with the server's default —
 * "Apply suggestion from @<suggester>" for one, "Apply suggestions from code review" for a batch)
 * and an optional extended description. The server appends a `Co-authored-by:` trailer per
 * suggester other than the committer; the dialog names them.
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input, Textarea } from "@/components/ui/input";

/** The default subject: the server's (server/services/pulls/apply-suggestion.ts `suggestionMessage`). */
export function defaultSuggestionSubject(batch: boolean, suggester: string | null): string {
  return batch
    ? "Apply suggestions from code review"
    : suggester
      ? `Apply suggestion from @${suggester}`
      : "Apply suggestion from code review";
}

/** The message sent: the subject, then the description after a blank line when there is one. */
export function commitMessageOf(subject: string, description: string): string {
  return description.trim() ? `${subject.trim()}\n\n${description.trim()}` : subject.trim();
}

/**
 * `open` / `onOpenChange`: the dialog; `batch`: several suggestions (`count`); `suggesters`: the
 * suggestions' authors' usernames (the first names the single default); `me`: the committer (no
 * trailer for them); `onCommit(message)`: commits; `busy` / `error`: its state.
 */
export function CommitSuggestionDialog({
  open,
  onOpenChange,
  batch,
  count,
  suggesters,
  me,
  busy,
  error,
  onCommit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  batch: boolean;
  count: number;
  suggesters: (string | null)[];
  me: string | null;
  busy: boolean;
  error: string | null;
  onCommit: (message: string) => void;
}) {
  const fallback = defaultSuggestionSubject(batch, suggesters[0] ?? null);
  const [subject, setSubject] = useState(fallback);
  const [description, setDescription] = useState("");
  // opening again starts from the default
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setSubject(fallback);
      setDescription("");
    }
  }
  const coAuthors = [...new Set(suggesters.filter((u): u is string => !!u && u !== me))];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={batch ? `Commit ${count} suggestion${count === 1 ? "" : "s"}` : "Commit suggestion"}
        testId="commit-suggestion-dialog"
        footer={
          <>
            <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={busy || !subject.trim()}
              onClick={() => onCommit(commitMessageOf(subject, description))}
              data-testid="commit-suggestion-submit"
            >
              {busy ? "Committing…" : "Commit changes"}
            </Button>
          </>
        }
      >
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (subject.trim() && !busy) onCommit(commitMessageOf(subject, description));
          }}
        >
          <Field label="Commit message" id="suggestion-commit-subject">
            <Input value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={1000} data-testid="commit-suggestion-message" />
          </Field>
          <Field
            label="Extended description"
            id="suggestion-commit-description"
            hint={coAuthors.length ? `Co-authored-by trailers are added for ${coAuthors.map((u) => `@${u}`).join(", ")}.` : undefined}
          >
            <Textarea
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              rows={3}
              placeholder="Add an optional extended description"
              data-testid="commit-suggestion-description"
            />
          </Field>
          <FormError message={error} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
