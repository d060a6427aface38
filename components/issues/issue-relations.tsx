"use client";
/**
 * The issue sidebar's links to other issues: parent, sub-issues, relations (blocks, blocked by,
 * related to, duplicate of / duplicated by) and "Mark as duplicate". Other issues are chosen with
 * the issue search combobox (./issue-search.tsx: title or number, server-side), not typed as #N.
 */
import { useId, useState } from "react";
import Link from "next/link";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { ChevronDownIcon } from "@/components/ui/icons";
import { errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cx, input } from "@/components/ui/styles";
import { issueUrl, type Issue, type IssueDetail } from "./model";
import { IssueSearch } from "./issue-search";
import { Section } from "./issue-section";
import { ProgressBar, StatusIcon } from "./ui";
import type { Client, RepoRef, Run, Titles } from "./issue-shared";

/** "#12 Title" with the status icon, linking to the issue. */
function IssueRef({ repo, number, titles }: { repo: RepoRef; number: number; titles: Titles }) {
  const t = titles[number];
  return (
    <Link
      href={issueUrl(repo.owner, repo.name, number)}
      className="flex min-w-0 items-center gap-1.5 text-foreground hover:text-primary"
      title={t?.title}
    >
      {t && <StatusIcon status={t.status} className="h-3.5! w-3.5!" />}
      <span className="shrink-0 text-subtle-foreground">#{number}</span>
      {t && <span className="truncate">{t.title}</span>}
    </Link>
  );
}

/** The parent issue, or (writers) a search to choose one. */
export function ParentSection({
  repo,
  issue,
  titles,
  canWrite,
  run,
  client,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  titles: Titles;
  canWrite: boolean;
  run: Run;
  client: Client;
}) {
  const base = { repoId: repo.id, number: issue.number };
  return (
    <Section title="Parent issue" testId="sidebar-parent">
      {issue.parentNumber !== null ? (
        <div className="flex items-center gap-2 px-2">
          <span className="min-w-0" data-testid="parent-link">
            <IssueRef repo={repo} number={issue.parentNumber} titles={titles} />
          </span>
          {canWrite && (
            <button
              type="button"
              className="ml-auto text-xs text-subtle-foreground hover:text-danger"
              onClick={() => void run(() => client.issues.removeParent.mutate(base))}
              data-testid="remove-parent"
            >
              Remove
            </button>
          )}
        </div>
      ) : canWrite ? (
        <div className="px-2">
          <IssueSearch
            repoId={repo.id}
            exclude={[issue.number]}
            label="Set parent issue"
            testId="set-parent"
            onPick={(p) => void run(() => client.issues.setParent.mutate({ ...base, parentNumber: p.number }))}
          >
            + Set parent…
          </IssueSearch>
        </div>
      ) : (
        <span className="px-2 text-subtle-foreground">None</span>
      )}
    </Section>
  );
}

/** Sub-issues with the progress bar; writers create one by title. */
export function SubIssuesSection({
  repo,
  issue,
  subIssues,
  canWrite,
  run,
  client,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  subIssues: Issue[];
  canWrite: boolean;
  run: Run;
  client: Client;
}) {
  const [adding, setAdding] = useState(false);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const done = subIssues.filter((s) => s.state === "closed").length;
  return (
    <Section
      title="Sub-issues"
      testId="sidebar-sub-issues"
      action={
        canWrite && !adding ? (
          <button
            type="button"
            className="text-xs text-primary hover:underline"
            onClick={() => setAdding(true)}
            data-testid="add-sub-issue"
          >
            + Add sub-issue
          </button>
        ) : null
      }
    >
      {subIssues.length > 0 && (
        <div className="mb-2 space-y-1 px-2" data-testid="sub-issue-progress-bar">
          <div className="flex justify-between text-xs text-subtle-foreground">
            <span>
              {done} of {subIssues.length} done
            </span>
            <span>{issue.subIssueProgress}%</span>
          </div>
          <ProgressBar percentage={issue.subIssueProgress} />
        </div>
      )}
      <ul className="space-y-1">
        {subIssues.map((s) => (
          <li key={s.id} className="flex items-center gap-2 px-2" data-testid="sub-issue">
            <StatusIcon status={s.status} />
            <Link
              href={issueUrl(repo.owner, repo.name, s.number)}
              className={cx(
                "min-w-0 truncate hover:text-primary",
                s.state === "closed" ? "text-subtle-foreground line-through" : "text-foreground",
              )}
            >
              {s.title}
            </Link>
            <span className="ml-auto text-xs text-subtle-foreground">#{s.number}</span>
          </li>
        ))}
        {subIssues.length === 0 && !adding && <li className="px-2 text-subtle-foreground">None</li>}
      </ul>
      {adding && (
        <form
          method="post"
          className="mt-2 space-y-2 px-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!title.trim()) return;
            // the server's refusal shows on the field, not in the page banner
            let refused = false;
            await run(
              () =>
                client.issues.createSubIssue
                  .mutate({ repoId: repo.id, parentNumber: issue.number, title: title.trim() })
                  .catch((err: unknown) => {
                    refused = true;
                    setError(errorMessage(err));
                  }),
              () => refused || (setTitle(""), setAdding(false)),
            );
          }}
        >
          <Field label="Sub-issue title" error={error}>
            <Input
              className="py-1!"
              value={title}
              onChange={(e) => (setTitle(e.target.value), setError(null))}
              placeholder="What needs doing?"
              autoFocus
              data-testid="sub-issue-title"
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" className="py-1!" onClick={() => (setAdding(false), setError(null))}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" className="py-1!" disabled={!title.trim()} data-testid="sub-issue-create">
              Create
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

type RelKind = "blocks" | "blocked_by" | "relates_to" | "duplicates";
const REL_KINDS: { key: RelKind; label: string }[] = [
  { key: "blocks", label: "Blocks" },
  { key: "blocked_by", label: "Blocked by" },
  { key: "relates_to", label: "Related to" },
  { key: "duplicates", label: "Duplicate of" },
];

/** Relations grouped by kind (removable by writers), "add relation" (kind menu + issue search) and "Mark as duplicate". */
export function RelationsSection({
  repo,
  issue,
  titles,
  canWrite,
  run,
  client,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  titles: Titles;
  canWrite: boolean;
  run: Run;
  client: Client;
}) {
  const [kind, setKind] = useState<RelKind>("blocks");
  const [canonical, setCanonical] = useState<Issue | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const addErrorId = useId();
  const me = issue.number;
  const r = issue.relations;
  const rel = (type: "blocks" | "relates_to" | "duplicates", sourceNumber: number, targetNumber: number) => ({
    repoId: repo.id,
    type,
    sourceNumber,
    targetNumber,
  });
  const groups: { label: string; numbers: number[]; remove: (n: number) => ReturnType<typeof rel>; testId: string }[] = [
    { label: "Blocks", numbers: r.blocking, remove: (n) => rel("blocks", me, n), testId: "rel-blocking" },
    { label: "Blocked by", numbers: r.blockedBy, remove: (n) => rel("blocks", n, me), testId: "rel-blocked-by" },
    { label: "Related to", numbers: r.related, remove: (n) => rel("relates_to", me, n), testId: "rel-related" },
    { label: "Duplicate of", numbers: r.duplicates, remove: (n) => rel("duplicates", me, n), testId: "rel-duplicates" },
    { label: "Duplicated by", numbers: r.duplicatedBy, remove: (n) => rel("duplicates", n, me), testId: "rel-duplicated-by" },
  ];
  const any = groups.some((g) => g.numbers.length > 0);
  const related = groups.flatMap((g) => g.numbers);
  const kindLabel = REL_KINDS.find((k) => k.key === kind)!.label;
  // a refused relation (a cycle, a duplicate of a duplicate) shows under the search that chose it
  const add = (n: number) => {
    setAddError(null);
    return run(() =>
      client.issues.addRelation
        .mutate(
          kind === "blocked_by"
            ? rel("blocks", n, me)
            : rel(kind === "blocks" ? "blocks" : kind === "relates_to" ? "relates_to" : "duplicates", me, n),
        )
        .catch((err: unknown) => setAddError(errorMessage(err))),
    );
  };
  return (
    <Section title="Relations" testId="sidebar-relations">
      {!any && <p className="px-2 text-subtle-foreground">None</p>}
      {groups
        .filter((g) => g.numbers.length > 0)
        .map((g) => (
          <div key={g.label} className="px-2 py-1" data-testid={g.testId}>
            <div className="text-xs text-subtle-foreground">{g.label}</div>
            <ul className="mt-0.5 space-y-0.5">
              {g.numbers.map((n) => (
                <li key={n} className="flex min-w-0 items-center gap-1" data-testid="relation" data-number={n}>
                  <IssueRef repo={repo} number={n} titles={titles} />
                  {canWrite && (
                    <button
                      type="button"
                      className="ml-auto px-1 text-subtle-foreground hover:text-danger"
                      aria-label={`Remove ${g.label.toLowerCase()} #${n}`}
                      onClick={() => void run(() => client.issues.removeRelation.mutate(g.remove(n)))}
                      data-testid="remove-relation"
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      {canWrite && (
        <div className="mt-2 flex items-center gap-2 px-2" data-testid="add-relation">
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger
              className={cx(input, "flex w-auto! items-center gap-1 py-1!")}
              aria-label={`Relation type: ${kindLabel}`}
              data-testid="relation-type"
            >
              {kindLabel} <ChevronDownIcon className="text-subtle-foreground" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="start">
              <DropdownMenuRadioGroup value={kind} onValueChange={(k) => setKind(k as RelKind)}>
                {REL_KINDS.map((k) => (
                  <DropdownMenuRadioItem key={k.key} value={k.key} data-testid={`relation-type-${k.key}`}>
                    {k.label}
                  </DropdownMenuRadioItem>
                ))}
              </DropdownMenuRadioGroup>
            </DropdownMenuContent>
          </DropdownMenu>
          <IssueSearch
            repoId={repo.id}
            exclude={[me, ...related]}
            label={`Add issue as ${kindLabel.toLowerCase()}`}
            testId="add-relation-search"
            invalid={!!addError}
            describedBy={addError ? addErrorId : undefined}
            onPick={(i) => void add(i.number)}
          >
            + Add issue…
          </IssueSearch>
        </div>
      )}
      {canWrite && addError && (
        <p id={addErrorId} className="mt-1 px-2 text-xs font-medium text-danger" data-testid="field-error">
          {addError}
        </p>
      )}
      {canWrite && issue.status !== "canceled" && (
        <div className="mt-3 px-2">
          <IssueSearch
            repoId={repo.id}
            exclude={[me]}
            label="Mark as duplicate of"
            testId="mark-duplicate"
            className="text-muted-foreground! hover:text-danger!"
            onPick={setCanonical}
          >
            Mark as duplicate…
          </IssueSearch>
          <ConfirmDialog
            open={canonical !== null}
            title="Mark as duplicate"
            confirmLabel="Mark as duplicate"
            onCancel={() => setCanonical(null)}
            onConfirm={() => {
              const c = canonical;
              setCanonical(null);
              if (c)
                void run(() => client.issues.markAsDuplicate.mutate({ repoId: repo.id, duplicateNumber: me, canonicalNumber: c.number }));
            }}
          >
            <p>
              #{me} will be closed as a duplicate (status Canceled) of{" "}
              <strong className="text-foreground" data-testid="canonical-choice">
                #{canonical?.number} {canonical?.title}
              </strong>
              .
            </p>
          </ConfirmDialog>
        </div>
      )}
    </Section>
  );
}
