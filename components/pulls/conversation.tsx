"use client";
/**
 * The Conversation tab's interactive parts (docs/pulls.md "Pages"): the description (the author and
 * writers edit it in place with the shared Markdown editor) and the actions — close / reopen, ready
 * for review / convert to draft.
 */
import { useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { useRunner } from "@/components/issues/issue-shared";
import { Button } from "@/components/ui/button";
import { useDiscardConfirm } from "@/components/ui/discard-dialog";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import { Avatar, TimeAgo } from "@/components/issues/ui";
import { Textarea } from "@/components/ui/input";

/** The description card; `html` is the server-rendered Markdown. */
export function PullBody({
  pr,
  canEdit,
  rendered,
}: {
  pr: { id: string; body: string | null; author: { username: string } | null; createdAt: string };
  canEdit: boolean;
  rendered: React.ReactNode;
}) {
  const client = useTRPCClient();
  const { run, error, busy } = useRunner();
  const { confirmDiscard, dialog } = useDiscardConfirm();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(pr.body ?? "");
  return (
    <div className={cx(card, "overflow-hidden")} data-testid="pull-body">
      <div className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2 text-sm text-muted-foreground">
        {pr.author && <Avatar username={pr.author.username} />}
        <strong className="font-medium text-foreground">{pr.author?.username ?? "someone"}</strong> opened <TimeAgo iso={pr.createdAt} />
        {canEdit && !editing && (
          <Button type="button" variant="ghost" size="sm" className="ml-auto" onClick={() => setEditing(true)} data-testid="pull-edit-body">
            Edit
          </Button>
        )}
      </div>
      {editing ? (
        <form
          className="space-y-2 p-4"
          onSubmit={async (e) => {
            e.preventDefault();
            await run(
              () => client.pulls.update.mutate({ prId: pr.id, body }),
              () => setEditing(false),
            );
          }}
        >
          <Textarea
            value={body}
            onChange={(e) => setBody(e.target.value)}
            rows={8}
            aria-label="Description"
            data-testid="pull-body-input"
          />
          <FormError message={error} />
          {dialog}
          <div className="flex justify-end gap-2">
            <Button
              type="button"
              variant="ghost"
              onClick={() => confirmDiscard(body, pr.body ?? "", () => (setEditing(false), setBody(pr.body ?? "")))}
              data-testid="pull-body-cancel"
            >
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={busy} data-testid="pull-body-save">
              Save
            </Button>
          </div>
        </form>
      ) : (
        <div className="p-4">
          {pr.body?.trim() ? rendered : <p className="text-sm italic text-subtle-foreground">No description provided.</p>}
        </div>
      )}
    </div>
  );
}

/** Close / reopen and convert to draft ("Ready for review" is in the merge box: merge-box.tsx). */
export function PullActions({
  pr,
  canClose,
  canReopen,
}: {
  pr: { id: string; state: string; isDraft: boolean };
  canClose: boolean;
  canReopen: boolean;
}) {
  const client = useTRPCClient();
  const { run, error, busy } = useRunner();
  return (
    <div className="flex flex-wrap items-center justify-end gap-2" data-testid="pull-actions">
      <FormError message={error} />
      {pr.state === "open" && canClose && !pr.isDraft && (
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() => run(() => client.pulls.update.mutate({ prId: pr.id, isDraft: true }))}
          data-testid="pull-to-draft"
        >
          Convert to draft
        </Button>
      )}
      {pr.state === "open" && canClose && (
        <Button
          type="button"
          variant="dangerOutline"
          disabled={busy}
          onClick={() => run(() => client.pulls.close.mutate({ prId: pr.id }))}
          data-testid="pull-close"
        >
          Close pull request
        </Button>
      )}
      {pr.state === "closed" && canReopen && (
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() => run(() => client.pulls.reopen.mutate({ prId: pr.id }))}
          data-testid="pull-reopen"
        >
          Reopen pull request
        </Button>
      )}
    </div>
  );
}
