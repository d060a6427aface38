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
  // the first page of every column with exact counts and estimate sums (a 10k-issue board opens fast)
  const data = await ctx.caller.issues.board({ repoId: ctx.repo.id });
  return (
    <IssuesShell repo={ctx.repo} section="board" wide>
      <Board repo={{ id: ctx.repo.id, owner: ctx.repo.owner, name: ctx.repo.name }} data={data} canWrite={ctx.canWrite} />
    </IssuesShell>
  );
}
