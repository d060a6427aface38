import type { Metadata } from "next";
import { orNull } from "@/components/code/data";
import { IssueMarkdown } from "@/components/issues/markdown";
import { loadPull, loadPullCommits, loadPullsContext } from "@/components/pulls/data";
import { PullActions, PullBody } from "@/components/pulls/conversation";
import { PullCommentBox, PullTimeline } from "@/components/pulls/conversation-timeline";
import { PullSidebar } from "@/components/pulls/pull-sidebar";
import { TeamReviewers } from "@/components/pulls/team-reviewers";
import { MergeBox } from "@/components/pulls/merge-box";
import { MergedBox } from "@/components/pulls/merged-box";
import { StackNavigator } from "@/components/pulls/stack-navigator";
import { AiReviewPanel } from "@/components/pulls/ai-review-panel";
import { SinceReviewBanner } from "@/components/pulls/revision-picker";
import { rangeHref } from "@/components/pulls/revision-range";

type Params = Promise<{ owner: string; repo: string; number: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  return { title: `${pr.title} · Pull request #${pr.number} · ${ctx.repo.fullName}` };
}

/**
 * The Conversation tab: description, timeline (events, reviews, threads), comment box, merge box and actions (docs/pulls.md "Pages"); the sidebar (AI review, reviewers, labels) comes first on phones.
 * A reader whose last review was on an older revision, when files changed since, gets the "N files changed since your review" banner (docs/ui.md "Revision picker").
 */
export default async function PullConversationPage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const isAuthor = !!ctx.me && pr.authorId === ctx.me.id;
  const repoId = ctx.repo.id;
  const [
    events,
    reviews,
    threads,
    reviewers,
    repoLabels,
    people,
    commits,
    mergeability,
    aiReview,
    headBranch,
    checks,
    since,
    teamRequests,
    orgTeams,
  ] = await Promise.all([
    ctx.caller.pulls.timeline({ prId: pr.id }),
    ctx.caller.pulls.reviews({ prId: pr.id }),
    ctx.caller.pulls.comments({ prId: pr.id }),
    ctx.caller.pulls.reviewers({ prId: pr.id }),
    ctx.canWrite ? ctx.caller.issues.listLabels({ repoId }) : Promise.resolve([]),
    ctx.me ? ctx.caller.repos.assignees({ repoId }) : Promise.resolve([]),
    loadPullCommits(ctx, pr.id).catch(() => ({ commits: [], totalCommits: 0 })),
    pr.state === "open" ? orNull(ctx.caller.pulls.checkMergeability({ prId: pr.id })) : Promise.resolve(null),
    orNull(ctx.caller.pulls.getAIReview({ prId: pr.id })),
    pr.state !== "open" && ctx.me ? orNull(ctx.caller.pulls.headBranch({ prId: pr.id })) : Promise.resolve(null),
    pr.state === "open" ? orNull(ctx.caller.statuses.combined({ repoId, sha: pr.headSha })) : Promise.resolve(null),
    // the reader's changes since their last review (the Files tab's banner's own computation)
    ctx.me ? orNull(ctx.caller.pulls.sinceReview({ prId: pr.id })) : Promise.resolve(null),
    ctx.caller.pulls.teamReviewers({ prId: pr.id }),
    // the teams a writer may request: the owning organization's (NOT_FOUND for a personal repository or a non-member)
    ctx.canWrite && pr.state === "open" ? orNull(ctx.caller.teams.list({ org: ctx.repo.owner })) : Promise.resolve(null),
  ]);
  const filesHref = `/${encodeURIComponent(ctx.repo.owner)}/${encodeURIComponent(ctx.repo.name)}/pulls/${pr.number}/files`;
  const repoRef = { id: ctx.repo.id, owner: ctx.repo.owner, name: ctx.repo.name };
  // force-push events link to their range on the Files tab; revisions are read only when there are any
  const revisions = events.some((e) => e.type === "force_pushed")
    ? (await ctx.caller.pulls.revisions({ prId: pr.id }).catch(() => [])).map((r) => ({ number: r.number, headSha: r.headSha }))
    : [];
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="order-2 min-w-0 space-y-6 lg:order-1">
        {since && since.files !== null && since.files > 0 && (
          <SinceReviewBanner files={since.files} href={rangeHref(filesHref, since)} className="mb-0" />
        )}
        <PullBody
          pr={pr}
          canEdit={ctx.canWrite || isAuthor}
          rendered={<IssueMarkdown source={pr.body ?? ""} repo={ctx.repo} testId="pull-body-markdown" />}
        />
        <PullTimeline
          events={events}
          reviews={reviews}
          threads={threads}
          repo={repoRef}
          revisions={revisions}
          filesHref={filesHref}
          reader={{
            prId: pr.id,
            me: ctx.me && { id: ctx.me.id, username: ctx.me.username },
            canWrite: ctx.canWrite,
            open: pr.state === "open",
          }}
        />
        {pr.state === "open" && mergeability && (
          <MergeBox
            repo={ctx.repo}
            pr={pr}
            initial={mergeability}
            canMerge={ctx.canWrite}
            canMarkReady={ctx.canWrite || isAuthor}
            commits={commits.commits.map((c) => ({ sha: c.sha, message: c.message, author: c.author, authorEmail: c.authorEmail }))}
            sourceOwner={pr.sourceRepo?.owner ?? ctx.repo.owner}
            sameRepo={!pr.sourceRepo}
            checks={checks}
          />
        )}
        {headBranch && (headBranch.canDelete || headBranch.canRestore || headBranch.canRevert) && (
          <MergedBox repo={ctx.repo} pr={pr} initial={headBranch} />
        )}
        {ctx.me && <PullCommentBox prId={pr.id} repo={repoRef} people={people} />}
        <PullActions pr={pr} canClose={ctx.canWrite || isAuthor} canReopen={(ctx.canWrite || isAuthor) && !pr.sourceDeleted} />
      </div>
      <PullSidebar
        prId={pr.id}
        authorId={pr.authorId}
        labels={pr.labels}
        reviewers={reviewers}
        people={people}
        repoLabels={repoLabels}
        canWrite={ctx.canWrite}
        teamReviewers={
          teamRequests.length > 0 || (orgTeams?.length ?? 0) > 0 ? (
            <TeamReviewers
              prId={pr.id}
              requests={teamRequests}
              teams={(orgTeams ?? []).map((t) => ({ slug: t.slug, name: t.name }))}
              canWrite={ctx.canWrite && pr.state === "open"}
            />
          ) : undefined
        }
      >
        {pr.stack && <StackNavigator repo={ctx.repo} stack={pr.stack} />}
        <AiReviewPanel
          prId={pr.id}
          initial={aiReview}
          canTrigger={pr.state === "open" && (ctx.canWrite || isAuthor)}
          repo={ctx.repo}
          number={pr.number}
        />
      </PullSidebar>
    </div>
  );
}
