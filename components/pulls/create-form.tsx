"use client";
/**
 * "Open a pull request" (docs/pulls.md "Pages"), under the compare page's commits and diff: title
 * (prefilled from the only commit's subject, or the branch name, as GitHub does), Markdown
 * description with preview (prefilled with the only commit's body; empty for several commits, as
 * GitHub does: model.ts `suggestedBody`), a draft toggle. Sends the compared tips as headSha/baseSha, so a branch
 * that moved since the page loaded is refused ("the branch moved") instead of opening something
 * unseen. "Generate description" (ai.generatePRDescription) fills title and body from the branch's
 * commits and diff, labelled with the engine that wrote them; a title or body the user typed is
 * sent as existingTitle/existingBody and kept (docs/ai.md).
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { MarkdownEditor } from "@/components/issues/markdown-editor";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { Select } from "@/components/ui/select";
import { card, cx } from "@/components/ui/styles";
import { EngineLabel } from "@/components/ai/engine-label";
import { pullUrl, suggestedBody, suggestedTitle } from "./model";

type DescriptionStyle = "concise" | "detailed" | "conventional";
const STYLES: { value: DescriptionStyle; label: string }[] = [
  { value: "detailed", label: "Detailed" },
  { value: "concise", label: "Concise" },
  { value: "conventional", label: "Conventional" },
];

/** What the user wrote in a field: its value unless empty or one the page filled in itself. */
export function userWritten(value: string, ...filled: (string | undefined)[]): string | undefined {
  return value.trim() && !filled.includes(value) ? value : undefined;
}

export function CreatePullForm({
  repo,
  base,
  head,
  commits,
  sourceRepoId,
}: {
  repo: { id: string; owner: string; name: string };
  base: { branch: string; sha: string };
  head: { branch: string; sha: string };
  commits: { message: string }[];
  /** set when the compared head branch is in a fork */
  sourceRepoId?: string;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [prefill] = useState(() => ({
    title: suggestedTitle(head.branch, commits),
    body: suggestedBody(commits),
  }));
  const [title, setTitle] = useState(prefill.title);
  const [body, setBody] = useState(prefill.body);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [style, setStyle] = useState<DescriptionStyle>("detailed");
  const [generated, setGenerated] = useState<{ title: string; body: string; engine: string } | null>(null);
  const [aiBusy, setAiBusy] = useState(false);
  const [aiError, setAiError] = useState<string | null>(null);
  const generate = async () => {
    setAiBusy(true);
    setAiError(null);
    try {
      const d = await client.ai.generatePRDescription.mutate({
        repoId: repo.id,
        sourceBranch: head.branch,
        targetBranch: base.branch,
        style,
        existingTitle: userWritten(title, prefill.title, generated?.title),
        existingBody: userWritten(body, prefill.body, generated?.body),
        ...(sourceRepoId ? { sourceRepoId } : {}),
      });
      const next = { title: d.title.slice(0, 256), body: d.body, engine: d.engine };
      setTitle(next.title);
      setBody(next.body);
      setGenerated(next);
    } catch (e) {
      setAiError(errorMessage(e));
    } finally {
      setAiBusy(false);
    }
  };
  const submit = async (isDraft: boolean) => {
    if (!title.trim()) return setError("A title is required.");
    setBusy(true);
    setError(null);
    try {
      const pr = await client.pulls.create.mutate({
        repoId: repo.id,
        title: title.trim(),
        body: body.trim() || undefined,
        sourceBranch: head.branch,
        targetBranch: base.branch,
        headSha: head.sha,
        baseSha: base.sha,
        isDraft,
        ...(sourceRepoId ? { sourceRepoId } : {}),
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
      <div className="flex flex-wrap items-center gap-2" data-testid="generate-description-bar">
        <Button type="button" size="sm" disabled={aiBusy || busy} onClick={() => void generate()} data-testid="generate-description">
          {aiBusy ? "Writing…" : "Generate description"}
        </Button>
        <div className="w-36">
          <Select
            value={style}
            onValueChange={(v) => setStyle(v as DescriptionStyle)}
            options={STYLES}
            ariaLabel="Description style"
            testId="generate-description-style"
            disabled={aiBusy}
          />
        </div>
        {generated && <EngineLabel engine={generated.engine} />}
        <p className="w-full text-xs text-subtle-foreground">
          Written from this branch&apos;s commits and changes; a title or text you typed is kept.
        </p>
      </div>
      <FormError message={aiError} />
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
