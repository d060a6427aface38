"use client";
import Link from "next/link";
import { useState } from "react";

/**
 * A next/link for rows of long lists (files, issues, commits, repositories): it prefetches only
 * when the pointer rests on it or it gets keyboard focus, instead of when it scrolls into view, so
 * a page of 40 rows does not fire 40 prefetches (docs/ui.md "Loading states"). Next's own
 * hover-prefetch pattern: `prefetch={false}` until active, then `null` (the default, partial
 * prefetch for dynamic pages).
 */
export function PrefetchLink({ onMouseEnter, onFocus, ...props }: React.ComponentProps<typeof Link>) {
  const [active, setActive] = useState(false);
  return (
    <Link
      {...props}
      prefetch={active ? null : false}
      onMouseEnter={(e) => {
        setActive(true);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        setActive(true);
        onFocus?.(e);
      }}
    />
  );
}
