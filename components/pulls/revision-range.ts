/**
 * The Files changed tab's revision ranges (docs/ui.md "Revision picker"): which revision a head
 * sha is, the range a force-push names, and the picker's options (the reader's since-your-review
 * range comes from the server: pulls.sinceReview).
 * Pure, unit-tested (test/unit/revision-range.test.ts). Revisions are pulls.revisions' rows,
 * oldest first, numbered from 1.
 */

/** The part of a pulls.revisions row these helpers read. */
export interface RevisionRef {
  number: number;
  headSha: string;
}

/** A range of two revision numbers (`from` before `to` for a forward comparison). */
export interface RevisionRange {
  from: number;
  to: number;
}

/**
 * The number of the newest revision whose head is `sha`, below `before` when given (a branch can
 * come back to an earlier head: the later revision is the one that was pushed then); null when no
 * revision has it.
 */
export function revisionOfSha(revisions: RevisionRef[], sha: string, before = Infinity): number | null {
  let found: number | null = null;
  for (const r of revisions) if (r.headSha === sha && r.number < before) found = r.number;
  return found;
}

/**
 * The range `?from=A&to=B` names: both whole numbers of revisions the pull request has and A ≠ B;
 * null otherwise (the page shows all changes then).
 */
export function parseRange(params: { from?: string | string[]; to?: string | string[] }, revisions: RevisionRef[]): RevisionRange | null {
  const num = (v: string | string[] | undefined) => (typeof v === "string" && /^\d{1,6}$/.test(v) ? Number(v) : null);
  const from = num(params.from);
  const to = num(params.to);
  if (from === null || to === null || from === to) return null;
  const has = (n: number) => revisions.some((r) => r.number === n);
  return has(from) && has(to) ? { from, to } : null;
}

/**
 * The range a force-push event shows: the revision before it (`before` sha) to the one it made
 * (`after` sha); null when either is not a recorded revision.
 */
export function pushRange(revisions: RevisionRef[], before: unknown, after: unknown): RevisionRange | null {
  if (typeof before !== "string" || typeof after !== "string") return null;
  const to = revisionOfSha(revisions, after);
  if (to === null) return null;
  const from = revisionOfSha(revisions, before, to);
  return from === null ? null : { from, to };
}

/** A picker option: `value` is "all" or "A-B" (Radix forbids an empty value). */
export interface RangeOption {
  value: string;
  label: string;
}

/** The option value of a range ("all" for none). */
export const rangeValue = (r: RevisionRange | null): string => (r ? `${r.from}-${r.to}` : "all");

/** The range an option value names (null for "all" or anything unreadable). */
export function rangeOfValue(value: string): RevisionRange | null {
  const m = /^(\d+)-(\d+)$/.exec(value);
  return m ? { from: Number(m[1]), to: Number(m[2]) } : null;
}

/**
 * The picker's options: "All changes"; "Changes since your last review (revision X → N)" when
 * `since` is given; "Revision A → B" for each consecutive pair; and the `current` range when it is
 * none of those (a link to any pair), so the trigger can show it.
 */
export function rangeOptions(revisions: RevisionRef[], since: RevisionRange | null, current: RevisionRange | null): RangeOption[] {
  const out: RangeOption[] = [{ value: "all", label: "All changes" }];
  if (since) out.push({ value: rangeValue(since), label: `Changes since your last review (revision ${since.from} → ${since.to})` });
  for (let i = 1; i < revisions.length; i++) {
    const r = { from: revisions[i - 1].number, to: revisions[i].number };
    if (since && rangeValue(r) === rangeValue(since)) continue;
    out.push({ value: rangeValue(r), label: `Revision ${r.from} → ${r.to}` });
  }
  if (current && !out.some((o) => o.value === rangeValue(current)))
    out.push({ value: rangeValue(current), label: `Revision ${current.from} → ${current.to}` });
  return out;
}

/** A from/to select's option: a revision number (as a string) labelled with its head. */
export function revisionChoices(revisions: RevisionRef[]): RangeOption[] {
  return revisions.map((r) => ({ value: String(r.number), label: `Revision ${r.number} (${r.headSha.slice(0, 7)})` }));
}

/**
 * The pair the from/to selects start with: the range shown (`current`), else the reader's
 * since-your-review range, else the two newest revisions; null with fewer than two revisions.
 */
export function initialPair(revisions: RevisionRef[], current: RevisionRange | null, since: RevisionRange | null): RevisionRange | null {
  if (current) return current;
  if (since) return since;
  if (revisions.length < 2) return null;
  return { from: revisions[revisions.length - 2].number, to: revisions[revisions.length - 1].number };
}

/** The Files changed tab's address for a range (`base` = ".../pulls/N/files"; null = all changes). */
export const rangeHref = (base: string, r: RevisionRange | null): string => (r ? `${base}?from=${r.from}&to=${r.to}` : base);
