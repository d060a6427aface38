"use client";
/**
 * The batch bar of the Files changed tab (docs/pulls.md "Files changed tab: batch, touch,
 * outdated"): "N suggestions in batch — Commit suggestions / Clear", fixed at the bottom of the
 * window while the batch holds something. "Commit suggestions" sends pulls.applySuggestions
 * {commentIds} — ONE commit for all, the threads resolved by the server; a refusal (overlapping
 * suggestions, listed by the server; an outdated one; the branch moved) is shown in the bar, the
 * comment ids in it named by their authors, and the batch is kept.
 */
import { useRouter } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { useAction } from "./review-threads";
import { nameComments, type Thread } from "./review-model";

export function SuggestionBatchBar({
  ids,
  threads,
  onClear,
  onCommitted,
}: {
  ids: string[];
  threads: Thread[];
  onClear: () => void;
  onCommitted: () => Promise<void>;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const { busy, error, run } = useAction();
  if (ids.length === 0) return null;
  const commit = () =>
    run(async () => {
      const res = await client.pulls.applySuggestions.mutate({ commentIds: ids });
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
          <Button size="sm" variant="primary" disabled={busy} onClick={() => void commit()} data-testid="batch-commit">
            {busy ? "Committing…" : "Commit suggestions"}
          </Button>
        </span>
      </div>
      <FormError message={error && nameComments(error, threads)} />
    </div>
  );
}
