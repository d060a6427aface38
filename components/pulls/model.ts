/**
 * Types and pure helpers of the pull request pages (no React, no database). Unit-tested in
 * test/unit/ui-pulls.test.ts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["pulls"];
export type Pull = Outputs["list"][number];
export type PullDetail = Outputs["get"];
export type PullCounts = Outputs["counts"];

/**
 * A pull request's review decision as GitHub's list shows it (its `reviewDecision`): approved,
 * changes requested, or review required (reviewers were requested and none approved yet).
 * pulls.list and the inbox compute it in their statement (server/services/pulls/list-pull-requests.ts).
 */
export type ReviewDecision = "approved" | "changes_requested" | "review_required";

/**
 * What a pull request list row shows beyond the spec's Pull (the comment count and review status,
 * filled by pulls.list and the inbox; docs/pulls.md "Pages"). Both are optional: a row without
 * them renders nothing in their place (never a made-up 0).
 * - `commentCount`: conversation comments plus review comments; shown when > 0, as on GitHub.
 * - `reviewDecision`: shown as a word in the byline (Approved, Changes requested, Review required).
 */
export interface PullRowExtras {
  commentCount?: number | null;
  reviewDecision?: ReviewDecision | null;
}

/** A row of the pull request list: pulls.list's Pull plus the optional extras. */
export type PullRow = Pull & PullRowExtras;

const DECISION_TEXT: Record<ReviewDecision, string> = {
  approved: "Approved",
  changes_requested: "Changes requested",
  review_required: "Review required",
};

/** The byline word for a review decision, or null when there is none (or an unknown value). */
export function reviewDecisionText(decision: ReviewDecision | null | undefined): string | null {
  return (decision && DECISION_TEXT[decision]) || null;
}

/** "3 comments" / "1 comment" for a row's comment count, or null when absent or zero (GitHub shows no icon then). */
export function commentCountLabel(count: number | null | undefined): string | null {
  if (typeof count !== "number" || !Number.isFinite(count) || count <= 0) return null;
  return `${count} comment${count === 1 ? "" : "s"}`;
}

/** Rows per page of the pull request list. */
export const PULLS_PAGE_SIZE = 25;

export type PullListState = "open" | "closed" | "merged";

export function pullsUrl(owner: string, repo: string): string {
  return `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls`;
}

export function pullUrl(owner: string, repo: string, number: number, tab: "" | "commits" | "files" | "conflicts" = ""): string {
  return `${pullsUrl(owner, repo)}/${number}${tab ? `/${tab}` : ""}`;
}

/** The list page's state from `?state=`: open (default), closed or merged. */
export function listState(value: string | string[] | undefined): PullListState {
  return value === "closed" || value === "merged" ? value : "open";
}

/** The list page's 1-based page from `?page=`, clamped to [1, pageCount]. */
export function listPage(value: string | string[] | undefined, total: number): { page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(total / PULLS_PAGE_SIZE));
  const n = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return { page: Math.min(Math.max(1, n), pageCount), pageCount };
}

/** `?state=…&author=…&page=…` for the list, leaving out defaults. */
export function listHref(base: string, q: { state?: PullListState; author?: string | null; page?: number }): string {
  const p = new URLSearchParams();
  if (q.state && q.state !== "open") p.set("state", q.state);
  if (q.author) p.set("author", q.author);
  if (q.page && q.page > 1) p.set("page", String(q.page));
  const s = p.toString();
  return s ? `${base}?${s}` : base;
}

/** "wants to merge 3 commits into main from feature" / "merged 3 commits into main from feature" (GitHub's sentence). */
export function mergeSentence(pr: { state: string }, commits: number): string {
  const n = `${commits} commit${commits === 1 ? "" : "s"}`;
  return pr.state === "merged" ? `merged ${n} into` : `wants to merge ${n} into`;
}

/** The title GitHub proposes: the subject of a single commit, else the branch name in words. */
export function suggestedTitle(branch: string, commits: { message: string }[]): string {
  if (commits.length === 1) return commits[0].message.split("\n")[0].slice(0, 256);
  const words = branch.split("/").pop()!.replace(/[-_]+/g, " ").trim();
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, 256) || branch.slice(0, 256);
}

/**
 * The description the compare page prefills, as GitHub's: one commit → its body (the message
 * after the subject line and the blank lines that follow it); several → empty (their subjects are
 * listed above the form already, and a long branch made a description of hundreds of lines).
 */
export function suggestedBody(commits: { message: string }[]): string {
  if (commits.length !== 1) return "";
  return commits[0].message
    .split("\n")
    .slice(1)
    .join("\n")
    .replace(/^\s*\n/, "")
    .trimEnd();
}

/** A review as pulls.reviews lists it (author, state, body, isStale…). */
export type PullReview = Outputs["reviews"][number];
/** A comment thread as pulls.comments lists it (replies nested, isOutdated, diffHunk…). */
export type PullThread = Outputs["comments"][number];
/** A requested or past reviewer with their latest state (pulls.reviewers). */
export type PullReviewer = Outputs["reviewers"][number];
