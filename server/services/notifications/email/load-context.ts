/**
 * What a batch of NotificationEmail rows needs to be rendered, in a constant number of queries
 * whatever the batch's size (docs/notifications-email.md): the rows with their recipient's
 * address and settings (one query and its relation loads), then the repositories with their
 * owner, the issues, the pull requests and the actors (one query each, by id lists).
 */
import type { Db } from "@/server/db";

/** One NotificationEmail row with its recipient. */
export interface EmailRow {
  id: string;
  userId: string;
  repoId: string;
  subjectType: string;
  subjectId: string;
  reason: string;
  event: string;
  actorId: string | null;
  anchor: string | null;
  body: string;
  createdAt: Date;
  attempts: number;
  user: {
    username: string;
    email: string | null;
    notificationSettings: { email: boolean; mutedReasons: string; dailyDigest: boolean } | null;
  };
}

/** The subject of a thread as an email names it. */
export interface SubjectInfo {
  /** Issue or pull request number; null for a commit. */
  number: number | null;
  /** The title; for a commit, its short SHA. */
  title: string;
}

/** Lookups by id for rendering a batch. */
export interface EmailContext {
  repos: Map<string, { owner: string; name: string }>;
  /** Keyed `<subjectType>:<subjectId>`. */
  subjects: Map<string, SubjectInfo>;
  /** Actor id → username. */
  actors: Map<string, string>;
}

/** The fields loadEmailRows selects (for callers building their own where). */
export const EMAIL_ROW_SELECT = {
  id: true,
  userId: true,
  repoId: true,
  subjectType: true,
  subjectId: true,
  reason: true,
  event: true,
  actorId: true,
  anchor: true,
  body: true,
  createdAt: true,
  attempts: true,
  user: {
    select: { username: true, email: true, notificationSettings: { select: { email: true, mutedReasons: true, dailyDigest: true } } },
  },
} as const;

/** Unsent, unskipped rows among `ids` (oldest first). */
export async function loadEmailRows(db: Db, ids: string[]): Promise<EmailRow[]> {
  if (ids.length === 0) return [];
  return db.notificationEmail.findMany({
    where: { id: { in: ids }, sentAt: null, skippedAt: null },
    select: EMAIL_ROW_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

const unique = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))];

/** The key of a subject in EmailContext.subjects. */
export const subjectKey = (subjectType: string, subjectId: string) => `${subjectType}:${subjectId}`;

/**
 * Repositories, subjects and actors of `rows` (four queries at most, none for an empty batch).
 * A subject that no longer exists (deleted) is missing from the map; a commit needs no query.
 */
export async function loadEmailContext(
  db: Db,
  rows: Pick<EmailRow, "repoId" | "subjectType" | "subjectId" | "actorId">[],
): Promise<EmailContext> {
  const ctx: EmailContext = { repos: new Map(), subjects: new Map(), actors: new Map() };
  if (rows.length === 0) return ctx;
  const issueIds = unique(rows.filter((r) => r.subjectType === "issue").map((r) => r.subjectId));
  const pullIds = unique(rows.filter((r) => r.subjectType === "pull_request").map((r) => r.subjectId));
  const actorIds = unique(rows.map((r) => r.actorId));
  const [repos, issues, pulls, actors] = await Promise.all([
    db.repository.findMany({
      where: { id: { in: unique(rows.map((r) => r.repoId)) } },
      select: { id: true, name: true, owner: { select: { username: true } } },
    }),
    issueIds.length ? db.issue.findMany({ where: { id: { in: issueIds } }, select: { id: true, number: true, title: true } }) : [],
    pullIds.length ? db.pullRequest.findMany({ where: { id: { in: pullIds } }, select: { id: true, number: true, title: true } }) : [],
    actorIds.length ? db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, username: true } }) : [],
  ]);
  for (const r of repos) ctx.repos.set(r.id, { owner: r.owner.username, name: r.name });
  for (const i of issues) ctx.subjects.set(subjectKey("issue", i.id), { number: i.number, title: i.title });
  for (const p of pulls) ctx.subjects.set(subjectKey("pull_request", p.id), { number: p.number, title: p.title });
  for (const r of rows)
    if (r.subjectType === "commit") ctx.subjects.set(subjectKey("commit", r.subjectId), { number: null, title: r.subjectId.slice(0, 7) });
  for (const a of actors) ctx.actors.set(a.id, a.username);
  return ctx;
}
