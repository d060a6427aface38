/**
 * A user's repositories on their profile (docs/ui.md "Pages"): what `repos.list {owner}` shows the
 * viewer — public ones to everybody, plus private ones the viewer can read. Server component.
 */
import Link from "next/link";
import type { RepoView } from "@/server/services/repos/repo-view";
import { Badge } from "@/components/ui/badge";
import { card, cx } from "@/components/ui/styles";
import { BranchIcon, LockIcon, RepoIcon } from "@/components/ui/icons";
import { fullDate, relativeTime } from "@/components/ui/format";

export function ProfileRepos({ repos, username, isSelf, page }: { repos: RepoView[]; username: string; isSelf: boolean; page: number }) {
  if (repos.length === 0) {
    return (
      <div className={cx(card, "px-6 py-12 text-center")} data-testid="profile-repos-empty">
        <RepoIcon className="h-8! w-8! text-subtle-foreground" />
        <h2 className="mt-3 font-semibold">
          {page > 1 ? "No repositories on this page" : isSelf ? "You have no repositories yet" : `${username} has no public repositories`}
        </h2>
        {isSelf && page === 1 && (
          <p className="mt-1 text-sm text-muted-foreground">
            <Link href="/new" className="font-medium text-primary hover:underline">
              Create a repository
            </Link>{" "}
            and push to it with git.
          </p>
        )}
      </div>
    );
  }
  return (
    <ul className={cx(card, "divide-y divide-border")} data-testid="profile-repos">
      {repos.map((r) => (
        <li key={r.id} className="px-4 py-4 sm:px-5" data-testid="profile-repo" data-name={r.name}>
          <div className="flex flex-wrap items-center gap-2">
            <Link href={`/${r.owner}/${r.name}`} className="min-w-0 break-all font-semibold text-primary hover:underline">
              {r.name}
            </Link>
            <Badge tone={r.isPrivate ? "warning" : "neutral"}>
              {r.isPrivate && <LockIcon className="h-3! w-3!" />}
              {r.isPrivate ? "Private" : "Public"}
            </Badge>
          </div>
          {r.description && <p className="mt-1 break-words text-sm text-muted-foreground">{r.description}</p>}
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
