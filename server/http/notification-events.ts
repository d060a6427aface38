/**
 * GET /api/notifications/events — the signed-in user's notification notices (docs/notifications.md
 * "Live updates") as Server-Sent Events, the same stream as a pull request page's
 * (pull-events.ts: its caps, heartbeats, Redis outage notices and shutdown):
 *
 *   event: ready     data: {"userId"}                  once, when subscribed
 *   event: update    data: {type: "notification" | "notification_marked" | "resync", at, actorId?, data?}
 *
 * The client refetches its unread count (and list) on each notice; a notice carries no
 * repository content. Signed-in only (session cookie or a token with repo:read), 401 otherwise;
 * each notice is delivered only while the credential still resolves to the same user (a revoked
 * token or signed-out session ends the stream).
 */
import { resolveActor, requireScope } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { userChannel } from "@/server/services/notifications/fan-out";
import { eventStream, openStreamSlot, SSE_HEADERS } from "./pull-events";
import { handle } from "./respond";

/** The handler. Errors as JSON (server/http/respond.ts): 401 signed out, 403 scope, 429 caps. */
export function notificationEvents(req: Request): Promise<Response> {
  return handle(async () => {
    const actor = await resolveActor(req);
    if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to follow your notifications");
    requireScope(actor, "repo:read");
    const userId = actor.user.id;
    const who = `user:${userId}`;
    const shared = await openStreamSlot(who);
    const stillAuthorized = async () => {
      try {
        return (await resolveActor(req))?.user.id === userId;
      } catch {
        return false;
      }
    };
    return new Response(eventStream(req, who, userChannel(userId), { userId }, stillAuthorized, shared), { headers: SSE_HEADERS });
  }, req);
}
