"use client";
/**
 * Inline review threads of the Files changed tab (docs/pulls.md "Threads in the UI (both tabs)"):
 * the threads under a diff line (the shared ./review-thread.tsx — replies, Resolve / Unresolve,
 * edit / delete, badges — the same component as the Conversation tab's), suggestions shown as a
 * small diff with "Commit suggestion" and "Add suggestion to batch" (the batch bar:
 * suggestion-batch.tsx), the "+" button over a line number (click, shift-click or drag a range) and
 * the comment form (single comment or "Start a review", "Insert suggestion" on RIGHT lines). State
 * lives in PullFilesView (components/pulls/files-view.tsx) and reaches these parts through
 * ReviewContext.
 */
import { createContext, useContext, useState } from "react";
import { useRouter } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { Button } from "@/components/ui/button";
import { useDiscardConfirm } from "@/components/ui/discard-dialog";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { useDraft } from "@/components/ui/use-draft";
import { cx } from "@/components/ui/styles";
import type { DiffFile } from "@/components/diff/model";
import type { LineSide } from "@/components/diff/diff-viewer";
import { rightLines, splitSuggestion, suggestionBlock, type Draft, type Thread, type ThreadComment } from "./review-model";
import { ReviewThread, type ThreadEnv } from "./review-thread";
import { CommitSuggestionDialog } from "./commit-suggestion-dialog";

/** The shared mutation runner (components/trpc/use-action.ts), re-exported for this tab's other parts. */
export { useAction };

/** The Files tab's review state: what a thread needs (ThreadEnv, with `refetch` refetching pulls.comments) plus the lines' threads and the open comment form. */
export interface ReviewState extends ThreadEnv {
  threads: Map<string, Map<string, Thread[]>>;
  /** The active comment box (the one shift-click extends), or null. */
  draft: Draft | null;
  /** Every open comment box (components/pulls/use-line-drafts.ts). */
  forms: Draft[];
  /** Opens a comment box on `d`, or with `extend` grows the active one to `d`. */
  setDraft: (d: Draft, extend?: boolean) => void;
  /** Closes the box on `d` and forgets its draft (posted, or Cancel). */
  closeDraft: (d: Draft) => void;
  /** The box the reader just opened (it takes the focus); restored boxes do not. */
  freshDraft: Draft | null;
  /** The use-draft key of the box on `d`. */
  draftKey: (d: Draft) => string;
  hasPending: boolean;
  /** The suggestions (comment ids) in the batch "Commit suggestions" applies as one commit. */
  batch: string[];
  toggleBatch: (commentId: string) => void;
}

export const ReviewContext = createContext<ReviewState | null>(null);

/** The Files tab's review state (inside PullFilesView's ReviewContext provider). */
export function useReview(): ReviewState {
  const r = useContext(ReviewContext);
  if (!r) throw new Error("ReviewContext missing");
  return r;
}

/** Where a mouse drag over line numbers started (one pointer drags at a time); cleared on any pointerup. */
let dragFrom: { path: string; side: LineSide; line: number } | null = null;

/**
 * The "+" over a line number: the button covers the number's cell, so clicking the number opens
 * the comment form there (GitHub's gesture); shift-click extends the open form to a range, and a
 * mouse drag from one line number to another of the same file and side selects that range. The
 * "+" mark shows on hover, on keyboard focus, on the selected lines, and always on touch screens
 * (coarse pointer or no hover), where hovering is not possible.
 */
export function CommentLineButton({
  file,
  side,
  line,
  tabIndex,
}: {
  file: DiffFile;
  side: LineSide;
  line: number;
  /** The file's one tab stop (0) or not (-1): the viewer's roving tab stop (Up/Down move it). */
  tabIndex?: 0 | -1;
}) {
  const { draft, forms, setDraft } = useReview();
  const path = file.newPath;
  const selected = forms.some((d) => d.path === path && d.side === side && line >= d.start && line <= d.end);
  return (
    <button
      type="button"
      aria-label={`Comment on line ${side === "LEFT" ? "L" : ""}${line}`}
      tabIndex={tabIndex}
      data-testid="comment-line"
      data-line={line}
      data-side={side}
      data-selected={selected || undefined}
      className="group/btn absolute inset-0 cursor-pointer rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      onKeyDown={(e) => {
        // "c" comments on the focused line (listed in the shortcut sheet by PullFilesView); handled
        // here, before the document's shortcut listener, which skips a handled key
        if (e.key === "c" && !e.metaKey && !e.ctrlKey && !e.altKey) {
          e.preventDefault();
          e.currentTarget.click();
        }
      }}
      onPointerDown={(e) => {
        if (e.pointerType !== "mouse" || e.button !== 0 || e.shiftKey) return;
        dragFrom = { path, side, line };
        // React's handlers run at the root, before this window listener
        window.addEventListener("pointerup", () => (dragFrom = null), { once: true });
      }}
      onPointerUp={() => {
        // released over another line of the same file and side: that range (no click follows,
        // since the press and the release hit different buttons)
        const from = dragFrom;
        if (!from || from.path !== path || from.side !== side || from.line === line) return;
        setDraft({ path, side, start: Math.min(from.line, line), end: Math.max(from.line, line) });
      }}
      onClick={(e) => {
        if (e.shiftKey && draft && draft.path === path && draft.side === side) {
          const lo = Math.min(draft.start, draft.end, line);
          const hi = Math.max(draft.start, draft.end, line);
          setDraft({ path, side, start: lo, end: hi }, true);
        } else setDraft({ path, side, start: line, end: line });
      }}
    >
      <span
        aria-hidden="true"
        className={cx(
          "pointer-events-none absolute left-0 top-0.5 h-4 w-4 rounded bg-primary text-center text-[10px] leading-4 text-primary-foreground group-hover/ln:opacity-100 group-focus-visible/btn:opacity-100 pointer-coarse:opacity-100 [@media(hover:none)]:opacity-100",
          selected ? "opacity-100" : "opacity-0",
        )}
        data-testid="comment-line-mark"
      >
        +
      </span>
    </button>
  );
}

/** A line's slot: its threads, then the comment form when it is open on this line. */
export function LineSlot({ file, side, line }: { file: DiffFile; side: LineSide; line: number }) {
  const r = useReview();
  const threads = r.threads.get(file.newPath)?.get(`${side}:${line}`) ?? [];
  const formsHere = r.forms.filter((d) => d.path === file.newPath && d.side === side && d.end === line);
  return (
    <div className="space-y-2">
      {threads.map((t) => (
        <ReviewThread
          key={t.id}
          thread={t}
          env={r}
          context="line"
          renderSuggestion={(c) => <SuggestionView comment={c} thread={t} file={file} />}
        />
      ))}
      {formsHere.map((d) => (
        <CommentForm key={r.draftKey(d)} draft={d} file={file} />
      ))}
    </div>
  );
}

function SuggestionView({ comment, thread, file }: { comment: ThreadComment; thread: Thread; file: DiffFile }) {
  const r = useReview();
  const client = useTRPCClient();
  const router = useRouter();
  const { busy, error, run, clearError } = useAction();
  const [asking, setAsking] = useState(false);
  const start = thread.startLine ?? thread.line ?? 0;
  const old = thread.isOutdated ? null : rightLines(file, thread.currentStartLine ?? start, thread.currentLine ?? thread.line ?? 0);
  const added = (comment.suggestion ?? "").replace(/\r?\n$/, "");
  const inBatch = r.batch.includes(comment.id);
  const reason = comment.appliedSha
    ? `Applied in ${comment.appliedSha.slice(0, 7)}`
    : thread.isOutdated
      ? "This suggestion is outdated"
      : !r.open
        ? "The pull request is closed"
        : comment.isPending
          ? "Submit your review first"
          : !r.canWrite
            ? "You need write permission to commit suggestions"
            : null;
  const apply = (message: string) =>
    run(async () => {
      await client.pulls.applySuggestion.mutate({ commentId: comment.id, message });
      setAsking(false);
      await r.refetch();
      // the head moved: the diff, the commit count and the threads' positions come from the server
      router.refresh();
    });
  return (
    <div className="mt-2 overflow-hidden rounded-md border border-border" data-testid="suggestion">
      <div className="border-b border-border bg-muted px-2 py-1 text-xs text-muted-foreground">Suggested change</div>
      <pre className="whitespace-pre-wrap font-mono text-xs leading-5 [overflow-wrap:anywhere]">
        {(old ?? []).map((l, k) => (
          <div key={`o${k}`} className="bg-danger-muted px-2">
            <span aria-hidden="true">-</span>
            {l}
          </div>
        ))}
        {added !== "" &&
          added.split(/\r?\n/).map((l, k) => (
            <div key={`n${k}`} className="bg-primary-muted px-2">
              <span aria-hidden="true">+</span>
              {l}
            </div>
          ))}
      </pre>
      {r.me && (
        <div className="flex flex-wrap items-center gap-2 border-t border-border px-2 py-1.5">
          <Button
            size="sm"
            variant="primary"
            disabled={busy || !!reason}
            onClick={() => (clearError(), setAsking(true))}
            data-testid="commit-suggestion"
            aria-describedby={reason ? `why-${comment.id}` : undefined}
          >
            {busy ? "Committing…" : "Commit suggestion"}
          </Button>
          {!reason && (
            <Button size="sm" onClick={() => r.toggleBatch(comment.id)} data-testid="batch-suggestion">
              {inBatch ? "Remove from batch" : "Add suggestion to batch"}
            </Button>
          )}
          {reason && (
            <span id={`why-${comment.id}`} className="text-xs text-muted-foreground" data-testid="suggestion-reason">
              {reason}
            </span>
          )}
        </div>
      )}
      {!asking && <FormError message={error} />}
      <CommitSuggestionDialog
        open={asking}
        onOpenChange={setAsking}
        batch={false}
        count={1}
        suggesters={[comment.author?.username ?? null]}
        me={r.me?.username ?? null}
        busy={busy}
        error={error}
        onCommit={(m) => void apply(m)}
      />
    </div>
  );
}

function CommentForm({ draft, file }: { draft: Draft; file: DiffFile }) {
  const r = useReview();
  const client = useTRPCClient();
  // the text outlives the form: Unified ↔ Split, a collapsed file, a reload (components/ui/use-draft.ts)
  const { text: body, setText: setBody } = useDraft(r.draftKey(draft));
  const { busy, error, run } = useAction();
  const { confirmDiscard, dialog } = useDiscardConfirm();
  const fresh = r.freshDraft === draft;
  const lines = draft.side === "RIGHT" ? rightLines(file, draft.start, draft.end) : null;
  const label = draft.start === draft.end ? `line ${draft.side === "LEFT" ? "L" : ""}${draft.end}` : `lines ${draft.start}–${draft.end}`;
  const send = (pending: boolean) => {
    const { body: text, suggestion } = draft.side === "RIGHT" ? splitSuggestion(body) : { body, suggestion: null };
    const where = {
      prId: r.prId,
      path: draft.path,
      side: draft.side,
      line: draft.end,
      startLine: draft.start !== draft.end ? draft.start : undefined,
      pending: pending || undefined,
    };
    return run(async () => {
      if (suggestion !== null) await client.pulls.addSuggestion.mutate({ ...where, body: text, suggestion });
      else await client.pulls.addComment.mutate({ ...where, body });
      r.closeDraft(draft);
      await r.refetch();
    });
  };
  return (
    <form
      className="space-y-2 rounded-md border border-border bg-background p-2 text-sm"
      data-testid="comment-form"
      onSubmit={(e) => (e.preventDefault(), void send(r.hasPending))}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span data-testid="comment-form-range">Commenting on {label}</span>
        {lines && (
          <Button
            size="sm"
            className="ml-auto"
            onClick={() => setBody((b) => (b ? `${b}\n` : "") + suggestionBlock(lines))}
            data-testid="insert-suggestion"
          >
            Insert suggestion
          </Button>
        )}
      </div>
      <Textarea
        autoFocus={fresh}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        rows={4}
        className="font-mono text-xs"
        aria-label={`Comment on ${label}`}
        data-testid="comment-body"
      />
      <FormError message={error} />
      {dialog}
      <div className={cx("flex flex-wrap justify-end gap-2")}>
        <Button size="sm" variant="ghost" onClick={() => confirmDiscard(body, "", () => r.closeDraft(draft))} data-testid="comment-cancel">
          Cancel
        </Button>
        {!r.hasPending && (
          <Button size="sm" disabled={busy || !body.trim()} onClick={() => void send(false)} data-testid="add-single-comment">
            Add single comment
          </Button>
        )}
        <Button size="sm" variant="primary" disabled={busy || !body.trim()} onClick={() => void send(true)} data-testid="start-review">
          {r.hasPending ? "Add review comment" : "Start a review"}
        </Button>
      </div>
    </form>
  );
}
