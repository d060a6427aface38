import Link from "next/link";
import { card, cx } from "@/components/ui/styles";
import { TimeAgo } from "@/components/issues/ui";
import { loadPull, loadPullCommits, loadPullsContext } from "@/components/pulls/data";
import { CommitStatusIcon } from "@/components/statuses/commit-status";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/** The Commits tab: merge base..head, oldest first (pulls.getCommits), each linking to its commit page. */
export default async function PullCommitsPage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const { commits, totalCommits } = await loadPullCommits(ctx, pr.id);
  // statuses as posted to this repository (docs/ui.md "Commit statuses"), one call for the list
  const statuses = commits.length
    ? await ctx.caller.statuses.forCommits({ repoId: ctx.repo.id, shas: commits.slice(0, 200).map((c) => c.sha) }).catch(() => null)
    : null;
  if (totalCommits === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="pull-no-commits">
        No commits between {pr.targetBranch} and {pr.sourceBranch}.
      </p>
    );
  return (
    <ol className={cx(card, "divide-y divide-border")} data-testid="pull-commits">
      {commits.map((c) => (
        <li key={c.sha} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm" data-testid="pull-commit">
          <Link
            href={`/${ctx.repo.owner}/${ctx.repo.name}/commit/${c.sha}`}
            className="min-w-0 flex-1 font-medium text-foreground hover:text-primary [overflow-wrap:anywhere]"
          >
            {c.message.split("\n")[0]}
          </Link>
          <span className="text-xs text-subtle-foreground">
            {c.author} committed <TimeAgo iso={c.date} />
          </span>
          <CommitStatusIcon status={statuses?.[c.sha]} />
          <code className="font-mono text-xs text-muted-foreground">{c.sha.slice(0, 7)}</code>
        </li>
      ))}
    </ol>
  );
}
