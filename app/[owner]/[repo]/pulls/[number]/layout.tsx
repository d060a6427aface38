import { notFound } from "next/navigation";
import { container, cx } from "@/components/ui/styles";
import { loadPull, loadPullCommits, loadPullsContext } from "@/components/pulls/data";
import { PullHeader } from "@/components/pulls/pull-header";
import { LiveUpdates } from "@/components/pulls/live-updates";
import { SubscribeButton } from "@/components/notifications/subscribe-button";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/**
 * Every tab of a pull request: the header (title, state, branches, tabs) above the tab. The pull
 * request is loaded here, before anything streams, so a missing number is a real 404.
 */
export default async function PullLayout({ params, children }: { params: Params; children: React.ReactNode }) {
  const { owner, repo, number } = await params;
  if (!/^[1-9]\d{0,9}$/.test(number) || Number(number) > 2_147_483_647) notFound();
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const commits = await loadPullCommits(ctx, pr.id).then(
    (c) => c.totalCommits,
    () => 0,
  );
  const isAuthor = !!ctx.me && pr.authorId === ctx.me.id;
  return (
    <div className={cx(container, "py-6")} data-testid="pull-page" data-number={pr.number}>
      <PullHeader
        repo={ctx.repo}
        pr={{ ...pr, sourceOwner: pr.sourceRepo?.owner ?? null, mergedBy: pr.mergedBy?.username ?? null }}
        canEdit={ctx.canWrite || isAuthor}
        commits={commits}
        files={null}
      />
      <LiveUpdates pullRequestId={pr.id} />
      {ctx.me && (
        <div className="mt-3 flex justify-end">
          <SubscribeButton subjectType="pull_request" subjectId={pr.id} />
        </div>
      )}
      <div className="mt-6">{children}</div>
    </div>
  );
}
