import type { Metadata } from "next";
import { orNull } from "@/components/code/data";
import { IssueMarkdown } from "@/components/issues/markdown";
import { loadPull, loadPullCommits, loadPullsContext } from "@/components/pulls/data";
import { PullActions, PullBody, PullTimeline } from "@/components/pulls/conversation";
import { MergeBox } from "@/components/pulls/merge-box";
import { StackNavigator } from "@/components/pulls/stack-navigator";

type Params = Promise<{ owner: string; repo: string; number: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  return { title: `${pr.title} · Pull request #${pr.number} · ${ctx.repo.fullName}` };
}

/** The Conversation tab: description, timeline, merge box and actions (issue #8). */
export default async function PullConversationPage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const isAuthor = !!ctx.me && pr.authorId === ctx.me.id;
  const [events, commits, mergeability] = await Promise.all([
    ctx.caller.pulls.timeline({ prId: pr.id }),
    loadPullCommits(ctx, pr.id).catch(() => ({ commits: [], totalCommits: 0 })),
    pr.state === "open" ? orNull(ctx.caller.pulls.checkMergeability({ prId: pr.id })) : Promise.resolve(null),
  ]);
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="min-w-0 space-y-6">
        <PullBody pr={pr} canEdit={ctx.canWrite || isAuthor} rendered={<IssueMarkdown source={pr.body ?? ""} repo={ctx.repo} testId="pull-body-markdown" />} />
        <PullTimeline events={events} />
        {pr.state === "open" && mergeability && (
          <MergeBox
            repo={ctx.repo}
            pr={pr}
            initial={mergeability}
            canMerge={ctx.canWrite}
            commits={commits.commits.map((c) => ({ message: c.message, author: c.author }))}
            sourceOwner={pr.sourceRepo?.owner ?? ctx.repo.owner}
            sameRepo={!pr.sourceRepo}
          />
        )}
        <PullActions pr={pr} canClose={ctx.canWrite || isAuthor} canReopen={(ctx.canWrite || isAuthor) && !pr.sourceDeleted} />
      </div>
      <aside className="min-w-0 space-y-4 text-sm">
        {pr.stack && <StackNavigator repo={ctx.repo} stack={pr.stack} />}
        <div>
          <h2 className="text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Reviewers</h2>
          <p className="mt-1 text-muted-foreground" data-testid="pull-reviewers">{pr.requestedReviewers ? `${pr.requestedReviewers} requested` : "No reviews requested"}</p>
        </div>
        <div>
          <h2 className="text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Labels</h2>
          <p className="mt-1 text-muted-foreground">{pr.labels.length ? pr.labels.map((l) => l.name).join(", ") : "None yet"}</p>
        </div>
      </aside>
    </div>
  );
}
