/**
 * Per-thread subscriptions (docs/notifications.md "Subscribing"): notifications.subscribe,
 * unsubscribe and subscription, for the Subscribe button of issue and pull request pages. The
 * subject must be on a repository the caller can read (NOT_FOUND otherwise, as for the subject).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { authorizeRepo } from "@/server/services/repos/access";
import { uuid } from "@/server/validation/ids";

export const subjectInput = z.object({
  subjectType: z.enum(["issue", "pull_request"]),
  subjectId: uuid("subjectId", "an issue or pull request UUID"),
});
type SubjectInput = z.infer<typeof subjectInput>;

/** What the Subscribe button shows: subscribed or not, and why. */
export interface SubscriptionView {
  subscribed: boolean;
  /** "subscribed" / "unsubscribed": the caller's choice; "participating": a thread exists; "watching": the repository at "all"; "ignoring"; "none". */
  reason: "subscribed" | "unsubscribed" | "participating" | "watching" | "ignoring" | "none";
}

/** The subject's repository after checking the caller may read it. @throws AppError NOT_FOUND */
async function subjectRepo(db: Db, actor: Actor, input: SubjectInput): Promise<string> {
  const row =
    input.subjectType === "issue"
      ? await db.issue.findUnique({ where: { id: input.subjectId }, select: { repoId: true } })
      : await db.pullRequest.findUnique({ where: { id: input.subjectId }, select: { repoId: true } });
  const noun = input.subjectType === "issue" ? "issue" : "pull request";
  if (!row) throw new AppError("NOT_FOUND", `${noun} not found`);
  try {
    await authorizeRepo(db, actor, { repoId: row.repoId }, "read");
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") throw new AppError("NOT_FOUND", `${noun} not found`);
    throw e;
  }
  return row.repoId;
}

/** notifications.subscription: the caller's state for the thread. Three queries. */
export async function threadSubscription(db: Db, actor: Actor, input: SubjectInput): Promise<SubscriptionView> {
  const repoId = await subjectRepo(db, actor, input);
  const key = { userId: actor.user.id, subjectType: input.subjectType, subjectId: input.subjectId };
  const [choice, thread, watch] = await Promise.all([
    db.notificationSubscription.findUnique({ where: { userId_subjectType_subjectId: key }, select: { subscribed: true } }),
    db.notification.findUnique({ where: { userId_subjectType_subjectId: key }, select: { id: true } }),
    db.repoWatch.findUnique({ where: { userId_repoId: { userId: actor.user.id, repoId } }, select: { level: true } }),
  ]);
  if (choice) return { subscribed: choice.subscribed, reason: choice.subscribed ? "subscribed" : "unsubscribed" };
  if (watch?.level === "ignore") return { subscribed: false, reason: "ignoring" };
  if (thread) return { subscribed: true, reason: "participating" };
  if (watch?.level === "all") return { subscribed: true, reason: "watching" };
  return { subscribed: false, reason: "none" };
}

/**
 * notifications.subscribe / unsubscribe: records the caller's choice for the thread (an
 * unsubscribed thread notifies only on a mention or a review request). Returns the new state.
 */
export async function setThreadSubscription(db: Db, actor: Actor, input: SubjectInput, subscribed: boolean): Promise<SubscriptionView> {
  const repoId = await subjectRepo(db, actor, input);
  const key = { userId: actor.user.id, subjectType: input.subjectType, subjectId: input.subjectId };
  await db.notificationSubscription.upsert({
    where: { userId_subjectType_subjectId: key },
    create: { ...key, repoId, subscribed },
    update: { subscribed },
  });
  return { subscribed, reason: subscribed ? "subscribed" : "unsubscribed" };
}
