"use client";
/**
 * One comment of a review thread (docs/pulls.md "Threads in the UI (both tabs)"), shared by the
 * Files changed and Conversation tabs through ./review-thread.tsx: author, time, "Pending", the
 * Markdown body (or "This comment was deleted." for a root kept for its replies), the suggestion
 * slot, and the "…" menu with Edit / Delete. Who sees what mirrors the services exactly
 * (server/services/pulls/update-comment.ts, delete-comment.ts): Edit — the comment's author only
 * (not even write permission); Delete — the author, or someone with write permission. Edit swaps
 * the body for a Textarea (Save / Cancel); Delete asks first (ConfirmDialog). Deleted comments have
 * no menu.
 */
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { IssueMarkdown } from "@/components/issues/markdown";
import { Avatar, TimeAgo } from "@/components/issues/ui";
import { Badge, BotBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useDiscardConfirm } from "@/components/ui/discard-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { FormError } from "@/components/ui/form-error";
import { KebabIcon } from "@/components/ui/icons";
import { Textarea } from "@/components/ui/input";
import { buttonClass } from "@/components/ui/styles";
import type { Thread, ThreadComment } from "./review-model";

/** What a thread needs from its page: who is reading, what they may do, and how to reload the threads. */
export interface ThreadEnv {
  prId: string;
  repo: { owner: string; name: string };
  me: { id: string; username: string } | null;
  canWrite: boolean;
  /** The pull request is open (suggestions can be committed). */
  open: boolean;
  /** Reloads the threads after a mutation (the Files tab refetches pulls.comments; the Conversation tab refreshes the page). */
  refetch: () => Promise<void>;
}

/**
 * What the reader may do with `comment` (the services' rules): edit = its author; delete = its
 * author or write permission; nothing on a deleted comment or when signed out.
 */
export function commentPermissions(
  comment: Pick<ThreadComment, "author" | "isDeleted">,
  env: Pick<ThreadEnv, "me" | "canWrite">,
): { canEdit: boolean; canDelete: boolean } {
  if (!env.me || comment.isDeleted) return { canEdit: false, canDelete: false };
  const own = comment.author?.id === env.me.id;
  return { canEdit: own, canDelete: own || env.canWrite };
}

export function ReviewCommentView({
  comment,
  thread,
  env,
  suggestion,
}: {
  comment: ThreadComment;
  thread: Thread;
  env: ThreadEnv;
  suggestion?: React.ReactNode;
}) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(comment.body);
  const { confirmDiscard, dialog } = useDiscardConfirm();
  const [confirming, setConfirming] = useState(false);
  const save = useAction();
  const editor = useRef<HTMLTextAreaElement>(null);
  // the menu item that opened the editor is gone: focus moves to the text
  useEffect(() => {
    if (editing) editor.current?.focus();
  }, [editing]);
  const remove = useAction();
  const { canEdit, canDelete } = commentPermissions(comment, env);
  const who = comment.author?.username ?? "ghost";
  const isRoot = comment.id === thread.id;
  const hasReplies = isRoot && thread.replies.length > 0;
  const startEdit = () => (setBody(comment.body), save.clearError(), setEditing(true));
  const submit = () =>
    save.run(
      async () => (await client.pulls.updateComment.mutate({ commentId: comment.id, body }), await env.refetch()),
      () => setEditing(false),
    );
  const confirmDelete = () =>
    remove.run(
      async () => (await client.pulls.deleteComment.mutate({ commentId: comment.id }), await env.refetch()),
      () => setConfirming(false),
    );
  return (
    <article
      className="min-w-0 px-3 py-2"
      data-testid="review-comment"
      data-deleted={comment.isDeleted}
      aria-label={comment.isDeleted ? "Deleted comment" : `Comment by ${who}`}
    >
      <div className="mb-1 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        {comment.author ? <Avatar username={comment.author.username} /> : null}
        {!comment.isDeleted && <strong className="font-medium text-foreground">{who}</strong>}
        {!comment.isDeleted && comment.author?.isBot && <BotBadge />}
        <TimeAgo iso={String(comment.createdAt)} />
        {comment.editedAt && (
          <span data-testid="comment-edited">
            · edited <TimeAgo iso={String(comment.editedAt)} />
          </span>
        )}
        {comment.isPending && !isRoot && <Badge tone="warning">Pending</Badge>}
        {(canEdit || canDelete) && !editing && (
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger
              className={buttonClass({ variant: "ghost", size: "sm" }) + " ml-auto"}
              aria-label={`Actions for ${who}'s comment`}
              data-testid="comment-menu"
            >
              <KebabIcon />
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              {canEdit && (
                <DropdownMenuItem onSelect={startEdit} data-testid="comment-edit">
                  Edit
                </DropdownMenuItem>
              )}
              {canDelete && (
                <DropdownMenuItem
                  className="text-danger"
                  onSelect={() => (remove.clearError(), setConfirming(true))}
                  data-testid="comment-delete"
                >
                  Delete
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      {editing ? (
        <form className="space-y-2" onSubmit={(e) => (e.preventDefault(), void submit())} data-testid="comment-edit-form">
          <Textarea
            ref={editor}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            rows={4}
            aria-label={`Edit ${who}'s comment`}
            data-testid="comment-edit-body"
          />
          <FormError message={save.error} />
          {dialog}
          <div className="flex justify-end gap-2">
            <Button
              size="sm"
              variant="ghost"
              onClick={() => confirmDiscard(body, comment.body, () => setEditing(false))}
              data-testid="comment-edit-cancel"
            >
              Cancel
            </Button>
            <Button size="sm" variant="primary" type="submit" disabled={save.busy || !body.trim()} data-testid="comment-edit-save">
              {save.busy ? "Saving…" : "Save"}
            </Button>
          </div>
        </form>
      ) : comment.isDeleted ? (
        <p className="text-xs italic text-muted-foreground" data-testid="comment-deleted">
          This comment was deleted.
        </p>
      ) : (
        comment.body.trim() && <IssueMarkdown source={comment.body} repo={env.repo} testId="review-comment-body" />
      )}
      {comment.suggestion !== null && !editing && suggestion}
      <ConfirmDialog
        open={confirming}
        title="Delete this comment?"
        confirmLabel="Delete comment"
        busy={remove.busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      >
        {hasReplies ? "The replies stay readable; this comment shows as deleted." : "This cannot be undone."}
        {remove.error && <FormError message={remove.error} />}
      </ConfirmDialog>
    </article>
  );
}

/** A suggestion where the diff is not at hand (the Conversation tab): the suggested lines, read only. */
export function SuggestionPreview({ comment }: { comment: ThreadComment }) {
  const added = (comment.suggestion ?? "").replace(/\r?\n$/, "");
  return (
    <div className="mt-2 overflow-hidden rounded-md border border-border" data-testid="suggestion-preview">
      <div className="border-b border-border bg-muted px-2 py-1 text-xs text-muted-foreground">
        Suggested change{comment.appliedSha ? ` · applied in ${comment.appliedSha.slice(0, 7)}` : ""}
      </div>
      <pre className="max-h-60 overflow-auto whitespace-pre-wrap font-mono text-xs leading-5 [overflow-wrap:anywhere]">
        {added === "" ? (
          <div className="px-2 italic text-muted-foreground">Remove these lines</div>
        ) : (
          added.split(/\r?\n/).map((l, k) => (
            <div key={k} className="bg-primary-muted px-2">
              <span aria-hidden="true">+</span>
              {l}
            </div>
          ))
        )}
      </pre>
    </div>
  );
}
