import type { Metadata } from "next";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { Board } from "@/components/issues/board";
import { parseGroup } from "@/components/issues/board-group";
import { parseRows } from "@/components/issues/board-lanes";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Board · ${r.fullName}` };
}

export default async function BoardPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { owner, repo } = await params;
  const query = await searchParams;
  const group = parseGroup(query.group);
  const rows = parseRows(query.rows, group);
  const ctx = await loadIssuesContext(owner, repo);
  // by status: the first page of every column with exact counts and estimate sums (a 10k-issue
  // board opens fast); other groupings and swimlanes load on the client (components/issues/use-board-grouped.ts)
  const data = group === "status" && rows === "none" ? await ctx.caller.issues.board({ repoId: ctx.repo.id }) : null;
  return (
    <IssuesShell repo={ctx.repo} section="board" wide>
      <Board
        repo={{ id: ctx.repo.id, owner: ctx.repo.owner, name: ctx.repo.name }}
        data={data}
        canWrite={ctx.canWrite}
        group={group}
        rows={rows}
      />
    </IssuesShell>
  );
}
