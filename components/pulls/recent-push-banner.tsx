/**
 * "feature had recent pushes 3 minutes ago — Compare & pull request" (docs/pulls.md "Pages"), on
 * the repository page and the pull request list, for branches pushed in the last hour without an
 * open pull request (pulls.recentBranches; writers only).
 */
import Link from "next/link";
import { getServerCaller } from "@/server/auth/session";
import { button, container, cx } from "@/components/ui/styles";
import { BranchIcon } from "@/components/ui/icons";
import { TimeAgo } from "@/components/issues/ui";

export function compareUrl(owner: string, repo: string, base: string, head: string): string {
  return `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/compare/${base.split("/").map(encodeURIComponent).join("/")}...${head.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * In a fork whose parent the caller can read, the banner proposes the pull request into the
 * parent (`/<parent>/compare/<fork owner>:<branch>`, base: the parent's default branch), as
 * GitHub does; elsewhere into the repository's own default branch.
 */
export async function RecentPushBanner({
  repo,
  padded,
  className,
}: {
  repo: { id: string; owner: string; name: string; defaultBranch: string; parent?: { owner: string; name: string } | null };
  padded?: boolean;
  className?: string;
}) {
  let branches: { name: string; pushedAt: string }[] = [];
  try {
    branches = await (await getServerCaller()).pulls.recentBranches({ repoId: repo.id });
  } catch {
    return null;
  }
  if (branches.length === 0) return null;
  return (
    <div className={cx(padded && container, padded && "pt-6", "space-y-2", className)}>
      {branches.map((b) => (
        <div
          key={b.name}
          className="flex flex-wrap items-center gap-3 rounded-md border border-warning-border bg-warning-muted px-4 py-2 text-sm text-foreground"
          data-testid="recent-push-banner"
          data-branch={b.name}
        >
          <BranchIcon className="text-subtle-foreground" />
          <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
            <strong className="font-mono text-xs">{b.name}</strong> had recent pushes <TimeAgo iso={b.pushedAt} />
          </span>
          <Link
            href={
              repo.parent
                ? `/${encodeURIComponent(repo.parent.owner)}/${encodeURIComponent(repo.parent.name)}/compare/${encodeURIComponent(repo.owner)}:${b.name.split("/").map(encodeURIComponent).join("/")}`
                : compareUrl(repo.owner, repo.name, repo.defaultBranch, b.name)
            }
            className={button.primary}
            data-testid="compare-and-pull"
          >
            Compare &amp; pull request
          </Link>
        </div>
      ))}
    </div>
  );
}
