import Link from "next/link";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { InboxLink } from "./inbox-link";
import { NotificationBell } from "./notification-bell";
import { container, cx } from "@/components/ui/styles";
import { UserMenu } from "./user-menu";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import type { Theme } from "@/components/theme/theme";
import { GlobalShortcuts } from "@/components/keyboard/global-shortcuts";

/**
 * The top bar on every page: logo, main links, the theme menu, and the user menu or sign in/up
 * links, and the command menu button with every page's keyboard shortcuts (components/keyboard). It stays dark in both themes (as GitHub's does), so its colours are fixed slate shades.
 * Signed in, it also links the inbox with the count of pull requests awaiting the viewer's
 * review (pulls.inboxAwaitingCount, one COUNT; kept fresh in the browser by InboxLink), and the
 * notification bell with the unread count (notifications.unreadCount; live: NotificationBell).
 */
export async function TopNav({ theme }: { theme: Theme }) {
  const actor = await getCurrentActor();
  // the count is an extra: a failure leaves the link without it (the browser asks again) rather than failing every page
  const caller = actor ? await getServerCaller() : null;
  const [inbox, unread] = caller
    ? await Promise.all([caller.pulls.inboxAwaitingCount().catch(() => null), caller.notifications.unreadCount().catch(() => null)])
    : [null, null];
  const link = "rounded-md px-2 py-1 text-sm font-medium text-slate-300 hover:bg-slate-800 hover:text-white";
  return (
    <header className="border-b border-slate-800 bg-nav">
      <nav className={cx(container, "flex h-14 items-center gap-2 sm:gap-3")}>
        <Link href="/" className="flex items-center gap-2 text-lg sm:mr-2 font-bold tracking-tight text-white" data-testid="logo">
          <span className="flex h-7 w-7 items-center justify-center rounded-md bg-emerald-500 font-mono text-sm text-slate-900">s</span>
          svc
        </Link>
        {actor && (
          <div className="flex items-center gap-1">
            {/* on phones the logo is the way home: the row keeps room for the inbox and the menus */}
            <Link href="/" className={cx(link, "hidden sm:inline")}>
              Repositories
            </Link>
            <InboxLink initial={inbox} className={link} />
            <NotificationBell initial={unread} className={link} />
            <Link href="/settings/tokens" className={cx(link, "hidden sm:inline")}>
              Tokens
            </Link>
          </div>
        )}
        {/* at phone width (390 px) the inbox, the bell, the menus and the logo share the row: tighter gaps */}
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <GlobalShortcuts signedIn={Boolean(actor)} />
          <ThemeToggle initial={theme} />
          {actor ? (
            <>
              <Link href="/new" className={cx(link, "border border-slate-700")} aria-label="New repository" title="New repository">
                + <span className="hidden sm:inline">New</span>
              </Link>
              <UserMenu username={actor.user.username} name={actor.user.name} />
            </>
          ) : (
            <>
              <Link href="/signin" className={link}>
                Sign in
              </Link>
              <Link
                href="/signup"
                className="rounded-md border border-slate-600 px-3 py-1 text-sm font-medium text-white hover:border-slate-400"
              >
                Sign up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
