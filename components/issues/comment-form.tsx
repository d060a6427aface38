"use client";
/** The comment form at the end of the issue page: Markdown with `@` mentions, Comment, and Close/Reopen (with the comment). */
import { useTRPCClient } from "@/components/trpc/provider";
import { button } from "@/components/ui/styles";
import { useDraft } from "@/components/ui/use-draft";
import { MarkdownEditor } from "./markdown-editor";
import type { IssueDetail } from "./model";
import { IssueClosedIcon, IssueOpenedIcon } from "./ui";
import type { Assignee, RepoRef, Run } from "./issue-shared";

/** The new-comment form; writers also get Close/Reopen (with the typed comment, when there is one). */
export function CommentBox({
  repo,
  issue,
  canWrite,
  run,
  busy,
  people,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  canWrite: boolean;
  run: Run;
  busy: boolean;
  people: Assignee[];
}) {
  const base = { repoId: repo.id, number: issue.number };
  const client = useTRPCClient();
  // kept until posted (components/ui/use-draft.ts): a reload keeps the text
  const { text: body, setText: setBody, clear } = useDraft(`issue:${repo.id}:${issue.number}:comment`);
  const open = issue.state === "open";
  const submit = async (andToggle: boolean) => {
    const text = body.trim();
    await run(async () => {
      if (text) await client.issues.addComment.mutate({ ...base, body: text });
      if (andToggle) await (open ? client.issues.close.mutate(base) : client.issues.reopen.mutate(base));
    }, clear);
  };
  return (
    <form
      method="post"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (body.trim()) void submit(false);
      }}
      data-testid="comment-form"
    >
      <MarkdownEditor
        value={body}
        onChange={setBody}
        label="Comment"
        placeholder="Leave a comment"
        testId="comment-input"
        rows={4}
        people={people}
        repo={repo}
      />
      <div className="flex flex-wrap justify-end gap-2">
        {canWrite && (
          <button
            type="button"
            className={button.secondary}
            disabled={busy}
            onClick={() => void submit(true)}
            data-testid={open ? "close-issue" : "reopen-issue"}
          >
            {open ? <IssueClosedIcon className="text-violet-600 dark:text-violet-400" /> : <IssueOpenedIcon className="text-primary" />}
            {open ? (body.trim() ? "Close with comment" : "Close issue") : body.trim() ? "Reopen with comment" : "Reopen issue"}
          </button>
        )}
        <button type="submit" className={button.primary} disabled={busy || !body.trim()} data-testid="comment-submit">
          Comment
        </button>
      </div>
    </form>
  );
}
