/**
 * One-click unsubscribe (docs/notifications-email.md "Unsubscribe"; RFC 8058): the token of an
 * email's List-Unsubscribe link mutes that thread for its recipient — a NotificationSubscription
 * row with `subscribed: false`, as `notifications.unsubscribe` writes — with no session: the
 * signed token is the capability.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { verifyUnsubscribeToken, type UnsubscribeTarget } from "./unsubscribe-token";

/** The thread a token names and how the page shows it. */
export interface UnsubscribePreview {
  target: UnsubscribeTarget;
  /** `owner/repo`. */
  repo: string;
  /** "pull request #12: Title", "issue #5: Title", "commit abc1234". */
  subject: string;
}

/**
 * What `token` unsubscribes from. Errors: BAD_REQUEST for a malformed or tampered token, or one
 * whose user, repository or subject no longer exists.
 */
export async function previewUnsubscribe(db: Db, token: string): Promise<UnsubscribePreview> {
  const target = verifyUnsubscribeToken(token);
  if (!target)
    throw new AppError(
      "BAD_REQUEST",
      "This unsubscribe link is not valid: it was changed or cut short. Use the link from the email as it is.",
    );
  const [user, repo, subject] = await Promise.all([
    db.user.findUnique({ where: { id: target.userId }, select: { id: true } }),
    db.repository.findUnique({ where: { id: target.repoId }, select: { name: true, owner: { select: { username: true } } } }),
    target.subjectType === "issue"
      ? db.issue.findFirst({ where: { id: target.subjectId, repoId: target.repoId }, select: { number: true, title: true } })
      : target.subjectType === "pull_request"
        ? db.pullRequest.findFirst({ where: { id: target.subjectId, repoId: target.repoId }, select: { number: true, title: true } })
        : Promise.resolve({ number: null, title: target.subjectId.slice(0, 7) }),
  ]);
  if (!user || !repo || !subject)
    throw new AppError("BAD_REQUEST", "This unsubscribe link is no longer valid: its account, repository or thread was deleted.");
  const label =
    target.subjectType === "commit"
      ? `commit ${subject.title}`
      : `${target.subjectType === "issue" ? "issue" : "pull request"} #${subject.number}: ${subject.title}`;
  return { target, repo: `${repo.owner.username}/${repo.name}`, subject: label };
}

/**
 * Unsubscribes the token's user from its thread (idempotent: an upsert of the subscription row).
 * Errors: as previewUnsubscribe.
 */
export async function unsubscribeWithToken(db: Db, token: string): Promise<UnsubscribePreview> {
  const preview = await previewUnsubscribe(db, token);
  const { userId, repoId, subjectType, subjectId } = preview.target;
  await db.notificationSubscription.upsert({
    where: { userId_subjectType_subjectId: { userId, subjectType, subjectId } },
    create: { userId, repoId, subjectType, subjectId, subscribed: false },
    update: { subscribed: false },
  });
  return preview;
}
