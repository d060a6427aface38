"use client";
/**
 * The Files changed tab's revision picker (presets and any two revisions), its notice and the
 * since-your-review banner, shared with the Conversation tab (docs/ui.md "Revision picker"). The chosen range lives in the address (`?from=A&to=B`), so it survives a
 * reload and can be linked; choosing navigates, and the page renders that range's interdiff
 * (pulls.compareRevisions) on the server.
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { cx } from "@/components/ui/styles";
import {
  initialPair,
  rangeHref,
  rangeOfValue,
  rangeOptions,
  rangeValue,
  revisionChoices,
  type RevisionRange,
  type RevisionRef,
} from "./revision-range";

/**
 * "All changes" / "Changes since your last review" / "Revision A → B" (presets), any range of
 * revisions (two selects, from and to, and "Compare"), navigating to the choice; and "Single
 * commit…", which opens one of the pull request's commits on its commit page.
 */
export function RevisionPicker({
  base,
  revisions,
  since,
  current,
  commits = [],
  commitBase,
}: {
  /** The Files changed tab's path (".../pulls/N/files"). */
  base: string;
  revisions: RevisionRef[];
  /** The reader's since-your-review range (pulls.sinceReview), or null. */
  since: RevisionRange | null;
  current: RevisionRange | null;
  /** The pull request's commits (pulls.getCommits), oldest first: "Single commit" opens one's commit page. */
  commits?: { sha: string; message: string }[];
  /** The repository's commit path ("/owner/repo/commit"). */
  commitBase?: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  if (revisions.length < 2) return null;
  const go = (r: RevisionRange | null) => start(() => router.push(rangeHref(base, r)));
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="revision-picker" aria-busy={pending || undefined}>
      <Select
        value={rangeValue(current)}
        onValueChange={(v) => go(rangeOfValue(v))}
        options={rangeOptions(revisions, since, current)}
        ariaLabel="Revisions to show"
        testId="revision-select"
        className="max-w-full sm:w-auto"
      />
      <RangeControl key={rangeValue(current)} revisions={revisions} since={since} current={current} onCompare={go} />
      {commitBase && commits.length > 0 && (
        <Select
          value={undefined}
          placeholder="Single commit…"
          onValueChange={(sha) => start(() => router.push(`${commitBase}/${sha}`))}
          options={commits.map((c) => ({ value: c.sha, label: `${c.sha.slice(0, 7)} ${c.message.split("\n")[0]}` }))}
          ariaLabel="Show a single commit"
          testId="revision-commit"
          className="max-w-full sm:w-auto sm:max-w-xs [&>span]:truncate"
        />
      )}
    </div>
  );
}

/** Any two revisions: "From" and "to" selects (Radix: arrow keys, typeahead) and a Compare button, disabled while they are equal. */
function RangeControl({
  revisions,
  since,
  current,
  onCompare,
}: {
  revisions: RevisionRef[];
  since: RevisionRange | null;
  current: RevisionRange | null;
  onCompare: (r: RevisionRange) => void;
}) {
  const [pair, setPair] = useState(() => initialPair(revisions, current, since));
  if (!pair) return null;
  const choices = revisionChoices(revisions);
  const same = pair.from === pair.to;
  const shown = current !== null && current.from === pair.from && current.to === pair.to;
  return (
    <div
      role="group"
      className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground"
      aria-label="Compare any two revisions"
      data-testid="revision-range"
    >
      <span aria-hidden="true">From</span>
      <Select
        value={String(pair.from)}
        onValueChange={(v) => setPair({ ...pair, from: Number(v) })}
        options={choices}
        ariaLabel="From revision"
        testId="revision-from"
        className="w-auto"
      />
      <span aria-hidden="true">to</span>
      <Select
        value={String(pair.to)}
        onValueChange={(v) => setPair({ ...pair, to: Number(v) })}
        options={choices}
        ariaLabel="To revision"
        testId="revision-to"
        className="w-auto"
      />
      <Button variant="secondary" disabled={same || shown} onClick={() => onCompare(pair)} data-testid="revision-compare">
        Compare
      </Button>
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
