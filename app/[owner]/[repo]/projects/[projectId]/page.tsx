import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { orNotFound } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { Progress } from "@/components/planning/progress";
import { IssueRows } from "@/components/planning/issue-rows";
import { AddIssuePicker, RemoveIssueButton, type PlanTarget } from "@/components/planning/plan-controls";
import { ProjectIcon } from "@/components/ui/icons-planning";
import { issuesUrl } from "@/components/issues/model";

type Params = Promise<{ owner: string; repo: string; projectId: string }>;
/** Issues shown per state on a project page. */
const LIMIT = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const loadProject = cache(async (owner: string, repo: string, rawId: string) => {
  const ctx = await loadIssuesContext(owner, repo);
  const projectId = decodeSegment(rawId);
  if (!UUID.test(projectId)) notFound();
  const project = await orNotFound(ctx.caller.projects.get({ repoId: ctx.repo.id, projectId }));
  return { ctx, project };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, projectId } = await params;
  const { ctx, project } = await loadProject(owner, repo, projectId);
  return { title: `${project.name} · Projects · ${ctx.repo.fullName}` };
}

/** /<owner>/<repo>/projects/<id> (docs/ui.md "Pages"): the project's progress and its open and closed issues. */
export default async function ProjectPage({ params }: { params: Params }) {
  const { owner, repo, projectId } = await params;
  const { ctx, project } = await loadProject(owner, repo, projectId);
  const [open, closed, recent] = await Promise.all([
    ctx.caller.issues.list({ repoId: ctx.repo.id, project: project.name, state: "open", limit: LIMIT }),
    ctx.caller.issues.list({ repoId: ctx.repo.id, project: project.name, state: "closed", limit: LIMIT }),
    // writers may add any of the newest open issues that are not in it yet
    ctx.canWrite ? ctx.caller.issues.list({ repoId: ctx.repo.id, state: "open", limit: LIMIT }) : Promise.resolve([]),
  ]);
  const target: PlanTarget = { kind: "project", id: project.id, label: project.name };
  const candidates = recent.filter((i) => i.projectId !== project.id).map((i) => ({ number: i.number, title: i.title }));
  const remove = ctx.canWrite
    ? (i: { number: number }) => <RemoveIssueButton repoId={ctx.repo.id} target={target} number={i.number} />
    : undefined;
  const more = (shown: number, total: number) =>
    total > shown ? (
      <p className="mt-2 text-xs text-subtle-foreground">
        Showing the newest {shown} of {total}.
      </p>
    ) : null;
  return (
    <IssuesShell repo={ctx.repo} section="projects">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href={`/${ctx.repo.owner}/${ctx.repo.name}/projects`} className="text-primary hover:underline">
          Projects
        </Link>
      </nav>
      <header className="mb-6 space-y-3" data-testid="project-header">
        <h1 className="flex min-w-0 items-center gap-2 text-2xl font-semibold tracking-tight">
          <ProjectIcon className="h-5! w-5! text-subtle-foreground" />
          <span className="min-w-0 break-words">{project.name}</span>
        </h1>
        <Progress counts={project.issues} label={`Progress of ${project.name}`} className="max-w-md" />
        <p className="text-sm text-muted-foreground">
          {project.issues.total} issue{project.issues.total === 1 ? "" : "s"}: {project.issues.open} open, {project.issues.done} done
          {project.issues.canceled ? `, ${project.issues.canceled} canceled (not counted in progress)` : ""}.{" "}
          {ctx.canWrite && (
            <Link href={issuesUrl(ctx.repo.owner, ctx.repo.name, "new")} className="font-medium text-primary hover:underline">
              New issue
            </Link>
          )}
        </p>
        {ctx.canWrite && <AddIssuePicker repoId={ctx.repo.id} target={target} candidates={candidates} />}
      </header>
      <section aria-labelledby="project-open" className="mb-6">
        <h2 id="project-open" className="mb-2 font-semibold">
          Open <span className="text-sm font-normal text-subtle-foreground">{project.issues.open}</span>
        </h2>
        <IssueRows issues={open} owner={ctx.repo.owner} repo={ctx.repo.name} empty="No open issues in this project." action={remove} />
        {more(open.length, project.issues.open)}
      </section>
      <section aria-labelledby="project-closed">
        <h2 id="project-closed" className="mb-2 font-semibold">
          Closed <span className="text-sm font-normal text-subtle-foreground">{project.issues.total - project.issues.open}</span>
        </h2>
        <IssueRows issues={closed} owner={ctx.repo.owner} repo={ctx.repo.name} empty="No closed issues yet." action={remove} />
        {more(closed.length, project.issues.total - project.issues.open)}
      </section>
    </IssuesShell>
  );
}
