/**
 * Rendering notification emails (docs/notifications-email.md "What an email looks like"): plain
 * text and HTML of one event, and of a daily digest, with the headers GitHub's notification
 * emails carry so that mail clients thread per subject and offer one-click unsubscribe:
 *
 *   Message-ID   <owner/repo/pull/12/<emailId>@host>   (an "opened" event: the thread root itself)
 *   In-Reply-To, References   <owner/repo/pull/12@host>  (issues/<n>, commit/<sha>)
 *   List-ID      owner/repo <repo.owner.host>
 *   List-Unsubscribe  <https://host/unsubscribe/<token>>, List-Unsubscribe-Post (RFC 8058)
 *   X-Svc-Reason <reason>
 *
 * Everything user-written (titles, bodies, names) is escaped in the HTML; a body is text, shown
 * as written (pre-wrapped), never interpreted as HTML or Markdown.
 */
import type { MailMessage } from "@/server/mail/transport";
import type { EmailContext, EmailRow, SubjectInfo } from "./load-context";
import { subjectKey } from "./load-context";
import { signUnsubscribeToken } from "./unsubscribe-token";
import type { NotificationSubjectType } from "../event";

/** Where links point and ids live: the public base URL and its host name. */
export interface Site {
  publicUrl: string;
  host: string;
}

/** The site of a public URL (`http://svc.example:3000` → host `svc.example`). */
export function siteOf(publicUrl: string): Site {
  return { publicUrl: publicUrl.replace(/\/+$/, ""), host: new URL(publicUrl).hostname };
}

/** Characters of a body quoted in one email; the rest is on the page. */
export const MAX_BODY_CHARS = 20_000;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** `s` safe in HTML text and attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
/** A one-line version of `s` for a header (control characters, line breaks, runs of spaces → one space). */
const oneLine = (s: string) => s.replace(/[\p{Cc}\s]+/gu, " ").trim();

const PATH_SEGMENT: Record<NotificationSubjectType, string> = { issue: "issues", pull_request: "pull", commit: "commit" };
const PAGE_SEGMENT: Record<NotificationSubjectType, string> = { issue: "issues", pull_request: "pulls", commit: "commit" };

/** GitHub's footer line: why the recipient gets the email. */
const REASON_TEXT: Record<string, string> = {
  review_requested: "your review was requested",
  assigned: "you were assigned",
  mention: "you were mentioned",
  team_mention: "a team you are on was mentioned",
  author: "you authored the thread",
  comment: "you commented",
  state_change: "you modified the open/close state",
  ci_failed: "a check failed on your work",
  subscribed: "you are subscribed to this thread",
};

function what(type: NotificationSubjectType): string {
  return type === "issue" ? "issue" : type === "pull_request" ? "pull request" : "commit";
}

/** "@ada commented on this pull request." and the like. */
function eventLine(event: string, type: NotificationSubjectType, actor: string | null): string {
  const who = actor ? `@${actor}` : "svc";
  const it = `this ${what(type)}`;
  switch (event) {
    case "opened":
      return `${who} opened ${it}.`;
    case "comment":
      return `${who} commented on ${it}.`;
    case "review":
      return `${who} reviewed ${it}.`;
    case "review_requested":
      return `${who} requested your review on ${it}.`;
    case "assigned":
      return `${who} assigned ${it}.`;
    case "state_change":
      return `${who} changed the state of ${it}.`;
    case "ci_failed":
      return `A check failed on ${it}.`;
    case "push":
      return `${who} pushed to ${it}.`;
    default:
      return `${who} updated ${it}.`;
  }
}

/** The names of a row's thread. */
export interface Thread {
  owner: string;
  repo: string;
  type: NotificationSubjectType;
  subject: SubjectInfo;
  /** `owner/repo/pull/12`, `owner/repo/issues/5`, `owner/repo/commit/<sha>`. */
  path: string;
  /** The subject's page. */
  url: string;
}

/** The thread of `row`, or null when its repository or subject no longer exists. */
export function threadOf(row: Pick<EmailRow, "repoId" | "subjectType" | "subjectId">, ctx: EmailContext, site: Site): Thread | null {
  const repo = ctx.repos.get(row.repoId);
  const subject = ctx.subjects.get(subjectKey(row.subjectType, row.subjectId));
  if (!repo || !subject || !(row.subjectType in PATH_SEGMENT)) return null;
  const type = row.subjectType as NotificationSubjectType;
  const ref = subject.number ?? row.subjectId;
  const base = `${repo.owner}/${repo.name}`;
  return {
    owner: repo.owner,
    repo: repo.name,
    type,
    subject,
    path: `${base}/${PATH_SEGMENT[type]}/${ref}`,
    url: `${site.publicUrl}/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/${PAGE_SEGMENT[type]}/${encodeURIComponent(String(ref))}`,
  };
}

/** `[owner/repo] Title (PR #12)` (issues `(#5)`, commits `Commit abc1234`). */
export function subjectLine(t: Thread): string {
  const tail =
    t.type === "pull_request"
      ? `${oneLine(t.subject.title)} (PR #${t.subject.number})`
      : t.type === "issue"
        ? `${oneLine(t.subject.title)} (#${t.subject.number})`
        : `Commit ${t.subject.title}`;
  return `[${t.owner}/${t.repo}] ${tail}`;
}

/** The link to the activity itself: the subject's page and the row's anchor. */
function activityUrl(t: Thread, anchor: string | null): string {
  return anchor ? `${t.url}#${encodeURIComponent(anchor)}` : t.url;
}

/** The one-click unsubscribe URL of `row`'s thread for its recipient. */
export function unsubscribeUrl(row: Pick<EmailRow, "userId" | "repoId" | "subjectType" | "subjectId">, site: Site): string {
  const token = signUnsubscribeToken({
    userId: row.userId,
    repoId: row.repoId,
    subjectType: row.subjectType as NotificationSubjectType,
    subjectId: row.subjectId,
  });
  return `${site.publicUrl}/unsubscribe/${token}`;
}

function quote(body: string): string {
  return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}\n…` : body;
}

const HTML_HEAD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>';

/**
 * The email of one row for its recipient `to`. Returns null when the repository or subject no
 * longer exists (nothing to link to).
 */
export function renderNotificationEmail(row: EmailRow, to: string, ctx: EmailContext, site: Site): MailMessage | null {
  const t = threadOf(row, ctx, site);
  if (!t) return null;
  const actor = row.actorId ? (ctx.actors.get(row.actorId) ?? null) : null;
  const root = `<${t.path}@${site.host}>`;
  const opened = row.event === "opened";
  const subject = `${opened ? "" : "Re: "}${subjectLine(t)}`;
  const link = activityUrl(t, row.anchor);
  const unsubscribe = unsubscribeUrl(row, site);
  const why = `You are receiving this because ${REASON_TEXT[row.reason] ?? "you are subscribed to this thread"}.`;
  const line = eventLine(row.event, t.type, actor);
  const body = quote(row.body.trim());
  const text = [
    line,
    "",
    ...(body ? [body, ""] : []),
    "—",
    why,
    `Reply on svc: ${link}`,
    `Unsubscribe from this thread: ${unsubscribe}`,
    "",
  ].join("\n");
  const html =
    `${HTML_HEAD}${escapeHtml(subject)}</title></head><body>` +
    `<p>${escapeHtml(line)}</p>` +
    (body ? `<div style="white-space:pre-wrap">${escapeHtml(body)}</div>` : "") +
    `<p style="font-size:small;color:#666">—<br>${escapeHtml(why)}<br>` +
    `<a href="${escapeHtml(link)}">View it on svc</a> or <a href="${escapeHtml(unsubscribe)}">unsubscribe</a> from this thread.</p>` +
    `</body></html>`;
  return {
    to,
    subject,
    text,
    html,
    messageId: opened ? root : `<${t.path}/${row.id}@${site.host}>`,
    headers: {
      ...(opened ? {} : { "In-Reply-To": root, References: root }),
      "List-ID": `${t.owner}/${t.repo} <${t.repo}.${t.owner}.${site.host}>`,
      "List-Archive": `${site.publicUrl}/${encodeURIComponent(t.owner)}/${encodeURIComponent(t.repo)}`,
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "X-Svc-Reason": row.reason,
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
    },
  };
}

/**
 * The daily digest of one recipient: `rows` grouped by repository, then subject (in the order of
 * their first row), one line per event with a link to it. Rows whose subject no longer exists
 * are left out; returns null when none is left. `date` names the day in the subject.
 */
export function renderDigest(rows: EmailRow[], to: string, ctx: EmailContext, site: Site, date: Date): MailMessage | null {
  const repos = new Map<string, Map<string, { t: Thread; lines: { text: string; url: string }[] }>>();
  let count = 0;
  for (const row of rows) {
    const t = threadOf(row, ctx, site);
    if (!t) continue;
    const repoKey = `${t.owner}/${t.repo}`;
    const subjects = repos.get(repoKey) ?? new Map();
    repos.set(repoKey, subjects);
    const entry = subjects.get(t.path) ?? { t, lines: [] };
    subjects.set(t.path, entry);
    const actor = row.actorId ? (ctx.actors.get(row.actorId) ?? null) : null;
    const first = oneLine(row.body).slice(0, 140);
    entry.lines.push({ text: `${eventLine(row.event, t.type, actor)}${first ? ` ${first}` : ""}`, url: activityUrl(t, row.anchor) });
    count++;
  }
  if (count === 0) return null;
  const day = date.toISOString().slice(0, 10);
  const subject = `[svc] Your daily digest: ${count} notification${count === 1 ? "" : "s"} (${day})`;
  const text: string[] = [`${count} notification${count === 1 ? "" : "s"} since your last digest.`, ""];
  let html = `${HTML_HEAD}${escapeHtml(subject)}</title></head><body><p>${escapeHtml(text[0]!)}</p>`;
  for (const [repoKey, subjects] of repos) {
    text.push(repoKey, "=".repeat(repoKey.length));
    html += `<h2>${escapeHtml(repoKey)}</h2>`;
    for (const { t, lines } of subjects.values()) {
      const title = subjectLine(t).slice(repoKey.length + 3);
      text.push(`${title}  ${t.url}`);
      html += `<h3><a href="${escapeHtml(t.url)}">${escapeHtml(title)}</a></h3><ul>`;
      for (const l of lines) {
        text.push(`  - ${l.text}  ${l.url}`);
        html += `<li>${escapeHtml(l.text)} <a href="${escapeHtml(l.url)}">View</a></li>`;
      }
      html += "</ul>";
      text.push("");
    }
  }
  const settings = `${site.publicUrl}/settings/notifications`;
  text.push("—", `You get one digest a day instead of an email per event. Change this: ${settings}`, "");
  html += `<p style="font-size:small;color:#666">—<br>You get one digest a day instead of an email per event. <a href="${escapeHtml(settings)}">Change this</a>.</p></body></html>`;
  return {
    to,
    subject,
    text: text.join("\n"),
    html,
    messageId: `<digest/${day}/${rows[0]!.id}@${site.host}>`,
    headers: { "X-Svc-Reason": "digest", "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" },
  };
}
