"use client";
/**
 * The Files changed tab's client part (docs/pulls.md "Pages"): the shared diff viewer plus the
 * reader's "Viewed" checkboxes. Whether a mark still applies is the server's answer
 * (pulls.viewedFiles `state`: the file's own change is the same as when marked, so a rebase keeps
 * it); a mark that no longer applies shows the file as not viewed, labelled "Changed since
 * viewed" (GitHub's wording). Viewed files show collapsed. Marks are the caller's own
 * (pulls.viewedFiles / pulls.setFileViewed), taken again from the server when the page refreshes
 * (a push); a failed save puts the checkbox back and says why.
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
import { liveBatch, threadsAtFileTop, threadsByLine, threadsOffDiff, slotKey, type Thread } from "./review-model";
import { useDraft } from "@/components/ui/use-draft";
import { useLineDrafts } from "./use-line-drafts";
import { FileTopThreads } from "./file-top-threads";
import { SuggestionBatchBar } from "./suggestion-batch";
import { CommentLineButton, LineSlot, ReviewContext, type ReviewState } from "./review-threads";
import { ExplainFileButton } from "./explain-file";
import { Badge } from "@/components/ui/badge";

type Mark = { path: string; state: "viewed" | "changed" };

/** The marks by path: "viewed" while a mark applies, "changed" when the file changed since. */
const markMap = (marks: Mark[]) => new Map(marks.map((m) => [m.path, m.state]));

/** The key a mark is stored under: the file's path at the head (its old path when deleted). */
function pathOf(f: DiffFile): string {
  return f.status === "deleted" ? f.oldPath : f.newPath;
}

/** "Owned by @a, @b": a file's code owners, muted, in its header (the whole list in the title when it is cut short). */
function FileOwners({ owners }: { owners: string[] | undefined }) {
  if (!owners?.length) return null;
  const text = `Owned by ${owners.map((o) => `@${o}`).join(", ")}`;
  return (
    <span className="max-w-[16rem] truncate font-sans text-xs text-muted-foreground" title={text} data-testid="file-owners">
      {text}
    </span>
  );
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

/** The comment ids of a stored batch (a JSON list; anything else is an empty batch). */
function parseIds(text: string): string[] {
  try {
    const v: unknown = text ? JSON.parse(text) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** `compute` cached per file object: a pure function of the file, so each file is computed once. */
function memoizePerFile<T>(compute: (f: DiffFile) => T): (f: DiffFile) => T {
  const cache = new WeakMap<DiffFile, T>();
  return (f) => {
    if (!cache.has(f)) cache.set(f, compute(f));
    return cache.get(f)!;
  };
}

export function PullFilesView({
  prId,
  repoId,
  range,
  marks,
  codeOwners = {},
  signedIn,
  review,
  ...viewer
}: {
  prId: string;
  repoId: string;
  range: { base: string; head: string };
  marks: Mark[];
  /** Path at the head → its code owners' usernames (pulls.codeOwners); shown in the file's header. */
  codeOwners?: Record<string, string[]>;
  signedIn: boolean;
  review: ReviewProps;
} & Omit<DiffViewerProps, "renderFileActions" | "collapsedFile" | "lineSlots" | "renderSlot" | "renderGutter">) {
  const client = useTRPCClient();
  const [threads, setThreads] = useState(review.threads);
  // new threads from the server (a refresh) replace the local copy
  const [serverThreads, setServerThreads] = useState(review.threads);
  if (review.threads !== serverThreads) {
    setServerThreads(review.threads);
    setThreads(review.threads);
  }
  // the open comment boxes and their drafts, kept across views, collapses and reloads
  const drafts = useLineDrafts(prId);
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
      for (const d of drafts.forms) if (d.path === f.newPath) keys.add(slotKey(d.side, d.end));
      return keys;
    },
    [byLine, drafts.forms],
  );
  // c on a focused line's "+" button (CommentLineButton handles the key); on this tab it replaces
  // the repository's "New issue" (`overrides`), so the sheet lists `c` once
  useShortcuts(
    signedIn
      ? [
          {
            id: "diff-comment-line",
            keys: "c",
            label: "Comment on the focused line",
            group: "Diff",
            listOnly: true,
            overrides: true,
            run: () => {},
          },
        ]
      : [],
  );
  // the batch keeps only suggestions still open to apply (one applied alone, or deleted, drops out)
  // kept per pull request in localStorage (components/ui/use-draft.ts) until committed or cleared
  const { text: batchText, setText: setBatchText, clear: clearBatch } = useDraft(`pr:${prId}:batch`);
  const batchIds = useMemo(() => parseIds(batchText), [batchText]);
  const batch = useMemo(() => liveBatch(batchIds, threads), [batchIds, threads]);
  const toggleBatch = useCallback(
    (id: string) =>
      setBatchText((t) => {
        const b = parseIds(t);
        const next = b.includes(id) ? b.filter((x) => x !== id) : [...b, id];
        return next.length ? JSON.stringify(next) : "";
      }),
    [setBatchText],
  );
  const state: ReviewState = {
    prId,
    repo: review.repo,
    me: review.me,
    canWrite: review.canWrite,
    open: review.open,
    threads: byLine,
    draft: drafts.active,
    forms: drafts.forms,
    setDraft: drafts.open,
    closeDraft: drafts.close,
    freshDraft: drafts.fresh,
    draftKey: drafts.keyOf,
    hasPending: pendingCount > 0,
    refetch,
    batch,
    toggleBatch,
  };
  const [viewed, setViewed] = useState(() => markMap(marks));
  // new marks from the server (a refresh after a push) replace the local copy
  const [serverMarks, setServerMarks] = useState(marks);
  if (marks !== serverMarks) {
    setServerMarks(marks);
    setViewed(markMap(marks));
  }
  const isViewed = useCallback((f: DiffFile) => viewed.get(pathOf(f)) === "viewed", [viewed]);
  const files = useMemo(() => viewer.files.map(unpackFile), [viewer.files]);
  const count = useMemo(() => files.filter(isViewed).length, [files, isViewed]);
  // threads at a file's top are computed per file object the viewer passes (it replaces a file
  // when "Load diff" brings its hunks), cached until the threads change
  const topOf = useMemo(() => memoizePerFile((f) => threadsAtFileTop(f, byLine.get(f.newPath))), [byLine]);
  const hasTop = useCallback((f: DiffFile) => topOf(f).length > 0, [topOf]);
  const offDiff = useMemo(() => threadsOffDiff(threads, new Set(files.map((f) => f.newPath))), [threads, files]);

  const toggle = async (f: DiffFile, on: boolean) => {
    const path = pathOf(f);
    const blobSha = f.status === "deleted" ? null : f.newSha;
    const before = new Map(viewed);
    setViewed((m) => {
      const next = new Map(m);
      if (on) next.set(path, "viewed");
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
        renderGutter={
          signedIn ? (f, side, line, tabIndex) => <CommentLineButton file={f} side={side} line={line} tabIndex={tabIndex} /> : undefined
        }
        renderFileActions={(f) => (
          <>
            <FileOwners owners={codeOwners[f.newPath]} />
            {/* an explanation of this file's change (ai.explainFileDiff), labelled with its engine */}
            <ExplainFileButton file={f} repoId={repoId} prId={prId} range={range} />
            {signedIn && viewed.get(pathOf(f)) === "changed" && (
              <Badge
                tone="warning"
                className="shrink-0 font-sans"
                title="This file changed since you marked it viewed"
                data-testid="file-changed-since-viewed"
              >
                Changed since viewed
              </Badge>
            )}
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
      <SuggestionBatchBar ids={batch} threads={threads} me={review.me?.username ?? null} onClear={clearBatch} onCommitted={refetch} />
    </ReviewContext.Provider>
  );
}
