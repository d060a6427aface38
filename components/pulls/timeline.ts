/**
 * Timeline events of a pull request as sentences (docs/pulls.md "Records and
 * timeline"): pure, unit-tested. `null` for an event type this version does not know.
 */
export interface PullEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
  actor: { username: string } | null;
  createdAt: string;
}

export interface EventSentence {
  /** who did it ("svc" for the push hook) */
  who: string;
  /** what they did, after the name */
  text: string;
  /** a short sha to show, if any */
  sha?: string;
  tone: "neutral" | "primary" | "danger" | "merged";
}

const short = (v: unknown) => (typeof v === "string" ? v.slice(0, 7) : undefined);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const field = (v: unknown, key: string) => (v && typeof v === "object" ? str((v as Record<string, unknown>)[key]) : "");
const username = (v: unknown) => field(v, "username") || "someone";
/** The reviewer of a review request event: a user, or a team {org, slug} shown as @org/slug. */
const reviewerName = (d: Record<string, unknown>) => (d.team ? `@${field(d.team, "org")}/${field(d.team, "slug")}` : username(d.reviewer));
const labelName = (v: unknown) => field(v, "name") || "a";
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function eventSentence(e: PullEvent): EventSentence | null {
  const who = e.actor?.username ?? "svc";
  const d = e.data;
  switch (e.type) {
    case "opened":
      return { who, text: "opened this pull request", tone: "primary" };
    case "edited":
      return d.field === "title"
        ? { who, text: `changed the title from “${str(d.from)}” to “${str(d.to)}”`, tone: "neutral" }
        : { who, text: "edited the description", tone: "neutral" };
    case "ready_for_review":
      return { who, text: "marked this pull request as ready for review", tone: "neutral" };
    case "converted_to_draft":
      return { who, text: "converted this pull request to a draft", tone: "neutral" };
    case "closed":
      return { who, text: "closed this pull request", tone: "danger" };
    case "reopened":
      return { who, text: "reopened this pull request", tone: "primary" };
    case "pushed": {
      const n = num(d.commits);
      return { who, text: `pushed ${n} commit${n === 1 ? "" : "s"}`, sha: short(d.after), tone: "neutral" };
    }
    case "force_pushed":
      return { who, text: `force-pushed the branch from ${short(d.before) ?? "?"} to`, sha: short(d.after), tone: "neutral" };
    case "merged": {
      const how =
        d.strategy === "external"
          ? "merged this pull request outside svc (its commits reached the base branch)"
          : `merged this pull request${d.strategy === "squash" ? " (squash)" : d.strategy === "rebase" ? " (rebase)" : ""}`;
      return { who, text: how, sha: short(d.mergeSha), tone: "merged" };
    }
    case "source_deleted":
      return { who, text: "deleted the source branch", tone: "neutral" };
    case "source_restored":
      return { who, text: "restored the source branch", sha: short(d.sha), tone: "neutral" };
    case "base_changed":
      return { who, text: `changed the base branch from ${str(d.from)} to ${str(d.to)}`, tone: "neutral" };
    case "referenced":
      return {
        who,
        text: typeof d.issueNumber === "number" ? `referenced this pull request from #${d.issueNumber}` : "referenced this pull request",
        tone: "neutral",
      };
    case "review_requested":
      return { who, text: `requested a review from ${reviewerName(d)}`, tone: "neutral" };
    case "review_request_removed":
      return { who, text: `removed the review request for ${reviewerName(d)}`, tone: "neutral" };
    case "labeled":
      return { who, text: `added the ${labelName(d.label)} label`, tone: "neutral" };
    case "unlabeled":
      return { who, text: `removed the ${labelName(d.label)} label`, tone: "neutral" };
    case "review_dismissed":
      return d.reason === "stale"
        ? { who, text: `dismissed ${str(d.reviewer)}'s approval: new commits changed the diff`, tone: "neutral" }
        : { who, text: `dismissed ${str(d.reviewer)}'s review: ${str(d.reason)}`, tone: "neutral" };
    case "auto_merge_enabled":
      return { who, text: `enabled auto-merge (${str(d.strategy) || "merge"})`, tone: "primary" };
    case "auto_merge_disabled":
      return {
        who,
        text: d.reason && d.reason !== "disabled manually" ? `disabled auto-merge: ${str(d.reason)}` : "disabled auto-merge",
        tone: "neutral",
      };
    case "protection_bypassed":
      return { who, text: bypassText(d), tone: "danger" };
    default:
      return null;
  }
}

/** What the requirement kinds a merge passed over were ("reviews", "checks", …), as one phrase. */
const BYPASS_NOUNS: Record<string, string> = {
  approvals: "reviews",
  codeOwners: "code owner reviews",
  status: "checks",
  upToDate: "update of the branch",
};

/**
 * The protection_bypassed sentence: "merged without the required reviews/checks (bypassed
 * branch protection: 1 approving review required; ci: pending)". Events recorded before the
 * kinds were stored name the requirements only.
 */
function bypassText(d: Record<string, unknown>): string {
  const kinds = Array.isArray(d.kinds) ? d.kinds.filter((k): k is string => typeof k === "string") : [];
  const what = [...new Set(kinds.map((k) => BYPASS_NOUNS[k] ?? k))].join("/") || "requirements";
  const details = Array.isArray(d.requirements) ? d.requirements.filter((r): r is string => typeof r === "string") : [];
  const rule = str(d.pattern) ? ` "${str(d.pattern)}"` : "";
  return `merged without the required ${what} (bypassed branch protection${rule}${details.length ? `: ${details.join("; ")}` : ""})`;
}

/** What a review says after its author's name ("approved these changes"…). */
export function reviewSentence(state: string): { text: string; tone: EventSentence["tone"] } {
  if (state === "approved") return { text: "approved these changes", tone: "primary" };
  if (state === "changes_requested") return { text: "requested changes", tone: "danger" };
  return { text: "reviewed", tone: "neutral" };
}

/** One entry of the Conversation tab: an event sentence, a review, or a comment thread. */
export type ConversationItem<R, T> =
  | { kind: "event"; key: string; at: string; event: PullEvent }
  | { kind: "review"; key: string; at: string; review: R }
  | { kind: "thread"; key: string; at: string; thread: T };

/**
 * Events, reviews and threads merged oldest first by createdAt (ties: events, then reviews, then
 * threads, so "pushed" comes before a review of that push). Review-submitted events are left out
 * (the review itself is shown); pending threads (the caller's unsubmitted review) are left out.
 */
export function conversationItems<
  R extends { id: string; createdAt: string },
  T extends { id: string; createdAt: string; isPending: boolean },
>(events: PullEvent[], reviews: R[], threads: T[]): ConversationItem<R, T>[] {
  const rank = { event: 0, review: 1, thread: 2 } as const;
  const items: ConversationItem<R, T>[] = [
    ...events.filter((e) => eventSentence(e) !== null).map((e) => ({ kind: "event" as const, key: `e${e.id}`, at: e.createdAt, event: e })),
    ...reviews.map((r) => ({ kind: "review" as const, key: `r${r.id}`, at: r.createdAt, review: r })),
    ...threads.filter((t) => !t.isPending).map((t) => ({ kind: "thread" as const, key: `t${t.id}`, at: t.createdAt, thread: t })),
  ];
  return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank[a.kind] - rank[b.kind]));
}
