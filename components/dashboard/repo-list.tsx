/**
 * Dashboard "Your repositories" (docs/ui.md "Pages"): repositories the signed-in user owns or
 * collaborates on (repos.list {member: true}), each with the user's role, paged by the page's
 * ?page=. Server component.
 */
import Link from "next/link";
import type { RepoView } from "@/server/services/repos/repo-view";
import { badge, button, card, cx } from "@/components/ui/styles";
import { BranchIcon, LockIcon, RepoIcon } from "@/components/ui/icons";
import { fullDate, relativeTime } from "@/components/ui/format";
import { PrefetchLink } from "@/components/ui/prefetch-link";

/** The role label shown next to a repository: "Owner" for one's own, else the collaborator role. */
export function roleLabel(repo: Pick<RepoView, "owner" | "permission">, username: string): string {
  if (repo.owner.toLowerCase() === username.toLowerCase()) return "Owner";
  return { admin: "Admin", write: "Write", read: "Read", none: "Read" }[repo.permission];
}

export function RepoList({ repos, username, page }: { repos: RepoView[]; username: string; page: number }) {
  if (repos.length === 0 && page > 1) {
    return (
      <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")}>
        No repositories on this page.{" "}
        <Link href="/" className="font-medium text-primary hover:underline">
          Back to the first page
        </Link>
      </div>
    );
  }
  if (repos.length === 0) {
    return (
      <div className={cx(card, "px-6 py-12 text-center")} data-testid="repos-empty">
        <RepoIcon className="h-8! w-8! text-subtle-foreground" />
        <h2 className="mt-3 font-semibold">No repositories yet</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Create one, then push to it with git. Repositories you are added to as a collaborator appear here too.
        </p>
        <Link href="/new" className={cx(button.primary, "mt-4")}>
          Create a repository
        </Link>
      </div>
    );
  }
  return (
    <ul className={cx(card, "divide-y divide-border")} data-testid="repo-list">
      {repos.map((r) => (
        <li key={r.id} className="px-4 py-4 sm:px-5">
          <div className="flex flex-wrap items-center gap-2">
            <PrefetchLink href={`/${r.owner}/${r.name}`} className="font-semibold text-primary hover:underline">
              {r.owner}/<span className="font-bold">{r.name}</span>
            </PrefetchLink>
            <span
              className={cx(
                badge,
                r.isPrivate ? "border-warning-border bg-warning-muted text-warning" : "border-input text-muted-foreground",
              )}
            >
              {r.isPrivate && <LockIcon className="mr-1 h-3! w-3!" />}
              {r.isPrivate ? "Private" : "Public"}
            </span>
            <span className={cx(badge, "border-input text-muted-foreground")} data-testid="repo-role">
              {roleLabel(r, username)}
            </span>
          </div>
          {r.description && <p className="mt-1 text-sm text-muted-foreground">{r.description}</p>}
          <div className="mt-2 flex flex-wrap items-center gap-4 text-xs text-subtle-foreground">
            <span className="inline-flex items-center gap-1">
              <BranchIcon className="h-3.5! w-3.5!" /> {r.defaultBranch}
            </span>
            <span title={fullDate(r.pushedAt ?? r.updatedAt)}>
              {r.pushedAt ? `Pushed ${relativeTime(r.pushedAt)}` : `Created ${relativeTime(r.createdAt)}`}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
