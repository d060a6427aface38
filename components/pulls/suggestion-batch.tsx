"use client";
/**
 * The batch bar of the Files changed tab (docs/pulls.md "Files changed tab: batch, touch,
 * outdated"): "N suggestions in batch — Commit suggestions / Clear", fixed at the bottom of the
 * window while the batch holds something. "Commit suggestions" asks for the commit message
 * (commit-suggestion-dialog.tsx) and sends pulls.applySuggestions {commentIds, message} — ONE commit for all, the threads resolved by the server; a refusal (overlapping
 * suggestions, listed by the server; an outdated one; the branch moved) is shown in the bar, the
 * comment ids in it named by their authors, and the batch is kept.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { useAction } from "./review-threads";
import { nameComments, type Thread, type ThreadComment } from "./review-model";
import { CommitSuggestionDialog } from "./commit-suggestion-dialog";

export function SuggestionBatchBar({
  ids,
  threads,
  me,
  onClear,
  onCommitted,
}: {
  ids: string[];
  threads: Thread[];
  /** The reader's username (no co-author trailer for them). */
  me: string | null;
  onClear: () => void;
  onCommitted: () => Promise<void>;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const { busy, error, run, clearError } = useAction();
  const [asking, setAsking] = useState(false);
  if (ids.length === 0) return null;
  const authors = new Map(threads.flatMap((t) => [t as ThreadComment, ...t.replies]).map((c) => [c.id, c.author?.username ?? null]));
  const commit = (message: string) =>
    run(async () => {
      const res = await client.pulls.applySuggestions.mutate({ commentIds: ids, message });
      setAsking(false);
      onClear();
      toast.success(`Committed ${ids.length} suggestion${ids.length === 1 ? "" : "s"} as ${res.commitSha.slice(0, 7)}`);
      await onCommitted();
      // the head moved: the diff, the commit count and the threads' positions come from the server
      router.refresh();
    });
  return (
    <div
      role="region"
      aria-label="Suggestion batch"
      className="fixed bottom-3 left-1/2 z-30 w-[min(40rem,calc(100%-1rem))] -translate-x-1/2 rounded-lg border border-border bg-card p-2 text-sm shadow-lg"
      data-testid="suggestion-batch"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium" data-testid="batch-count">
          {ids.length} suggestion{ids.length === 1 ? "" : "s"} in batch
        </span>
        <span className="ml-auto flex gap-2">
          <Button size="sm" variant="ghost" disabled={busy} onClick={onClear} data-testid="batch-clear">
            Clear
          </Button>
          <Button size="sm" variant="primary" disabled={busy} onClick={() => (clearError(), setAsking(true))} data-testid="batch-commit">
            {busy ? "Committing…" : "Commit suggestions"}
          </Button>
        </span>
      </div>
      {!asking && <FormError message={error && nameComments(error, threads)} />}
      <CommitSuggestionDialog
        open={asking}
        onOpenChange={setAsking}
        batch
        count={ids.length}
        suggesters={ids.map((id) => authors.get(id) ?? null)}
        me={me}
        busy={busy}
        error={error && nameComments(error, threads)}
        onCommit={(m) => void commit(m)}
      />
    </div>
  );
}
