"use client";
/**
 * "Open a pull request" (issue #8), under the compare page's commits and diff: title (prefilled
 * from the only commit's subject, or the branch name, as GitHub does), Markdown description with
 * preview, a draft toggle. Sends the compared tips as headSha/baseSha, so a branch that moved
 * since the page loaded is refused ("the branch moved") instead of opening something unseen.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { MarkdownEditor } from "@/components/issues/markdown-editor";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import { pullUrl, suggestedTitle } from "./model";

export function CreatePullForm({ repo, base, head, commits, sourceRepoId }: {
  repo: { id: string; owner: string; name: string };
  base: { branch: string; sha: string };
  head: { branch: string; sha: string };
  commits: { message: string }[];
  /** set when the compared head branch is in a fork */
  sourceRepoId?: string;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [title, setTitle] = useState(() => suggestedTitle(head.branch, commits));
  const [body, setBody] = useState(() => (commits.length > 1 ? commits.map((c) => `- ${c.message.split("\n")[0]}`).join("\n") : commits[0]?.message.split("\n").slice(2).join("\n") ?? ""));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (isDraft: boolean) => {
    if (!title.trim()) return setError("A title is required.");
    setBusy(true);
    setError(null);
    try {
      const pr = await client.pulls.create.mutate({
        repoId: repo.id, title: title.trim(), body: body.trim() || undefined, sourceBranch: head.branch, targetBranch: base.branch,
        headSha: head.sha, baseSha: base.sha, isDraft, ...(sourceRepoId ? { sourceRepoId } : {}),
      });
      router.push(pullUrl(repo.owner, repo.name, pr.number));
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <form
      className={cx(card, "space-y-3 p-4")}
      aria-label="Open a pull request"
      data-testid="create-pull-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(false);
      }}
    >
      <Field label="Title" error={error && !title.trim() ? error : null} required>
        <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={256} data-testid="create-pull-title" />
      </Field>
      <MarkdownEditor label="Description" value={body} onChange={setBody} rows={6} testId="create-pull-body" repo={repo} />
      {title.trim() && <FormError message={error} />}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" disabled={busy} onClick={() => void submit(true)} data-testid="create-pull-draft">
          Create draft pull request
        </Button>
        <Button type="submit" variant="primary" disabled={busy} data-testid="create-pull-submit">
          Create pull request
        </Button>
      </div>
    </form>
  );
}
