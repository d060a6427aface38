/**
 * notifications router (docs/notifications.md "API"): the caller's notification threads and
 * per-thread subscriptions. User-tier rows: reads with repo:read (they show repository content,
 * as the inbox), changes to the caller's own state with user:write.
 */
import { router, authedProcedure } from "../trpc";
import { listNotifications, listNotificationsInput, unreadNotificationCount } from "@/server/services/notifications/list-notifications";
import {
  markAllNotificationsRead,
  markAllReadInput,
  markNotifications,
  notificationIdsInput,
} from "@/server/services/notifications/mark-notifications";
import { setThreadSubscription, subjectInput, threadSubscription } from "@/server/services/notifications/subscriptions";

export const notificationsRouter = router({
  /** {filter?: unread|all|participating, repoId?, cursor?} → {items (newest activity first, done left out), nextCursor}. */
  list: authedProcedure.input(listNotificationsInput).query(({ ctx, input }) => listNotifications(ctx.db, ctx.actor, input)),
  /** no input → {count}: unread threads not done, for the bell. */
  unreadCount: authedProcedure.query(({ ctx }) => unreadNotificationCount(ctx.db, ctx.actor)),
  /** {ids} → {updated}: marks the caller's threads read. */
  markRead: authedProcedure
    .input(notificationIdsInput)
    .mutation(({ ctx, input }) => markNotifications(ctx.db, ctx.actor, input.ids, "read")),
  /** {ids} → {updated}: marks the caller's threads unread. */
  markUnread: authedProcedure
    .input(notificationIdsInput)
    .mutation(({ ctx, input }) => markNotifications(ctx.db, ctx.actor, input.ids, "unread")),
  /** {ids} → {updated}: marks the caller's threads done (out of the list until new activity). */
  markDone: authedProcedure
    .input(notificationIdsInput)
    .mutation(({ ctx, input }) => markNotifications(ctx.db, ctx.actor, input.ids, "done")),
  /** {repoId?, before? (ISO)} → {updated}: marks every unread thread read. */
  markAllRead: authedProcedure.input(markAllReadInput).mutation(({ ctx, input }) => markAllNotificationsRead(ctx.db, ctx.actor, input)),
  /** {subjectType: issue|pull_request, subjectId} → {subscribed, reason}: the Subscribe button's state. */
  subscription: authedProcedure.input(subjectInput).query(({ ctx, input }) => threadSubscription(ctx.db, ctx.actor, input)),
  /** {subjectType, subjectId} → {subscribed: true, reason}. */
  subscribe: authedProcedure.input(subjectInput).mutation(({ ctx, input }) => setThreadSubscription(ctx.db, ctx.actor, input, true)),
  /** {subjectType, subjectId} → {subscribed: false, reason}: only mentions and review requests notify. */
  unsubscribe: authedProcedure.input(subjectInput).mutation(({ ctx, input }) => setThreadSubscription(ctx.db, ctx.actor, input, false)),
});
