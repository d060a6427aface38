/** The frame of every issue page: repository header (Issues tab) and the Issues / Board / Triage / Projects / Cycles sub-navigation. */
import Link from "next/link";
import type { RepoData } from "@/components/code/data";
import { button, container, cx } from "@/components/ui/styles";
import { issuesUrl } from "./model";

export type IssuesSection = "list" | "board" | "triage" | "issue" | "new" | "projects" | "cycles";

/** `wide`: the content spans the viewport instead of the page column (the board: all 7 columns' worth of width at 1440 px). */
export function IssuesShell({
  repo,
  section,
  children,
  actions,
  wide,
}: {
  repo: RepoData;
  section: IssuesSection;
  children: React.ReactNode;
  actions?: React.ReactNode;
  wide?: boolean;
}) {
  const item = (key: IssuesSection, href: string, label: string, testId: string) => (
    <Link
      href={href}
      className={cx(
        "rounded-md px-3 py-1.5 text-sm font-medium",
        section === key ? "bg-foreground text-background" : "text-muted-foreground hover:bg-muted",
      )}
      aria-current={section === key ? "page" : undefined}
      data-testid={testId}
    >
      {label}
    </Link>
  );
  const canCreate = repo.permission !== "none";
  return (
    <>
      <div className={cx(wide ? "w-full px-4 sm:px-6" : container, "py-6")}>
        <div className="mb-5 flex flex-wrap items-center gap-2">
          <nav className="flex flex-wrap items-center gap-1 rounded-lg border border-border bg-card p-1" aria-label="Issues">
            {item("list", issuesUrl(repo.owner, repo.name), "Issues", "issues-nav-list")}
            {item("board", issuesUrl(repo.owner, repo.name, "board"), "Board", "issues-nav-board")}
            {item("triage", issuesUrl(repo.owner, repo.name, "triage"), "Triage", "issues-nav-triage")}
            {item("projects", `/${repo.owner}/${repo.name}/projects`, "Projects", "issues-nav-projects")}
            {item("cycles", `/${repo.owner}/${repo.name}/cycles`, "Cycles", "issues-nav-cycles")}
          </nav>
          <div className="ml-auto flex items-center gap-2">
            {actions}
            {canCreate && section !== "new" && (
              <Link href={issuesUrl(repo.owner, repo.name, "new")} className={button.primary} data-testid="new-issue-button">
                New issue
              </Link>
            )}
          </div>
        </div>
        {children}
      </div>
    </>
  );
}
