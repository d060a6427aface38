/**
 * One row of the pull request list (docs/pulls.md "Pages"): state icon, title, draft badge, labels,
 * number and byline, branches; and the two slots GitHub's rows have: the review decision (a word in
 * the byline) and the comment count (an icon with the number, on the right). A row without
 * `reviewDecision` / `commentCount` (both optional) shows nothing there: the slots never invent
 * data (components/pulls/model.ts `PullRowExtras`). Lists across repositories (the inbox, /inbox)
 * pass `showRepo`: the row then starts with `owner/name`, a link to that repository's pull
 * requests, as GitHub's global lists do.
 */
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/styles";
import { PrefetchLink } from "@/components/ui/prefetch-link";
import { CommentIcon, LabelChip, TimeAgo } from "@/components/issues/ui";
import { commentCountLabel, pullUrl, pullsUrl, reviewDecisionText, type PullRow } from "./model";
import { BranchLabel, PullStateIcon } from "./ui";

const DECISION_TONE = { approved: "text-primary", changes_requested: "text-danger", review_required: "text-subtle-foreground" } as const;

export function PullListRow({
  repo,
  pr,
  showRepo = false,
}: {
  repo: { owner: string; name: string };
  /** `viaTeam` (the inbox's awaiting review): the team ("org/slug") the review is requested from, shown as a badge. */
  pr: PullRow & { viaTeam?: string };
  showRepo?: boolean;
}) {
  const href = pullUrl(repo.owner, repo.name, pr.number);
  const decision = reviewDecisionText(pr.reviewDecision);
  const comments = commentCountLabel(pr.commentCount);
  return (
    <li className="flex items-start gap-3 px-4 py-3 hover:bg-muted" data-testid="pull-row" data-number={pr.number}>
      <span className="mt-0.5">
        <PullStateIcon pr={pr} />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {showRepo && (
            <PrefetchLink
              href={pullsUrl(repo.owner, repo.name)}
              className="text-sm text-muted-foreground hover:text-primary [overflow-wrap:anywhere]"
              data-testid="pull-repo"
            >
              {repo.owner}/{repo.name}
            </PrefetchLink>
          )}
          <PrefetchLink
            href={href}
            className="font-medium text-foreground hover:text-primary [overflow-wrap:anywhere]"
            data-testid="pull-title"
          >
            {pr.title}
          </PrefetchLink>
          {pr.isDraft && pr.state === "open" && <Badge data-testid="pull-draft">Draft</Badge>}
          {pr.viaTeam && (
            <Badge tone="primary" title={`review requested from team @${pr.viaTeam}`} data-testid="pull-via-team">
              @{pr.viaTeam}
            </Badge>
          )}
          {pr.labels.map((l) => (
            <LabelChip key={l.id} label={{ name: l.name, color: l.color, description: null }} />
          ))}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-subtle-foreground">
          <span>
            #{pr.number}{" "}
            {pr.state === "merged" && pr.mergedAt ? (
              <>
                merged <TimeAgo iso={pr.mergedAt} />
              </>
            ) : pr.state === "closed" && pr.closedAt ? (
              <>
                closed <TimeAgo iso={pr.closedAt} />
              </>
            ) : (
              <>
                opened <TimeAgo iso={pr.createdAt} />
              </>
            )}
            {pr.author && <> by {pr.author.username}</>}
          </span>
          {decision && pr.reviewDecision && (
            <span
              className={cx("font-medium", DECISION_TONE[pr.reviewDecision])}
              data-testid="pull-review-decision"
              data-decision={pr.reviewDecision}
            >
              · {decision}
            </span>
          )}
          <span className="inline-flex items-center gap-1">
            <BranchLabel name={pr.sourceBranch} /> → <BranchLabel name={pr.targetBranch} />
          </span>
        </div>
      </div>
      {comments && (
        <PrefetchLink
          href={href}
          className="mt-0.5 inline-flex shrink-0 items-center gap-1 text-xs text-muted-foreground hover:text-primary"
          aria-label={comments}
          data-testid="pull-comment-count"
        >
          <CommentIcon />
          {pr.commentCount}
        </PrefetchLink>
      )}
    </li>
  );
}
