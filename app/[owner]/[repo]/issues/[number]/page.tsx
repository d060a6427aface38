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
  const [comments, activity, subIssues, labels, assignees, projects, cycles] = await Promise.all([
    ctx.caller.issues.comments({ repoId, number: n }),
    ctx.caller.issues.getActivity({ repoId, number: n, limit: 200 }),
    ctx.caller.issues.getSubIssues({ repoId, number: n }),
    ctx.caller.issues.listLabels({ repoId }),
    ctx.caller.repos.assignees({ repoId }),
    ctx.caller.projects.list({ repoId }),
    ctx.caller.cycles.list({ repoId }),
  ]);
  // titles of the parent and related issues: one issues.list call for all of them
  const r = issue.relations;
  const linked = [
    ...new Set([
      ...(issue.parentNumber ? [issue.parentNumber] : []),
      ...r.blocking,
      ...r.blockedBy,
      ...r.related,
      ...r.duplicates,
      ...r.duplicatedBy,
    ]),
  ].slice(0, 30);
  const linkedIssues = linked.length ? await ctx.caller.issues.list({ repoId, numbers: linked, limit: 100 }) : [];
  const titles: Record<number, { title: string; status: string }> = {};
  for (const i of linkedIssues) if (i) titles[i.number] = { title: i.title, status: i.status };
  return (
    <IssuesShell repo={ctx.repo} section="issue">
      <IssueView
        repo={{ id: repoId, owner: ctx.repo.owner, name: ctx.repo.name }}
        issue={issue}
        comments={comments}
        activity={activity}
        subIssues={subIssues}
        labels={labels}
        titles={titles}
        me={ctx.me}
        canWrite={ctx.canWrite}
        assignees={assignees}
        projects={projects.map((p) => ({ id: p.id, name: p.name }))}
        cycles={cycles.map((c) => ({ id: c.id, number: c.number, name: c.name, timing: c.timing }))}
      />
    </IssuesShell>
  );
}
