import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { NewIssueForm } from "@/components/issues/new-issue-form";
import { issuesUrl } from "@/components/issues/model";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `New issue · ${r.fullName}` };
}

export default async function NewIssuePage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  if (!ctx.me) redirect(`/signin?callbackUrl=${encodeURIComponent(issuesUrl(ctx.repo.owner, ctx.repo.name, "new"))}`);
  const [labels, templates, people] = await Promise.all([
    ctx.caller.issues.listLabels({ repoId: ctx.repo.id }),
    ctx.caller.issues.listTemplates({ repoId: ctx.repo.id }),
    ctx.caller.repos.assignees({ repoId: ctx.repo.id }),
  ]);
  return (
    <IssuesShell repo={ctx.repo} section="new">
      <NewIssueForm
        repo={{ id: ctx.repo.id, owner: ctx.repo.owner, name: ctx.repo.name }}
        labels={labels}
        templates={templates}
        canWrite={ctx.canWrite}
        people={people}
      />
    </IssuesShell>
  );
}
