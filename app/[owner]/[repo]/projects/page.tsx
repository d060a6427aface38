import type { Metadata } from "next";
import Link from "next/link";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { Progress } from "@/components/planning/progress";
import { NewProjectButton } from "@/components/planning/new-project";
import { ProjectIcon } from "@/components/ui/icons-planning";
import { card, cx } from "@/components/ui/styles";
import { shortDate } from "@/components/ui/format";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Projects · ${r.fullName}` };
}

/** /<owner>/<repo>/projects (docs/ui.md "Pages"): projects with exact progress (projects.list), New project for writers. */
export default async function ProjectsPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const projects = await ctx.caller.projects.list({ repoId: ctx.repo.id });
  const base = `/${ctx.repo.owner}/${ctx.repo.name}/projects`;
  return (
    <IssuesShell
      repo={ctx.repo}
      section="projects"
      actions={ctx.canWrite ? <NewProjectButton repoId={ctx.repo.id} baseHref={base} /> : undefined}
    >
      {projects.length === 0 ? (
        <div className={cx(card, "px-6 py-12 text-center")} data-testid="no-projects">
          <ProjectIcon className="h-8! w-8! text-subtle-foreground" />
          <h2 className="mt-3 font-semibold">No projects yet</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {ctx.canWrite
              ? "Create a project to group issues toward one goal and follow its progress."
              : "Projects group issues toward one goal; none were created here."}
          </p>
        </div>
      ) : (
        <ul className={cx(card, "divide-y divide-border")} data-testid="projects-list">
          {projects.map((p) => (
            <li
              key={p.id}
              className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_16rem] sm:items-center sm:gap-6"
              data-testid="project-row"
              data-name={p.name}
            >
              <div className="min-w-0">
                <Link
                  href={`${base}/${p.id}`}
                  className="inline-flex max-w-full items-center gap-2 font-semibold text-foreground hover:text-primary hover:underline"
                >
                  <ProjectIcon className="text-subtle-foreground" />
                  <span className="truncate">{p.name}</span>
                </Link>
                <div className="mt-0.5 text-xs text-subtle-foreground">
                  {p.issues.total} issue{p.issues.total === 1 ? "" : "s"} · {p.issues.open} open · created {shortDate(p.createdAt)}
                </div>
              </div>
              <Progress counts={p.issues} label={`Progress of ${p.name}`} />
            </li>
          ))}
        </ul>
      )}
    </IssuesShell>
  );
}
