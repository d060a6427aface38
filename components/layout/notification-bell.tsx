"use client";
/**
 * The top bar's notification bell (docs/notifications.md "Live updates"): a link to
 * /notifications with the unread count (notifications.unreadCount; the badge is left out at 0),
 * kept live without reloads by the user's event stream (GET /api/notifications/events,
 * server/http/notification-events.ts): every notice (a new notification, threads marked in
 * another tab) asks for the count again, and so does a reconnect (it may have missed notices).
 * A hidden tab closes its stream and opens it again when shown.
 * Other parts of the page ask for a refresh with the window event NOTIFICATIONS_CHANGED.
 * Its accessible name is its visible text plus hidden words: "Notifications 3 unread".
 */
import { useEffect, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { BellIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/styles";
import { countBadge } from "@/components/inbox/model";

/** Window event: notifications changed here (marked on the page); the bell asks for its count again. */
export const NOTIFICATIONS_CHANGED = "svc:notifications-changed";
/** Window event the bell dispatches on each notice of the stream: the notifications page refetches its list. */
export const NOTIFICATION_NOTICE = "svc:notification-notice";

export function NotificationBell({ initial, className }: { initial: { count: number } | null; className?: string }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const unread = useQuery({
    ...trpc.notifications.unreadCount.queryOptions(),
    initialData: initial ?? undefined,
    refetchOnWindowFocus: true,
  });
  const { refetch } = unread;
  // the stream is subscribed (a marker for tests: notices from now on reach the bell)
  const [live, setLive] = useState(false);
  useEffect(() => {
    const again = () => void refetch();
    window.addEventListener(NOTIFICATIONS_CHANGED, again);
    if (typeof EventSource === "undefined") return () => window.removeEventListener(NOTIFICATIONS_CHANGED, again);
    let source: EventSource | null = null;
    let timer: number | undefined;
    const soon = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        again();
        window.dispatchEvent(new Event(NOTIFICATION_NOTICE));
      }, 150);
    };
    // a hidden tab holds no stream (browsers allow ~6 connections per host over HTTP/1.1, and every
    // tab has a bell): it closes when the tab is hidden and reopens, with a refresh, when shown
    let connections = 0;
    const connect = () => {
      if (source) return;
      source = new EventSource("/api/notifications/events");
      source.addEventListener("ready", () => {
        setLive(true);
        connections += 1;
        if (connections > 1) soon();
      });
      source.addEventListener("update", soon);
    };
    const disconnect = () => {
      source?.close();
      source = null;
      setLive(false);
    };
    const onVisibility = () => (document.visibilityState === "hidden" ? disconnect() : connect());
    if (document.visibilityState !== "hidden") connect();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener(NOTIFICATIONS_CHANGED, again);
      document.removeEventListener("visibilitychange", onVisibility);
      source?.close();
    };
  }, [refetch]);
  const count = unread.data?.count ?? 0;
  return (
    <Link
      href="/notifications"
      className={cx(className, "inline-flex items-center gap-1.5 aria-[current=page]:bg-slate-800 aria-[current=page]:text-white")}
      aria-current={pathname === "/notifications" ? "page" : undefined}
      title={count > 0 ? `Notifications, ${count} unread` : "Notifications"}
      data-testid="nav-notifications"
      data-count={count}
      data-live={live ? "on" : "off"}
    >
      <BellIcon />
      <span className="sr-only">Notifications</span>
      {count > 0 && (
        <>
          <span className="sr-only"> </span>
          <span
            className="min-w-[1.25rem] rounded-full bg-sky-400 px-1.5 text-center text-xs font-semibold leading-5 text-slate-900"
            data-testid="nav-notifications-count"
          >
            {countBadge(count)}
          </span>
          <span className="sr-only"> unread</span>
        </>
      )}
    </Link>
  );
}
