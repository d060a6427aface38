"use client";
/**
 * The Files changed tab's client part (docs/pulls.md "Pages"): the shared diff viewer plus the
 * reader's "Viewed" checkboxes. A file counts as viewed while the mark's blob is still the head's
 * blob for that path (GitHub's rule: a new push to the file clears it); viewed files show
 * collapsed. Marks are the caller's own (pulls.viewedFiles / pulls.setFileViewed); a failed save
 * puts the checkbox back and says why.
 *
 * Review (docs/pulls.md "Review in the browser (Files changed tab)"): the inline threads
 * (pulls.comments) under their lines, the comment form opened by a line's "+" button, suggestions
 * and "Review changes" — components/pulls/review-*. Threads are client state, refetched after each
 * mutation and on a live update (PULL_UPDATED). Suggestions gathered with "Add suggestion to batch"
 * are committed together from the batch bar (suggestion-batch.tsx); threads no line of the diff can
 * hold (outdated ones whose line is gone) show collapsed at the top of their file, or of the tab
 * when their file left the diff (file-top-threads.tsx).
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { DiffViewer, type DiffViewerProps } from "@/components/diff/diff-viewer";
import { unpackFile, type DiffFile } from "@/components/diff/model";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { PULL_UPDATED } from "./live-updates";
import { ReviewDialog } from "./review-dialog";
import { liveBatch, threadsAtFileTop, threadsByLine, threadsOffDiff, slotKey, type Draft, type Thread } from "./review-model";
import { FileTopThreads } from "./file-top-threads";
import { SuggestionBatchBar } from "./suggestion-batch";
import { CommentLineButton, LineSlot, ReviewContext, type ReviewState } from "./review-threads";
import { ExplainFileButton } from "./explain-file";

type Mark = { path: string; blobSha: string | null };

/** The key a mark is stored under: the file's path at the head (its old path when deleted). */
function pathOf(f: DiffFile): string {
  return f.status === "deleted" ? f.oldPath : f.newPath;
}

export interface ReviewProps {
  /** The inline threads as the page loaded them (pulls.comments). */
  threads: Thread[];
  headSha: string;
  isAuthor: boolean;
  open: boolean;
  canWrite: boolean;
  me: { id: string; username: string } | null;
  repo: { owner: string; name: string };
}

export function PullFilesView({
  prId,
  repoId,
  range,
  marks,
  signedIn,
  review,
  ...viewer
}: { prId: string; repoId: string; range: { base: string; head: string }; marks: Mark[]; signedIn: boolean; review: ReviewProps } & Omit<
  DiffViewerProps,
  "renderFileActions" | "collapsedFile" | "lineSlots" | "renderSlot" | "renderGutter"
>) {
  const client = useTRPCClient();
  const [threads, setThreads] = useState(review.threads);
  useEffect(() => setThreads(review.threads), [review.threads]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const refetch = useCallback(async () => {
    try {
      setThreads(await client.pulls.comments.query({ prId }));
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }, [client, prId]);
  useEffect(() => {
    const on = () => void refetch();
    window.addEventListener(PULL_UPDATED, on);
    return () => window.removeEventListener(PULL_UPDATED, on);
  }, [refetch]);
  const byLine = useMemo(() => threadsByLine(threads), [threads]);
  const pendingCount = useMemo(
    () => threads.reduce((n, t) => n + (t.isPending ? 1 : 0) + t.replies.filter((c) => c.isPending).length, 0),
    [threads],
  );
  const lineSlots = useCallback(
    (f: DiffFile) => {
      const keys = new Set(byLine.get(f.newPath)?.keys() ?? []);
      if (draft && draft.path === f.newPath) keys.add(slotKey(draft.side, draft.end));
      return keys;
    },
    [byLine, draft],
  );
  // c on a focused line's "+" button (CommentLineButton handles the key: "c" is "New issue" elsewhere)
  useShortcuts(
    signedIn
      ? [{ id: "diff-comment-line", keys: "c", label: "Comment on the focused line", group: "Diff", listOnly: true, run: () => {} }]
      : [],
  );
  // the batch keeps only suggestions still open to apply (one applied alone, or deleted, drops out)
  const [batchIds, setBatchIds] = useState<string[]>([]);
  const batch = useMemo(() => liveBatch(batchIds, threads), [batchIds, threads]);
  const toggleBatch = useCallback((id: string) => setBatchIds((b) => (b.includes(id) ? b.filter((x) => x !== id) : [...b, id])), []);
  const state: ReviewState = {
    prId,
    repo: review.repo,
    me: review.me,
    canWrite: review.canWrite,
    open: review.open,
    threads: byLine,
    draft,
    setDraft,
    hasPending: pendingCount > 0,
    refetch,
    batch,
    toggleBatch,
  };
  const [viewed, setViewed] = useState(() => new Map(marks.map((m) => [m.path, m.blobSha])));
  const isViewed = useCallback(
    (f: DiffFile) => viewed.has(pathOf(f)) && viewed.get(pathOf(f)) === (f.status === "deleted" ? null : f.newSha),
    [viewed],
  );
  const files = useMemo(() => viewer.files.map(unpackFile), [viewer.files]);
  const count = useMemo(() => files.filter(isViewed).length, [files, isViewed]);
  // threads at a file's top are computed per file object the viewer passes (it replaces a file
  // when "Load diff" brings its hunks), cached until the threads change
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new cache whenever the threads change
  const topCache = useMemo(() => new WeakMap<DiffFile, Thread[]>(), [byLine]);
  const topOf = useCallback(
    (f: DiffFile) => {
      let ts = topCache.get(f);
      if (!ts) topCache.set(f, (ts = threadsAtFileTop(f, byLine.get(f.newPath))));
      return ts;
    },
    [topCache, byLine],
  );
  const hasTop = useCallback((f: DiffFile) => topOf(f).length > 0, [topOf]);
  const offDiff = useMemo(() => threadsOffDiff(threads, new Set(files.map((f) => f.newPath))), [threads, files]);

  const toggle = async (f: DiffFile, on: boolean) => {
    const path = pathOf(f);
    const blobSha = f.status === "deleted" ? null : f.newSha;
    const before = new Map(viewed);
    setViewed((m) => {
      const next = new Map(m);
      if (on) next.set(path, blobSha);
      else next.delete(path);
      return next;
    });
    try {
      await client.pulls.setFileViewed.mutate({ prId, path, viewed: on, blobSha });
    } catch (e) {
      setViewed(before);
      toast.error(errorMessage(e));
    }
  };

  return (
    <ReviewContext.Provider value={state}>
      {signedIn && (
        <div className="mb-2 flex flex-wrap items-center justify-end gap-3">
          <p className="text-xs text-muted-foreground" data-testid="viewed-count">
            {count} / {viewer.totalFiles ?? files.length} files viewed
          </p>
          <ReviewDialog
            prId={prId}
            headSha={review.headSha}
            isAuthor={review.isAuthor}
            open={review.open}
            pendingCount={pendingCount}
            onDone={refetch}
          />
        </div>
      )}
      {offDiff.length > 0 && (
        <div className="mb-3">
          <FileTopThreads threads={offDiff} file={null} />
        </div>
      )}
      <DiffViewer
        {...viewer}
        files={files}
        collapsedFile={isViewed}
        lineSlots={lineSlots}
        shortcuts
        renderSlot={(f, side, line) => <LineSlot file={f} side={side} line={line} />}
        fileTop={hasTop}
        renderFileTop={(f) => <FileTopThreads threads={topOf(f)} file={f} />}
        renderGutter={signedIn ? (f, side, line) => <CommentLineButton file={f} side={side} line={line} /> : undefined}
        renderFileActions={(f) => (
          <>
            {/* an explanation of this file's change (ai.explainFileDiff), labelled with its engine */}
            <ExplainFileButton file={f} repoId={repoId} prId={prId} range={range} />
            {signedIn && (
              <label className="flex shrink-0 items-center gap-1.5 rounded-md border border-border px-2 py-0.5 font-sans text-xs text-muted-foreground">
                <input
                  type="checkbox"
                  className="h-3.5 w-3.5 accent-[var(--primary)]"
                  checked={isViewed(f)}
                  onChange={(e) => void toggle(f, e.target.checked)}
                  data-testid="file-viewed"
                  aria-label={`Viewed ${pathOf(f)}`}
                />
                Viewed
              </label>
            )}
          </>
        )}
      />
      <SuggestionBatchBar ids={batch} threads={threads} onClear={() => setBatchIds([])} onCommitted={refetch} />
    </ReviewContext.Provider>
  );
}
