/**
 * Timeline events of a pull request as sentences (issue #8, docs/pulls.md "Records and
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
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function eventSentence(e: PullEvent): EventSentence | null {
  const who = e.actor?.username ?? "svc";
  const d = e.data;
  switch (e.type) {
    case "opened":
      return { who, text: "opened this pull request", tone: "primary" };
    case "edited":
      return d.field === "title" ? { who, text: `changed the title from “${str(d.from)}” to “${str(d.to)}”`, tone: "neutral" } : { who, text: "edited the description", tone: "neutral" };
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
      const how = d.strategy === "external" ? "merged this pull request outside svc (its commits reached the base branch)" : `merged this pull request${d.strategy === "squash" ? " (squash)" : d.strategy === "rebase" ? " (rebase)" : ""}`;
      return { who, text: how, sha: short(d.mergeSha), tone: "merged" };
    }
    case "source_deleted":
      return { who, text: "deleted the source branch", tone: "neutral" };
    case "source_restored":
      return { who, text: "restored the source branch", sha: short(d.sha), tone: "neutral" };
    case "base_changed":
      return { who, text: `changed the base branch from ${str(d.from)} to ${str(d.to)}`, tone: "neutral" };
    case "referenced":
      return { who, text: typeof d.issueNumber === "number" ? `referenced this pull request from #${d.issueNumber}` : "referenced this pull request", tone: "neutral" };
    default:
      return null;
  }
}
