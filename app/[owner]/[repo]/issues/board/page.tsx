import type { Metadata } from "next";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { Board } from "@/components/issues/board";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Board · ${r.fullName}` };
}

export default async function BoardPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const grouped = await ctx.caller.issues.listGroupedByStatus({ repoId: ctx.repo.id });
  return (
    <IssuesShell repo={ctx.repo} section="board">
      <Board repo={{ id: ctx.repo.id, owner: ctx.repo.owner, name: ctx.repo.name }} grouped={grouped} canWrite={ctx.canWrite} />
    </IssuesShell>
  );
}
