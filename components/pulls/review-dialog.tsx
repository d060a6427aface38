"use client";
/**
 * "Review changes" (docs/pulls.md "Review in the browser (Files changed tab)"): a dialog with
 * Comment / Approve / Request changes and a body, submitted with pulls.addReview at the head the
 * page shows; it submits the reader's pending comments with it. The author may only comment (the
 * service refuses the other two, as GitHub); on a closed pull request only Comment is offered.
 */
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { useDraft } from "@/components/ui/use-draft";
import { toast } from "@/components/ui/toast";
import { useAction } from "./review-threads";

type State = "commented" | "approved" | "changes_requested";
const LABELS: Record<State, string> = { commented: "Comment", approved: "Approve", changes_requested: "Request changes" };

export function ReviewDialog({
  prId,
  headSha,
  isAuthor,
  open: prOpen,
  pendingCount,
  onDone,
}: {
  prId: string;
  headSha: string;
  isAuthor: boolean;
  open: boolean;
  pendingCount: number;
  onDone: () => Promise<void> | void;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>("commented");
  // the summary is kept until submitted (components/ui/use-draft.ts)
  const { text: body, setText: setBody, clear } = useDraft(`pr:${prId}:review`);
  const { busy, error, run } = useAction();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const states: State[] = isAuthor || !prOpen ? ["commented"] : ["commented", "approved", "changes_requested"];
  const submit = () =>
    run(async () => {
      await client.pulls.addReview.mutate({ prId, state, body: body.trim() ? body : undefined, commitSha: headSha });
      setOpen(false);
      clear();
      toast.success("Review submitted");
      await onDone();
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="primary" data-testid="review-changes">
          Review changes{pendingCount > 0 ? ` (${pendingCount} pending)` : ""}
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Finish your review"
        testId="review-dialog"
        // the summary box gets focus, not Close (a space typed at once would close the dialog)
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          bodyRef.current?.focus();
        }}
        footer={
          <Button variant="primary" disabled={busy} onClick={() => void submit()} data-testid="review-submit">
            {busy ? "Submitting…" : "Submit review"}
          </Button>
        }
      >
        <Textarea
          ref={bodyRef}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          rows={5}
          aria-label="Review summary"
          placeholder="Leave a comment"
          data-testid="review-body"
        />
        <fieldset className="mt-3 space-y-1.5">
          <legend className="sr-only">Review outcome</legend>
          {states.map((s) => (
            <label key={s} className="flex items-center gap-2">
              <input
                type="radio"
                name="review-state"
                value={s}
                checked={state === s}
                onChange={() => setState(s)}
                className="accent-[var(--primary)]"
                data-testid={`review-state-${s}`}
              />
              {LABELS[s]}
            </label>
          ))}
        </fieldset>
        {pendingCount > 0 && (
          <p className="mt-2 text-xs text-muted-foreground">
            {pendingCount} pending {pendingCount === 1 ? "comment" : "comments"} will be submitted with this review.
          </p>
        )}
        <div className="mt-2">
          <FormError message={error} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
