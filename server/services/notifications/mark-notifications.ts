/**
 * Triage of the caller's notifications (docs/notifications.md "API"): markRead, markUnread,
 * markDone, markAllRead. Only the caller's own threads change (ids of others are ignored); each
 * is one statement, then the caller's open pages are told (channel `user:<id>`).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { publish } from "@/server/events/bus";
import { userChannel } from "./fan-out";
import { uuid } from "@/server/validation/ids";
import { line } from "@/server/validation/strings";

export const notificationIdsInput = z.object({ ids: z.array(uuid("ids", "notification UUIDs")).min(1).max(500) });
export const markAllReadInput = z.object({
  repoId: uuid("repoId", "a repository UUID").optional(),
  /** ISO time: only threads whose latest activity is not after it (what the page showed). */
  before: line("before")
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), "before must be an ISO date-time")
    .optional(),
});

/** The mark operations and the columns they set. */
const MARKS = { read: { unread: false }, unread: { unread: true }, done: { done: true, unread: false } } as const;

/** Sets `mark` on the caller's threads `ids`; returns {updated}. One statement. */
export async function markNotifications(db: Db, actor: Actor, ids: string[], mark: keyof typeof MARKS): Promise<{ updated: number }> {
  const r = await db.notification.updateMany({ where: { userId: actor.user.id, id: { in: ids } }, data: MARKS[mark] });
  if (r.count) publish(userChannel(actor.user.id), { type: "notification_marked", actorId: actor.user.id });
  return { updated: r.count };
}

/** Marks every unread thread of the caller read (of repository `repoId`; with activity up to `before`). Returns {updated}. */
export async function markAllNotificationsRead(
  db: Db,
  actor: Actor,
  input: z.infer<typeof markAllReadInput>,
): Promise<{ updated: number }> {
  const r = await db.notification.updateMany({
    where: {
      userId: actor.user.id,
      unread: true,
      ...(input.repoId ? { repoId: input.repoId } : {}),
      ...(input.before ? { lastActivityAt: { lte: new Date(input.before) } } : {}),
    },
    data: { unread: false },
  });
  if (r.count) publish(userChannel(actor.user.id), { type: "notification_marked", actorId: actor.user.id });
  return { updated: r.count };
}
