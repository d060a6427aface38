/**
 * Reading the caller's notifications (docs/notifications.md "API"): notifications.list and
 * notifications.unreadCount. A thread on a repository the caller can no longer read is never
 * shown nor counted (readability checked at read time, grants.ts memberReposWhere).
 */
import { z } from "zod";
import type { Db, Prisma } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { memberReposWhere } from "@/server/services/repos/grants";
import { uuid } from "@/server/validation/ids";

/** Reasons of threads the caller takes part in (the "participating" filter, GitHub's). */
export const PARTICIPATING_REASONS = [
  "review_requested",
  "assigned",
  "mention",
  "team_mention",
  "author",
  "comment",
  "state_change",
  "ci_failed",
];

/** Page size of notifications.list. */
export const PAGE_SIZE = 50;

export const listNotificationsInput = z.object({
  filter: z.enum(["unread", "all", "participating"]).default("unread"),
  repoId: uuid("repoId", "a repository UUID").optional(),
  /** The last id of the previous page. */
  cursor: uuid("cursor", "a notification UUID").optional(),
});

/** One notification as notifications.list returns it. */
export interface NotificationView {
  id: string;
  repo: { id: string; owner: string; name: string; isPrivate: boolean };
  subject: { type: string; id: string; number: number | null; title: string; state: string | null };
  reason: string;
  unread: boolean;
  /** ISO time of the latest activity. */
  lastActivityAt: string;
  lastActor: { username: string } | null;
  /** The subject's page, with the latest activity's anchor (`#comment-<id>`). */
  url: string;
}

/** Prisma condition: thread of `actor` on a repository it can read now (site admins read every repository). */
export function visibleWhere(actor: Actor): Prisma.NotificationWhereInput {
  const userId = actor.user.id;
  return { userId, ...(actor.user.isAdmin ? {} : { repo: { OR: [{ isPrivate: false }, ...memberReposWhere(userId)] } }) };
}

/**
 * notifications.list: the caller's threads not marked done, newest activity first, 50 a page
 * (`cursor`: the last id of the previous page; `nextCursor` null on the last page). `filter`
 * "unread" (default), "all", or "participating" (reasons other than subscribed). Four queries.
 */
export async function listNotifications(
  db: Db,
  actor: Actor,
  input: z.infer<typeof listNotificationsInput>,
): Promise<{ items: NotificationView[]; nextCursor: string | null }> {
  const where: Prisma.NotificationWhereInput = {
    ...visibleWhere(actor),
    done: false,
    ...(input.filter === "unread" ? { unread: true } : {}),
    ...(input.filter === "participating" ? { reason: { in: PARTICIPATING_REASONS } } : {}),
    ...(input.repoId ? { repoId: input.repoId } : {}),
  };
  const rows = await db.notification.findMany({
    where,
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: PAGE_SIZE + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
    select: {
      id: true,
      subjectType: true,
      subjectId: true,
      reason: true,
      unread: true,
      lastActivityAt: true,
      lastActorId: true,
      lastAnchor: true,
      repo: { select: { id: true, name: true, isPrivate: true, owner: { select: { username: true } } } },
    },
  });
  const page = rows.slice(0, PAGE_SIZE);
  const ids = (type: string) => page.filter((r) => r.subjectType === type).map((r) => r.subjectId);
  const actorIds = [...new Set(page.map((r) => r.lastActorId).filter((x): x is string => !!x))];
  const [issues, pulls, actors] = await Promise.all([
    ids("issue").length
      ? db.issue.findMany({ where: { id: { in: ids("issue") } }, select: { id: true, number: true, title: true, state: true } })
      : [],
    ids("pull_request").length
      ? db.pullRequest.findMany({
          where: { id: { in: ids("pull_request") } },
          select: { id: true, number: true, title: true, state: true },
        })
      : [],
    actorIds.length ? db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, username: true } }) : [],
  ]);
  const subjects = new Map([...issues, ...pulls].map((s) => [s.id, s]));
  const usernames = new Map(actors.map((u) => [u.id, u.username]));
  const items = page.map((r): NotificationView => {
    const s = subjects.get(r.subjectId);
    const base = `/${encodeURIComponent(r.repo.owner.username)}/${encodeURIComponent(r.repo.name)}`;
    const path =
      r.subjectType === "issue" && s
        ? `${base}/issues/${s.number}`
        : r.subjectType === "pull_request" && s
          ? `${base}/pulls/${s.number}`
          : r.subjectType === "commit"
            ? `${base}/commit/${r.subjectId}`
            : base;
    const actorName = r.lastActorId ? usernames.get(r.lastActorId) : undefined;
    return {
      id: r.id,
      repo: { id: r.repo.id, owner: r.repo.owner.username, name: r.repo.name, isPrivate: r.repo.isPrivate },
      subject: {
        type: r.subjectType,
        id: r.subjectId,
        number: s?.number ?? null,
        title: s?.title ?? (r.subjectType === "commit" ? r.subjectId.slice(0, 7) : "(deleted)"),
        state: s?.state ?? null,
      },
      reason: r.reason,
      unread: r.unread,
      lastActivityAt: r.lastActivityAt.toISOString(),
      lastActor: actorName ? { username: actorName } : null,
      url: r.lastAnchor && s ? `${path}#${r.lastAnchor}` : path,
    };
  });
  return { items, nextCursor: rows.length > PAGE_SIZE ? page[page.length - 1].id : null };
}

/** notifications.unreadCount: the caller's unread threads not done, on repositories it can read. One query. */
export async function unreadNotificationCount(db: Db, actor: Actor): Promise<{ count: number }> {
  return { count: await db.notification.count({ where: { ...visibleWhere(actor), unread: true, done: false } }) };
}
