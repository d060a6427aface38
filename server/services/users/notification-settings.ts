/**
 * The caller's notification email settings (docs/notifications-email.md "Settings"): email on or
 * off, the reasons not emailed, and one daily digest instead of an email per event. A user with
 * no NotificationSettings row has the defaults (email on, nothing muted, no digest); the first
 * update writes the row.
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { inTransaction } from "@/server/db/transaction";
import { NOTIFICATION_REASONS, type NotificationReason } from "@/server/services/notifications/event";

/** What each reason means, for the settings page (GitHub's words where it has them). */
export const REASON_LABELS: Record<NotificationReason, { label: string; description: string }> = {
  review_requested: { label: "Review requested", description: "You or a team you are on is asked to review a pull request." },
  assigned: { label: "Assigned", description: "An issue or pull request is assigned to you." },
  mention: { label: "Mentioned", description: "Someone @-mentions you." },
  team_mention: { label: "Team mentioned", description: "Someone @-mentions a team you are on." },
  author: { label: "Your threads", description: "Activity on issues and pull requests you opened." },
  comment: { label: "Threads you commented on", description: "Activity on threads you took part in." },
  state_change: { label: "State changes", description: "Threads you closed, reopened or merged change again." },
  ci_failed: { label: "Failed checks", description: "A check fails on your pull request or commit." },
  subscribed: { label: "Watching", description: "Activity in repositories and threads you watch." },
};

export const updateNotificationSettingsInput = z.object({
  /** Email at all. */
  email: z.boolean().optional(),
  /** Reasons that are not emailed (each at most once; [] emails every reason). */
  mutedReasons: z
    .array(z.enum(NOTIFICATION_REASONS))
    .max(NOTIFICATION_REASONS.length)
    .refine((rs) => new Set(rs).size === rs.length, "mutedReasons lists a reason twice")
    .optional(),
  /** One daily digest instead of an email per event. */
  dailyDigest: z.boolean().optional(),
});

/** users.notificationSettings: the settings, the reasons to choose from, and whether this server can send email. */
export interface NotificationSettingsView {
  email: boolean;
  mutedReasons: NotificationReason[];
  dailyDigest: boolean;
  /** SMTP_URL is set: email is sent from this server. */
  emailConfigured: boolean;
  /** The caller's address (null: none, nothing can be sent to them). */
  address: string | null;
  reasons: { id: NotificationReason; label: string; description: string }[];
}

const parseReasons = (s: string) =>
  s.split(",").filter((r): r is NotificationReason => (NOTIFICATION_REASONS as readonly string[]).includes(r));

/** The settings of `userId` (defaults when never saved). Errors: NOT_FOUND is impossible (the caller exists). */
export async function getNotificationSettings(db: Db, userId: string): Promise<NotificationSettingsView> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, notificationSettings: { select: { email: true, mutedReasons: true, dailyDigest: true } } },
  });
  const s = user?.notificationSettings ?? { email: true, mutedReasons: "", dailyDigest: false };
  return {
    email: s.email,
    mutedReasons: parseReasons(s.mutedReasons),
    dailyDigest: s.dailyDigest,
    emailConfigured: getConfig().mail !== undefined,
    address: user?.email ?? null,
    reasons: NOTIFICATION_REASONS.map((id) => ({ id, ...REASON_LABELS[id] })),
  };
}

/**
 * Updates the given fields of `userId`'s settings (the others keep their value) and returns the
 * settings as getNotificationSettings does. Muted reasons are stored in NOTIFICATION_REASONS
 * order. Editable whether or not SMTP is configured.
 */
export async function updateNotificationSettings(
  db: Db,
  userId: string,
  input: z.infer<typeof updateNotificationSettingsInput>,
): Promise<NotificationSettingsView> {
  const data = {
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.dailyDigest !== undefined ? { dailyDigest: input.dailyDigest } : {}),
    ...(input.mutedReasons !== undefined
      ? { mutedReasons: NOTIFICATION_REASONS.filter((r) => input.mutedReasons!.includes(r)).join(",") }
      : {}),
  };
  await inTransaction(db, (tx) => tx.notificationSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data }));
  return getNotificationSettings(db, userId);
}
