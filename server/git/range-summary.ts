/**
 * What a compare shows beside its diff (docs/pulls.md "Git processes and caches"): the merge base,
 * ahead/behind counts and the commits of `base...head`, computed once per (base, head) pair of
 * commit ids and cached. Ids never change meaning, so entries never go stale: a push moves a branch
 * to a new id, and the next compare asks about a new pair. This is what keeps the `paths` pages of
 * a large compare (docs/pulls.md "Diff") from repeating ahead/behind and the commit list for every
 * page.
 */
import { AppError } from "@/server/errors";
import { aheadBehind, listRangeCommits, mergeBase, type RangeCommit } from "./commits";

export interface RangeSummary {
  mergeBaseSha: string;
  /** Commits on head not on base / on base not on head (git rev-list --left-right --count). */
  aheadBy: number;
  behindBy: number;
  /** mergeBase..head, oldest first, at most 250 (`totalCommits` counts them all). */
  commits: RangeCommit[];
  totalCommits: number;
}

/** Summaries by "gitDir base head", least recently used first; in-flight computations are shared. */
const cache = new Map<string, Promise<RangeSummary>>();
/** Pairs kept (each ≤ 250 commits: well under a MiB unless the messages are huge). */
const CACHE_SIZE = 32;

/**
 * The summary of `base...head` (resolved commit ids) in `gitDir`: merge base, ahead/behind and
 * the commit list, as repos.compare returns them. `borrow`: as DiffOptions.borrow (a sibling fork's objects). Errors: BAD_REQUEST when the histories are
 * unrelated (then nothing is cached); a plain Error when git fails (e.g. an unknown id).
 */
export function rangeSummary(gitDir: string, base: string, head: string, borrow?: readonly string[]): Promise<RangeSummary> {
  const key = `${gitDir}\0${base}\0${head}\0${(borrow ?? []).join("\0")}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const computed = (async (): Promise<RangeSummary> => {
    const mb = await mergeBase(gitDir, base, head, borrow);
    if (!mb) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
    const [counts, range] = await Promise.all([
      aheadBehind(gitDir, base, head, borrow),
      listRangeCommits(gitDir, mb, head, undefined, { borrow }),
    ]);
    // shared by every later answer for the pair: frozen, so no caller can change another's
    const commits = Object.freeze(range.commits.map((c) => Object.freeze(c))) as RangeCommit[];
    return Object.freeze({ mergeBaseSha: mb, ...counts, commits, totalCommits: range.totalCommits });
  })();
  cache.set(key, computed);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  computed.catch(() => cache.get(key) === computed && cache.delete(key));
  return computed;
}
