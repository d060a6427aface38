import type { Metadata } from "next";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { TriageQueue } from "@/components/issues/triage";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Triage · ${r.fullName}` };
}

export default async function TriagePage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const repoId = ctx.repo.id;
  // the property pickers are the writers' only
  const [queue, labels, people] = await Promise.all([
    ctx.caller.issues.listTriage({ repoId, limit: 100 }),
    ctx.canWrite ? ctx.caller.issues.listLabels({ repoId }) : [],
    ctx.canWrite ? ctx.caller.repos.assignees({ repoId }) : [],
  ]);
  return (
    <IssuesShell repo={ctx.repo} section="triage">
      <TriageQueue
        repo={{ id: repoId, owner: ctx.repo.owner, name: ctx.repo.name }}
        initial={queue}
        canWrite={ctx.canWrite}
        labels={labels}
        people={people}
      />
    </IssuesShell>
  );
}
