/**
 * Types and pure helpers of the inbox page, /inbox (docs/pulls.md "Inbox" and
 * "The inbox page"): which list, which repository, which state and page the URL asks for, and
 * the links back. No React, no database; unit-tested in test/unit/ui-inbox.test.ts.
 *
 * URL: `/inbox?tab=review|mine|participated&repo=<owner>/<name>&state=open|closed|all&page=N`,
 * defaults left out (tab review, every repository, state open, page 1). `state` only applies to
 * the Participated tab (the other two lists are open pull requests by definition).
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["pulls"];
/** A row of an inbox list: pulls.list's row plus its repository {id, owner, name}. */
export type InboxItem = Outputs["inboxAwaitingReview"][number];
/** pulls.inboxSummary: {awaitingReview, myPrs, readyToMerge, participated (open ones)}. */
export type InboxSummary = Outputs["inboxSummary"];

export const INBOX_TABS = ["review", "mine", "participated"] as const;
export type InboxTab = (typeof INBOX_TABS)[number];
export const PARTICIPATED_STATES = ["open", "closed", "all"] as const;
export type ParticipatedState = (typeof PARTICIPATED_STATES)[number];

/** Rows per page of an inbox list (the API allows up to 100). */
export const INBOX_PAGE_SIZE = 25;
/** The last page the API can serve (its offset is at most 1,000,000). */
export const INBOX_MAX_PAGE = Math.floor(1_000_000 / INBOX_PAGE_SIZE) + 1;

/** The tabs' labels and the summary field that counts each (GitHub's pull request dashboard). */
export const TAB_INFO: Record<InboxTab, { label: string; count: keyof InboxSummary }> = {
  review: { label: "Awaiting review", count: "awaitingReview" },
  mine: { label: "Your pull requests", count: "myPrs" },
  participated: { label: "Participated", count: "participated" },
};

/**
 * The count a tab shows: its list's size; Your pull requests counts both of its groups, awaiting
 * review (myPrs) and ready to merge (readyToMerge).
 */
export function tabCount(tab: InboxTab, summary: InboxSummary): number {
  return tab === "mine" ? summary.myPrs + summary.readyToMerge : summary[TAB_INFO[tab].count];
}

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/** `?tab=` → the tab; anything else is Awaiting review. */
export function inboxTab(value: string | string[] | undefined): InboxTab {
  const v = one(value);
  return (INBOX_TABS as readonly string[]).includes(v ?? "") ? (v as InboxTab) : "review";
}

/** `?state=` of the Participated tab → open (default), closed or all. */
export function participatedState(value: string | string[] | undefined): ParticipatedState {
  const v = one(value);
  return (PARTICIPATED_STATES as readonly string[]).includes(v ?? "") ? (v as ParticipatedState) : "open";
}

/** `?repo=owner/name` → {owner, name}, or null when absent or not of that shape. */
export function inboxRepo(value: string | string[] | undefined): { owner: string; name: string } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/([A-Za-z0-9._-]{1,100})$/.exec(one(value) ?? "");
  return m ? { owner: m[1], name: m[2] } : null;
}

/** `?page=` → a 1-based page, at most the last page the API can serve (never clamped to a count: the list is read at once). */
export function inboxPage(value: string | string[] | undefined): number {
  const v = one(value);
  const n = v && /^\d{1,7}$/.test(v) ? Number(v) : 1;
  return Math.min(Math.max(1, n), INBOX_MAX_PAGE);
}

/** Pages of a list of `total` rows (at least 1). */
export function inboxPageCount(total: number): number {
  return Math.min(Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)), INBOX_MAX_PAGE);
}

export interface InboxQuery {
  tab?: InboxTab;
  repo?: string | null;
  state?: ParticipatedState;
  page?: number;
}

/** The /inbox link for a query, leaving out defaults (and `state` outside Participated). */
export function inboxHref(q: InboxQuery): string {
  const p = new URLSearchParams();
  if (q.tab && q.tab !== "review") p.set("tab", q.tab);
  if (q.repo) p.set("repo", q.repo);
  if (q.tab === "participated" && q.state && q.state !== "open") p.set("state", q.state);
  if (q.page && q.page > 1) p.set("page", String(q.page));
  const s = p.toString();
  return s ? `/inbox?${s}` : "/inbox";
}

/** The top bar's accessible name of the inbox link: "Inbox" or "Inbox, 3 awaiting your review". */
export function inboxLinkLabel(awaiting: number): string {
  return awaiting > 0 ? `Inbox, ${awaiting} awaiting your review` : "Inbox";
}

/** The badge text of a count: the number, "99+" above 99. */
export function countBadge(n: number): string {
  return n > 99 ? "99+" : String(n);
}

/** The empty state of a list: a heading and a sentence on what would appear there. */
export function emptyState(tab: InboxTab, state: ParticipatedState, repo: string | null): { title: string; text: string } {
  const where = repo ? ` in ${repo}` : "";
  if (tab === "review") {
    return {
      title: `No pull requests are awaiting your review${where}.`,
      text: "When someone requests your review on a pull request, it appears here until you submit a review.",
    };
  }
  if (tab === "mine") {
    return {
      title: `You have no open pull requests${where}.`,
      text: "Your open, non-draft pull requests appear here: those waiting for a requested review or an approval, and those approved and ready to merge.",
    };
  }
  const which = state === "all" ? "" : `${state} `;
  return {
    title: `No ${which}pull requests you took part in${where}.`,
    text: "Pull requests of others that you commented on or reviewed appear here.",
  };
}
