"use client";
/**
 * The Files changed tab's revision picker, its notice and the since-your-review banner (docs/ui.md
 * "Revision picker"). The chosen range lives in the address (`?from=A&to=B`), so it survives a
 * reload and can be linked; choosing navigates, and the page renders that range's interdiff
 * (pulls.compareRevisions) on the server.
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Select } from "@/components/ui/select";
import { cx } from "@/components/ui/styles";
import { rangeHref, rangeOfValue, rangeOptions, rangeValue, type RevisionRange, type RevisionRef } from "./revision-range";

/** "All changes" / "Changes since your last review" / "Revision A → B", navigating to the choice. */
export function RevisionPicker({
  base,
  revisions,
  since,
  current,
}: {
  /** The Files changed tab's path (".../pulls/N/files"). */
  base: string;
  revisions: RevisionRef[];
  since: RevisionRange | null;
  current: RevisionRange | null;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  if (revisions.length < 2) return null;
  return (
    <div className="flex items-center gap-2" data-testid="revision-picker" aria-busy={pending || undefined}>
      <Select
        value={rangeValue(current)}
        onValueChange={(v) => start(() => router.push(rangeHref(base, rangeOfValue(v))))}
        options={rangeOptions(revisions, since, current)}
        ariaLabel="Revisions to show"
        testId="revision-select"
        className="max-w-full sm:w-auto"
      />
    </div>
  );
}

const notice = "mb-3 rounded-md border border-border bg-muted px-3 py-2 text-sm text-foreground";

/** What an interdiff shows: its two revisions, and whether it is empty (a rebase) or carries changes from the base. */
export function RevisionNotice({
  range,
  empty,
  rebaseConflicted,
  base,
}: {
  range: RevisionRange;
  empty: boolean;
  rebaseConflicted: boolean;
  base: string;
}) {
  return (
    <div className={notice} role="status" data-testid="revision-notice">
      <p>
        Showing changes between revisions {range.from} and {range.to}. Comments are made on{" "}
        <Link href={base} className="text-primary underline underline-offset-2">
          all changes
        </Link>
        .
      </p>
      {empty && <p data-testid="revision-empty">This push changed nothing in the change (a rebase).</p>}
      {rebaseConflicted && (
        <p data-testid="revision-conflicted">Includes changes from the base: the old change does not apply to the new base.</p>
      )}
    </div>
  );
}

/** "N files changed since your review", linking to the since-your-review range. */
export function SinceReviewBanner({ files, href, className }: { files: number; href: string; className?: string }) {
  return (
    <div className={cx(notice, "flex flex-wrap items-center gap-x-2", className)} data-testid="since-review-banner">
      <span>{files === 0 ? "No files changed" : `${files} file${files === 1 ? "" : "s"} changed`} since your review.</span>
      <Link href={href} className="font-medium text-primary underline underline-offset-2" data-testid="since-review-link">
        View changes since your review
      </Link>
    </div>
  );
}
