"use client";
/**
 * New issue: title, Markdown body (Write/Preview, `@` mentions of `people`), template picker
 * (fills title, body, labels and priority), and the issue page's pickers for labels, priority,
 * due date and estimate (./pickers.tsx, ./due-date-picker.tsx). Readers (no write permission) are
 * told the issue goes to triage; the server decides the status and refuses an estimate from them,
 * so their estimate picker is disabled.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { useHydrated } from "@/components/ui/use-hydrated";
import { FormError } from "@/components/ui/form-error";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { card, cx, label as labelClass } from "@/components/ui/styles";
import { DueDatePicker } from "./due-date-picker";
import { MarkdownEditor } from "./markdown-editor";
import type { Mentionable } from "./mention-textarea";
import { EstimatePicker, LabelPicker, OptionPicker, labelColorFor } from "./pickers";
import { PRIORITIES, issueUrl, type Label, type Template } from "./model";
import { PriorityIcon } from "./ui";

type PriorityKey = (typeof PRIORITIES)[number]["key"];
const fieldTitle = "mb-1 text-xs font-semibold uppercase tracking-wide text-subtle-foreground";

export function NewIssueForm({
  repo,
  labels: initialLabels,
  templates,
  canWrite,
  people = [],
}: {
  repo: { id: string; owner: string; name: string };
  labels: Label[];
  templates: Template[];
  canWrite: boolean;
  people?: Mentionable[];
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const router = useRouter();
  const hydrated = useHydrated();
  const [labels, setLabels] = useState(initialLabels);
  const [templateId, setTemplateId] = useState("");
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [labelIds, setLabelIds] = useState<string[]>([]);
  const [priority, setPriority] = useState<PriorityKey>("none");
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [estimate, setEstimate] = useState<number | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const create = useMutation(
    trpc.issues.create.mutationOptions({
      onSuccess: (issue) => router.push(issueUrl(repo.owner, repo.name, issue.number)),
    }),
  );

  const applyTemplate = (id: string) => {
    setTemplateId(id);
    const t = templates.find((x) => x.id === id);
    if (!t) return;
    if (t.title) setTitle(t.title);
    if (t.body) setBody(t.body);
    const names = t.labels.map((n) => n.toLowerCase());
    setLabelIds(labels.filter((l) => names.includes(l.name.toLowerCase())).map((l) => l.id));
    if (t.priority) setPriority(t.priority as PriorityKey);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setLocalError(null);
    if (!title.trim()) return setLocalError("title is required");
    create.mutate({
      repoId: repo.id,
      title: title.trim(),
      body: body || undefined,
      labels: labels.filter((l) => labelIds.includes(l.id)).map((l) => l.name),
      priority,
      dueDate: dueDate ?? undefined,
      estimate: estimate ?? undefined,
    });
  };

  // an error about the title (ours, or the server's "title: …") shows on the Title field; any
  // other (a label, the rate limit) on the form
  const error = localError ?? (create.error ? errorMessage(create.error) : null);
  const titleError = error && /^title\b/i.test(error) ? error : null;
  const formError = titleError ? null : error;

  return (
    <form method="post" onSubmit={submit} className="grid gap-6 lg:grid-cols-[1fr_16rem]" data-testid="new-issue-form">
      <div className="space-y-4">
        <h1 className="text-xl font-semibold text-foreground">New issue</h1>
        {!canWrite && (
          <div
            className="rounded-md border border-warning-border bg-warning-muted px-3 py-2 text-sm text-warning"
            data-testid="triage-notice"
          >
            You can’t triage issues in {repo.owner}/{repo.name}: your issue goes to the <strong>Triage</strong> queue, where a maintainer
            accepts or declines it.
          </div>
        )}
        {templates.length > 0 && (
          <Field label="Template" id="issue-template">
            <NativeSelect value={templateId} onChange={(e) => applyTemplate(e.target.value)} data-testid="template-picker">
              <option value="">Blank issue</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        <Field label="Title" id="issue-title" error={titleError}>
          <Input
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              if (titleError) {
                setLocalError(null);
                create.reset();
              }
            }}
            maxLength={256}
            placeholder="Title"
            autoFocus
            data-testid="issue-title-input"
          />
        </Field>
        <div>
          <span className={labelClass}>Description</span>
          <div className="mt-1">
            <MarkdownEditor
              value={body}
              onChange={setBody}
              label="Description"
              placeholder="Add a description…"
              testId="issue-body-input"
              rows={10}
              people={people}
              repo={repo}
            />
          </div>
        </div>
        <FormError message={formError} />
        <div className="flex justify-end">
          <Button type="submit" variant="primary" disabled={!hydrated || create.isPending} data-testid="create-issue-submit">
            {create.isPending ? "Creating…" : "Create issue"}
          </Button>
        </div>
      </div>
      <aside className={cx(card, "h-fit space-y-4 p-4")}>
        <div>
          <div className={fieldTitle}>Labels</div>
          <LabelPicker
            labels={labels}
            selected={labelIds}
            onToggle={(l, on) => setLabelIds((ids) => (on ? [...ids, l.id] : ids.filter((x) => x !== l.id)))}
            onCreate={
              canWrite
                ? async (name) => {
                    setLocalError(null);
                    try {
                      const label = await client.issues.createLabel.mutate({ repoId: repo.id, name, color: labelColorFor(name) });
                      setLabels((ls) => [...ls, label].sort((a, b) => a.name.localeCompare(b.name)));
                      setLabelIds((ids) => [...ids, label.id]);
                    } catch (e) {
                      setLocalError(errorMessage(e));
                    }
                  }
                : undefined
            }
            testId="new-issue-labels"
          />
        </div>
        <div>
          <div className={fieldTitle}>Priority</div>
          <OptionPicker
            name="issue-priority"
            label="Priority"
            options={PRIORITIES}
            value={priority}
            icon={(key) => <PriorityIcon priority={key} />}
            onPick={setPriority}
          />
        </div>
        <div>
          <div className={fieldTitle}>Due date</div>
          <DueDatePicker value={dueDate} state="open" onChange={setDueDate} />
        </div>
        <div>
          <div className={fieldTitle}>Estimate</div>
          <EstimatePicker value={estimate} disabled={!canWrite} onPick={setEstimate} />
        </div>
      </aside>
    </form>
  );
}
