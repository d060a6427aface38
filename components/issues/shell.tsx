/** The frame of every issue page: repository header (Issues tab) and the Issues / Board / Triage sub-navigation. */
import Link from "next/link";
import { RepoHeader } from "@/components/code/parts";
import type { RepoData } from "@/components/code/data";
import { button, container, cx } from "@/components/ui/styles";
import { issuesUrl } from "./model";

export type IssuesSection = "list" | "board" | "triage" | "issue" | "new";

export function IssuesShell({ repo, section, children, actions }: { repo: RepoData; section: IssuesSection; children: React.ReactNode; actions?: React.ReactNode }) {
  const item = (key: IssuesSection, href: string, label: string, testId: string) => (
    <Link
      href={href}
      className={cx("rounded-md px-3 py-1.5 text-sm font-medium", section === key ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100")}
      aria-current={section === key ? "page" : undefined}
      data-testid={testId}
    >
      {label}
    </Link>
  );
  const canCreate = repo.permission !== "none";
  return (
    <>
      <RepoHeader repo={repo} tab="issues" />
      <div className={cx(container, "py-6")}>
        <div className="mb-5 flex flex-wrap items-center gap-2">
          <nav className="flex flex-wrap items-center gap-1 rounded-lg border border-slate-200 bg-white p-1" aria-label="Issues">
            {item("list", issuesUrl(repo.owner, repo.name), "Issues", "issues-nav-list")}
            {item("board", issuesUrl(repo.owner, repo.name, "board"), "Board", "issues-nav-board")}
            {item("triage", issuesUrl(repo.owner, repo.name, "triage"), "Triage", "issues-nav-triage")}
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
