import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadIssue, loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { IssueView } from "@/components/issues/issue-view";

type Params = Promise<{ owner: string; repo: string; number: string }>;

function parseNumber(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) notFound();
  return Number(raw);
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, number } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const issue = await loadIssue(ctx, parseNumber(number));
  return { title: `${issue.title} · Issue #${issue.number} · ${ctx.repo.fullName}` };
}

export default async function IssuePage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const n = parseNumber(number);
  const issue = await loadIssue(ctx, n);
  const repoId = ctx.repo.id;
  const [comments, activity, subIssues, labels] = await Promise.all([
    ctx.caller.issues.comments({ repoId, number: n }),
    ctx.caller.issues.getActivity({ repoId, number: n, limit: 200 }),
    ctx.caller.issues.getSubIssues({ repoId, number: n }),
    ctx.caller.issues.listLabels({ repoId }),
  ]);
  return (
    <IssuesShell repo={ctx.repo} section="issue">
      <IssueView
        repo={{ id: repoId, owner: ctx.repo.owner, name: ctx.repo.name }}
        issue={issue}
        comments={comments}
        activity={activity}
        subIssues={subIssues}
        labels={labels}
        me={ctx.me}
        canWrite={ctx.canWrite}
      />
    </IssuesShell>
  );
}
