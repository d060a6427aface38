"use client";
/**
 * Threads the Files changed tab cannot put under a line (docs/pulls.md "Files changed tab: batch,
 * touch, outdated"): mostly outdated threads whose line the current diff no longer shows. As on
 * GitHub they sit in a collapsed "N outdated comments" block — at the top of their file, or at the
 * top of the tab when their file is no longer part of the diff — each with the diff hunk it was
 * written on (`diffHunk`, kept by the server) above the thread: the shared ReviewThread in its
 * "file" form (path and original hunk shown).
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { DiffFile } from "@/components/diff/model";
import type { Thread } from "./review-model";
import { ReviewThread } from "./review-thread";
import { useReview } from "./review-threads";

/** "2 outdated comments" (or "… on lines not shown" when some are current but their lines are outside the diff's context). */
function title(threads: Thread[]): string {
  const n = threads.length;
  const s = n === 1 ? "" : "s";
  return threads.every((t) => t.isOutdated) ? `${n} outdated comment${s}` : `${n} comment${s} on lines not shown`;
}

/**
 * The collapsed block of `threads`; `file` is the diff file they belong to, or null when their
 * files are not in the diff (each thread then names its path).
 */
export function FileTopThreads({ threads, file }: { threads: Thread[]; file: DiffFile | null }) {
  const [open, setOpen] = useState(false);
  const review = useReview();
  if (threads.length === 0) return null;
  return (
    <section
      className="rounded-md border border-border bg-background text-sm"
      data-testid={file ? "file-outdated" : "offdiff-outdated"}
      aria-label={file ? `${title(threads)} on ${file.newPath}` : `${title(threads)} on files no longer in the diff`}
    >
      <div className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-xs text-muted-foreground">
        <span data-testid="outdated-title">{file ? title(threads) : `${title(threads)} on files no longer in this diff`}</span>
        <Button
          size="sm"
          variant="ghost"
          className="ml-auto"
          aria-expanded={open}
          onClick={() => setOpen((x) => !x)}
          data-testid="outdated-toggle"
        >
          {open ? "Hide" : "Show"}
        </Button>
      </div>
      {open && (
        <div className="space-y-3 border-t border-border p-2">
          {threads.map((t) => (
            <div key={t.id} data-testid="outdated-entry">
              <ReviewThread thread={t} env={review} context="file" defaultExpanded />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
