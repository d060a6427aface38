"use client";
/**
 * The top bar's "Inbox" link (docs/pulls.md "The inbox page") with the number of pull requests
 * awaiting the viewer's review (pulls.inboxAwaitingCount: inboxSummary's first count alone, one
 * COUNT; the badge is left out at 0). Its accessible name is its content, the words a sighted
 * user sees plus visually hidden ones: "Inbox 3 awaiting your review" (WCAG 2.5.3, axe's
 * label-content-name-mismatch); the tooltip says "Inbox, 3 awaiting your review".
 * The top bar is rendered once per full page load (a layout), so the count is kept fresh in the
 * browser: the server's count is the query's initial data, and it is asked again when the page
 * changes and the last answer is over 5 s old, and when the window regains focus. /inbox writes its
 * own summary into the same query (InboxSummarySync), so the top bar and the page agree.
 */
import { useEffect, useRef } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { InboxIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/styles";
import { countBadge, inboxLinkLabel } from "@/components/inbox/model";

/** How old (ms) the count may be when the viewer moves to another page before it is asked again. */
const FRESH_MS = 5_000;

export function InboxLink({ initial, className }: { initial: { awaitingReview: number } | null; className?: string }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const summary = useQuery({
    ...trpc.pulls.inboxAwaitingCount.queryOptions(),
    initialData: initial ?? undefined,
    staleTime: FRESH_MS,
    refetchOnWindowFocus: true,
  });
  const { dataUpdatedAt, refetch } = summary;
  const seen = useRef(pathname);
  useEffect(() => {
    if (seen.current === pathname) return;
    seen.current = pathname;
    if (Date.now() - dataUpdatedAt > FRESH_MS) void refetch();
  }, [pathname, dataUpdatedAt, refetch]);
  const awaiting = summary.data?.awaitingReview ?? 0;
  return (
    <Link
      href="/inbox"
      className={cx(className, "inline-flex items-center gap-1.5 aria-[current=page]:bg-slate-800 aria-[current=page]:text-white")}
      aria-current={pathname === "/inbox" ? "page" : undefined}
      title={inboxLinkLabel(awaiting)}
      data-testid="nav-inbox"
      data-count={awaiting}
    >
      <InboxIcon />
      {/* the name comes from the visible text (WCAG 2.5.3 label in name): "Inbox 3 awaiting your review" */}
      <span className="sr-only sm:not-sr-only">Inbox</span>
      {awaiting > 0 && (
        <>
          <span className="sr-only"> </span>
          <span
            className="min-w-[1.25rem] rounded-full bg-emerald-500 px-1.5 text-center text-xs font-semibold leading-5 text-slate-900"
            data-testid="nav-inbox-count"
          >
            {countBadge(awaiting)}
          </span>
          <span className="sr-only"> awaiting your review</span>
        </>
      )}
    </Link>
  );
}
