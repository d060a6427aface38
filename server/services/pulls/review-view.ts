/** Reviews as the API returns them (spec "Review" plus author, isStale, commentCount). */
import type { PullUser } from "./view";
import type { ReviewState } from "./review-schemas";

export interface ReviewView {
  id: string;
  author: PullUser | null;
  state: ReviewState;
  body: string | null;
  /** The head the reviewer saw. */
  commitSha: string;
  /**
   * The pull request revision (pulls.revisions `number`) the review was made on: the revision whose
   * head is `commitSha` (revision-of.ts, the rule comments use); null when none has that head.
   */
  revision: number | null;
  /**
   * The change has changed since: the head moved (commitSha ≠ headSha) to a revision with another
   * patch id (docs/pulls.md "Revisions"; a rebase that keeps the change is not stale).
   */
  isStale: boolean;
  createdAt: string;
  /** Comments that belong to the review (its inline comments). */
  commentCount: number;
  /** Set when the review was dismissed (pulls.dismissReview, or stale after a push): it no longer counts for the merge requirements. */
  dismissal: { reason: string; dismissedAt: string } | null;
}

/**
 * Maps a review row (author loaded, comments counted) against the current head `headSha`, with its
 * revision (revision-of.ts `reviewRevisions`); `stale` says whether a review of another head is
 * stale (revisions.ts `staleReviewCheck`; default: any other head is).
 */
export function toReviewView(
  r: {
    id: string;
    author: PullUser | null;
    state: string;
    body: string | null;
    commitSha: string;
    createdAt: Date;
    dismissedAt?: Date | null;
    dismissReason?: string | null;
    _count: { comments: number };
  },
  headSha: string,
  revision: number | null,
  stale: (reviewedSha: string) => boolean = (sha) => sha !== headSha,
): ReviewView {
  return {
    id: r.id,
    author: r.author,
    state: r.state as ReviewState,
    body: r.body,
    commitSha: r.commitSha,
    revision,
    isStale: r.commitSha !== headSha && stale(r.commitSha),
    createdAt: r.createdAt.toISOString(),
    commentCount: r._count.comments,
    dismissal: r.dismissedAt ? { reason: r.dismissReason ?? "", dismissedAt: r.dismissedAt.toISOString() } : null,
  };
}

export const reviewInclude = {
  author: { select: { id: true, username: true, name: true, isBot: true } },
  _count: { select: { comments: true } },
} as const;
