"use client";
/**
 * The notifications page (docs/notifications.md "The notifications page"): the viewer's threads
 * (notifications.list) grouped by repository, newest activity first, with filter tabs (Unread,
 * All, Participating). Each row links straight to the activity (the comment's anchor) and is
 * marked read when opened. Keyboard triage, GitHub's keys: `j`/`k` move, `e` done, `Shift+U`
 * unread, Enter opens (the selected row's link has focus). The list follows new notifications
 * live: the bell (NotificationBell) tells the page of every notice (NOTIFICATION_NOTICE).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { NOTIFICATION_NOTICE, NOTIFICATIONS_CHANGED } from "@/components/layout/notification-bell";
import { TimeAgo } from "@/components/issues/ui";
import { button, card, container, cx } from "@/components/ui/styles";
import type { NotificationView } from "@/server/services/notifications/list-notifications";

export type NotificationFilter = "unread" | "all" | "participating";

const TABS: { filter: NotificationFilter; label: string }[] = [
  { filter: "unread", label: "Unread" },
  { filter: "all", label: "All" },
  { filter: "participating", label: "Participating" },
];

/** Words for a reason, as GitHub shows them. */
const REASON_LABEL: Record<string, string> = {
  review_requested: "Review requested",
  assigned: "Assigned",
  mention: "Mentioned",
  team_mention: "Team mentioned",
  author: "Author",
  comment: "Commented",
  state_change: "State changed",
  ci_failed: "CI failed",
  subscribed: "Subscribed",
};

export function NotificationsView({
  filter,
  initial,
}: {
  filter: NotificationFilter;
  initial: { items: NotificationView[]; nextCursor: string | null };
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const options = trpc.notifications.list.queryOptions({ filter });
  const list = useQuery({ ...options, initialData: initial, refetchOnWindowFocus: true });
  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const [selected, setSelected] = useState(0);
  const rows = useRef(new Map<string, HTMLAnchorElement>());
  const { refetch } = list;

  useEffect(() => {
    const again = () => void refetch();
    window.addEventListener(NOTIFICATION_NOTICE, again);
    return () => window.removeEventListener(NOTIFICATION_NOTICE, again);
  }, [refetch]);

  const groups = useMemo(() => {
    const byRepo = new Map<string, { repo: NotificationView["repo"]; items: NotificationView[] }>();
    for (const n of items) {
      const g = byRepo.get(n.repo.id) ?? { repo: n.repo, items: [] };
      g.items.push(n);
      byRepo.set(n.repo.id, g);
    }
    return [...byRepo.values()];
  }, [items]);
  // the keyboard order is the page's order: repository groups, then rows
  const order = useMemo(() => groups.flatMap((g) => g.items), [groups]);
  const index = Math.min(selected, Math.max(order.length - 1, 0));
  const current = order[index];

  const change = (ids: string[], patch: (n: NotificationView) => NotificationView | null) => {
    queryClient.setQueryData(options.queryKey, (old) =>
      old
        ? { ...old, items: old.items.map((n) => (ids.includes(n.id) ? patch(n) : n)).filter((n): n is NotificationView => n !== null) }
        : old,
    );
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };
  const markDone = async (n: NotificationView) => {
    change([n.id], () => null);
    await client.notifications.markDone.mutate({ ids: [n.id] });
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };
  const markUnread = async (n: NotificationView) => {
    change([n.id], (x) => ({ ...x, unread: true }));
    await client.notifications.markUnread.mutate({ ids: [n.id] });
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };
  const markRead = async (n: NotificationView) => {
    if (!n.unread) return;
    await client.notifications.markRead.mutate({ ids: [n.id] });
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };
  const markAllRead = async () => {
    const before = items[0]?.lastActivityAt;
    change(
      items.map((n) => n.id),
      (x) => (filter === "unread" ? null : { ...x, unread: false }),
    );
    await client.notifications.markAllRead.mutate(before ? { before } : {});
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  };

  const move = (by: number) => {
    const next = Math.min(Math.max(index + by, 0), Math.max(order.length - 1, 0));
    setSelected(next);
    const n = order[next];
    if (n) rows.current.get(n.id)?.focus();
  };
  const has = () => order.length > 0;
  useShortcuts([
    { id: "notifications-next", keys: "j", label: "Next notification", group: "Notifications", run: () => move(1), when: has },
    { id: "notifications-prev", keys: "k", label: "Previous notification", group: "Notifications", run: () => move(-1), when: has },
    {
      id: "notifications-done",
      keys: "e",
      label: "Mark as done",
      group: "Notifications",
      run: () => current && void markDone(current),
      when: has,
    },
    {
      id: "notifications-unread",
      keys: "U",
      label: "Mark as unread",
      group: "Notifications",
      run: () => current && void markUnread(current),
      when: has,
    },
    { id: "notifications-open", keys: "Enter", label: "Open notification", group: "Notifications", run: () => {}, listOnly: true },
  ]);

  return (
    <div className={cx(container, "py-6")} data-testid="notifications-page" data-filter={filter}>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Notifications</h1>
        <button
          type="button"
          className={cx(button.secondary, "sm:ml-auto")}
          onClick={() => void markAllRead()}
          disabled={!items.some((n) => n.unread)}
        >
          Mark all as read
        </button>
      </div>
      <div className={card}>
        <nav
          className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-muted px-4 py-3 text-sm"
          aria-label="Notification filters"
        >
          {TABS.map((t) => (
            <Link
              key={t.filter}
              href={t.filter === "unread" ? "/notifications" : `/notifications?filter=${t.filter}`}
              aria-current={filter === t.filter ? "page" : undefined}
              className={filter === t.filter ? "font-semibold text-foreground" : "text-muted-foreground hover:text-foreground"}
              data-testid={`notifications-tab-${t.filter}`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        {order.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-muted-foreground" data-testid="notifications-empty">
            {filter === "unread" ? "All caught up: no unread notifications." : "No notifications."}
          </p>
        ) : (
          groups.map((g) => (
            <section key={g.repo.id} aria-labelledby={`repo-${g.repo.id}`} data-testid="notifications-group">
              <h2 id={`repo-${g.repo.id}`} className="border-b border-border bg-muted/50 px-4 py-2 text-sm font-semibold">
                <Link href={`/${encodeURIComponent(g.repo.owner)}/${encodeURIComponent(g.repo.name)}`} className="hover:underline">
                  {g.repo.owner}/{g.repo.name}
                </Link>
              </h2>
              <ul className="divide-y divide-border">
                {g.items.map((n) => {
                  const active = current?.id === n.id;
                  return (
                    <li
                      key={n.id}
                      className={cx("flex items-center gap-3 px-4 py-2 text-sm", active && "bg-primary-muted")}
                      data-testid="notification-row"
                      data-id={n.id}
                      data-unread={n.unread ? "true" : "false"}
                      data-selected={active ? "true" : "false"}
                    >
                      <span
                        className={cx("h-2 w-2 shrink-0 rounded-full", n.unread ? "bg-sky-500" : "bg-transparent")}
                        aria-hidden="true"
                      />
                      <Link
                        href={n.url}
                        ref={(el) => {
                          if (el) rows.current.set(n.id, el);
                          else rows.current.delete(n.id);
                        }}
                        onFocus={() => setSelected(order.indexOf(n))}
                        onClick={() => void markRead(n)}
                        className={cx(
                          "min-w-0 flex-1 truncate hover:underline",
                          n.unread ? "font-semibold text-foreground" : "text-muted-foreground",
                        )}
                        data-testid="notification-link"
                      >
                        {n.unread && <span className="sr-only">Unread: </span>}
                        {n.subject.type === "pull_request" ? "Pull request" : n.subject.type === "issue" ? "Issue" : "Commit"}
                        {n.subject.number !== null && ` #${n.subject.number}`}: {n.subject.title}
                      </Link>
                      <span className="hidden shrink-0 text-xs text-muted-foreground sm:inline" data-testid="notification-reason">
                        {REASON_LABEL[n.reason] ?? n.reason}
                      </span>
                      <span className="shrink-0 text-xs text-muted-foreground">
                        <TimeAgo iso={n.lastActivityAt} />
                      </span>
                      <button
                        type="button"
                        className="shrink-0 rounded px-2 py-0.5 text-xs text-muted-foreground hover:bg-muted hover:text-foreground"
                        onClick={() => void markDone(n)}
                        aria-label={`Done: ${n.subject.title}`}
                      >
                        Done
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        )}
      </div>
      <p className="mt-3 text-xs text-muted-foreground">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>e</kbd> done, <kbd>Shift</kbd>+<kbd>U</kbd> unread.
      </p>
    </div>
  );
}
