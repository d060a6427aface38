"use client";
/**
 * A row of tabs that scrolls sideways when it does not fit (a phone): labels never wrap or get cut,
 * a fade at an edge shows there is more that way, and the current tab (`aria-current="page"`) is
 * scrolled into view when `active` changes. Renders a `nav` (props go to it) inside a wrapper that
 * holds the fades.
 */
import { useEffect, useRef, useState } from "react";
import { cx } from "./styles";

const fade = "pointer-events-none absolute inset-y-0 w-8 from-background to-transparent transition-opacity";

export function ScrollRow({
  active,
  outerClassName,
  className,
  children,
  ...props
}: {
  /** The current tab's key: when it changes, that tab is scrolled into view. */
  active?: string | null;
  /** Classes of the wrapper (margins). */
  outerClassName?: string;
  className?: string;
  children: React.ReactNode;
} & React.ComponentProps<"nav">) {
  const ref = useRef<HTMLElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setEdges({ start: el.scrollLeft > 1, end: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);
  useEffect(() => {
    // the current tab in view (sideways only: the page does not scroll)
    const el = ref.current;
    const tab = el?.querySelector<HTMLElement>("[aria-current='page']");
    if (!el || !tab) return;
    const left = tab.offsetLeft - el.offsetLeft;
    if (left < el.scrollLeft) el.scrollLeft = Math.max(0, left - 16);
    else if (left + tab.offsetWidth > el.scrollLeft + el.clientWidth) el.scrollLeft = left + tab.offsetWidth - el.clientWidth + 16;
  }, [active]);
  return (
    <div className={cx("relative", outerClassName)}>
      <nav ref={ref} className={cx("flex overflow-x-auto whitespace-nowrap [&>*]:shrink-0", className)} {...props}>
        {children}
      </nav>
      <span
        aria-hidden="true"
        className={cx(fade, "left-0 bg-gradient-to-r", edges.start ? "opacity-100" : "opacity-0")}
        data-testid="scroll-fade-start"
      />
      <span
        aria-hidden="true"
        className={cx(fade, "right-0 bg-gradient-to-l", edges.end ? "opacity-100" : "opacity-0")}
        data-testid="scroll-fade-end"
      />
    </div>
  );
}
