/**
 * Route loading states (the loading.tsx files): skeletons shaped like the page that is coming,
 * shown at once on navigation while the server renders it. Each is a `role=status` region with
 * a screen-reader label; the blocks themselves are aria-hidden.
 */
import { Skeleton } from "@/components/ui/skeleton";
import { container, cx } from "@/components/ui/styles";

function Status({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cx(container, "py-6", className)} role="status" aria-live="polite" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}

/** Code browser: branch bar, file list, README. */
export function CodeSkeleton() {
  return (
    <Status label="Loading files…">
      <Skeleton className="mb-4 h-8 w-40" />
      <div className="space-y-px overflow-hidden rounded-lg border border-border">
        <Skeleton className="h-11 w-full rounded-none" />
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-9 w-full rounded-none opacity-70" />
        ))}
      </div>
      <Skeleton className="mt-6 h-48 w-full" />
    </Status>
  );
}

/** A list page (issues, pull requests): filter bar and rows; `label` is what screen readers hear. */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <Status label={label}>
      <div className="mb-4 flex gap-2">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="ml-auto h-8 w-24" />
      </div>
      <div className="space-y-px overflow-hidden rounded-lg border border-border">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-14 w-full rounded-none opacity-70" />
        ))}
      </div>
    </Status>
  );
}

/** Issues list. */
export function IssueListSkeleton() {
  return <ListSkeleton label="Loading issues…" />;
}

/** Board: a row of columns with cards. */
export function BoardSkeleton() {
  return (
    <Status label="Loading the board…">
      <div className="flex gap-3 overflow-hidden">
        {Array.from({ length: 5 }, (_, c) => (
          <div key={c} className="w-72 shrink-0 space-y-2">
            <Skeleton className="h-6 w-32" />
            {Array.from({ length: 4 - (c % 3) }, (_, i) => (
              <Skeleton key={i} className="h-20 w-full" />
            ))}
          </div>
        ))}
      </div>
    </Status>
  );
}

/** Issue page: title, body, timeline and the properties sidebar. */
export function IssueSkeleton() {
  return (
    <Status label="Loading the issue…">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="mt-3 h-5 w-64" />
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="space-y-4">
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
        <div className="space-y-3">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      </div>
    </Status>
  );
}

/** Pull request list. */
export function PullListSkeleton() {
  return <ListSkeleton label="Loading pull requests…" />;
}

/** A pull request tab below its header: description, timeline, merge box. */
export function PullTabSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-live="polite" data-testid="skeleton">
      <span className="sr-only">Loading pull request…</span>
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-6 w-1/2" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
