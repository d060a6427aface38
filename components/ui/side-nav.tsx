"use client";
/**
 * A settings sidebar (docs/ui.md "Repository settings"): a vertical list of links beside the
 * content from the `lg` breakpoint, a wrapping row of links above it on phones (no horizontal
 * scroll at 390 px). The link whose `href` equals the current path (or, with `match: "prefix"`,
 * starts it) is marked `aria-current="page"`. Used by /settings/* and the repository settings
 * pages.
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "./styles";

export interface SideNavItem {
  href: string;
  label: string;
  icon?: React.ReactNode;
  /** Red text (a "Danger zone" entry). */
  danger?: boolean;
  testId?: string;
  /** Paths (besides `href`) on which this item is the current one. */
  activeOn?: string[];
}

export function SideNav({ label, items }: { label: string; items: SideNavItem[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="lg:sticky lg:top-6 lg:self-start" data-testid="side-nav">
      <ul className="flex flex-wrap gap-1 text-sm lg:flex-col">
        {items.map((item) => {
          const active = item.href === pathname || !!item.activeOn?.includes(pathname);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                data-testid={item.testId}
                className={cx(
                  "flex items-center gap-2 rounded-md px-3 py-1.5 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                  active
                    ? "bg-accent text-foreground"
                    : item.danger
                      ? "text-danger hover:bg-danger-muted"
                      : "text-muted-foreground hover:bg-accent/70 hover:text-foreground",
                )}
              >
                {item.icon}
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
