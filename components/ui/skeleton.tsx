import { cx } from "./styles";

/** A pulsing placeholder block shown while a route loads (loading.tsx files); hidden from screen readers. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx("animate-pulse rounded-md bg-accent", className)} />;
}

/** The loading state of a whole page region: an accessible "Loading…" status plus skeleton rows. */
export function SkeletonPage({ rows = 6, className, label = "Loading…" }: { rows?: number; className?: string; label?: string }) {
  return (
    <div className={cx("space-y-3", className)} role="status" aria-live="polite" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-7 w-1/3" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={cx("h-10", i % 3 === 2 ? "w-2/3" : "w-full")} />
      ))}
    </div>
  );
}
