import type { Metadata } from "next";
import { getServerCaller } from "@/server/auth/session";
import { NotificationsView, type NotificationFilter } from "@/components/notifications/notifications-view";

export const metadata: Metadata = { title: "Notifications" };

const FILTERS: NotificationFilter[] = ["unread", "all", "participating"];

/**
 * /notifications (docs/notifications.md "The notifications page"): the signed-in viewer's
 * notification threads grouped by repository, with filter tabs and keyboard triage (the layout
 * sends the signed-out to sign in). `?filter=unread|all|participating` (default unread).
 */
export default async function Notifications({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).filter;
  const filter = FILTERS.find((f) => f === raw) ?? "unread";
  const initial = await (await getServerCaller()).notifications.list({ filter });
  return <NotificationsView filter={filter} initial={initial} />;
}
