/**
 * Many merges into one repository at once (docs/pulls.md "Pushes": the after-push job checks
 * every open pull request into a branch that moved). Pure git, no database, like merge.ts, whose
 * `runMergeTree` starts every merge-tree process here too.
 *
 *   - One `git merge-tree --write-tree --stdin` process per MERGE_BATCH_MAX merges
 *     (git-merge-tree(1) "--stdin": one `<branch1> <branch2>` line per merge; the reference git
 *     2.39.5 has it), parsed by `parseMergeTreeBatch`. git stops the whole batch at a merge it
 *     refuses (unrelated histories, a missing commit): that merge runs alone (below) and gets
 *     its MergeError, the rest go on in a new batch (after MAX_REFUSED_BATCHES such stops, all
 *     the rest run one by one).
 *   - A git without `--stdin` (a usage error, exit 129, the first time: remembered for the
 *     process) runs one `mergeTree` per merge, at most MERGE_POOL_SIZE / 2 at a time.
 * Ahead/behind counts are one `rev-list --left-right --count` per merge either way (git has no
 * batch form before `for-each-ref %(ahead-behind)`, 2.41), MERGE_POOL_SIZE / 2 at a time.
 */
import { mapPool } from "@/lib/map-pool";
import { SHA_RE } from "@/lib/sha";
import { aheadBehind } from "./commits";
import { withObjectQuarantine } from "./quarantine";
import { MAX_CONFLICT_PATHS, MergeError, mergeTree, mergeTreeFailure, runMergeTree, type MergeCheck, type MergeTreeResult } from "./merge";

/** Git processes a batch runs at once (merge-tree and rev-list together): half the reference machine's cores twice over. */
export const MERGE_POOL_SIZE = 4;
/** Merges per `merge-tree --stdin` process (its timeout grows with the count: 60 s + 200 ms per merge). */
export const MERGE_BATCH_MAX = 500;

/** Batches git may stop (at a merge it refuses) before the rest of a call runs in the pool. */
const MAX_REFUSED_BATCHES = 3;

/** One merge of a batch: `head` into `targetTip` (full commit ids). */
export interface MergePair {
  targetTip: string;
  head: string;
}

/** A merge's answer, or why there is none: MergeError (safe to show: unrelated histories, a missing commit) or a plain Error (a server fault). */
export type MergeOutcome<T> = T | Error;

/** Whether this git has `merge-tree --stdin`: unknown until a batch tries it; a usage error says no for the rest of the process. */
let stdinSupported: boolean | undefined;

/**
 * Reads the output of `git merge-tree --write-tree --stdin -z --name-only --no-messages`
 * (git-merge-tree(1) "OUTPUT"; builtin/merge-tree.c `real_merge`): per merge, in input order,
 * `<clean: 1 or 0>\0<tree>\0`, then for a conflicted merge each conflicting path once
 * followed by \0 (never quoted with -z), then an empty field \0 ending the merge. Returns the
 * complete merges only (git may die mid-batch: what it printed before stays valid); conflicts
 * capped at MAX_CONFLICT_PATHS as `mergeTree`.
 */
export function parseMergeTreeBatch(stdout: Buffer | string): MergeTreeResult[] {
  const fields = stdout.toString().split("\0");
  const results: MergeTreeResult[] = [];
  let i = 0;
  while (i + 1 < fields.length && /^[01]$/.test(fields[i]) && SHA_RE.test(fields[i + 1])) {
    const clean = fields[i] === "1";
    const tree = fields[i + 1];
    let j = i + 2;
    const paths: string[] = [];
    while (j < fields.length && fields[j] !== "") paths.push(fields[j++]);
    // the empty field ends the merge only when a \0 follows it (the last field is what follows the last \0)
    if (j >= fields.length - 1) break;
    const conflicts = clean ? [] : paths;
    results.push({ tree, conflicts: conflicts.slice(0, MAX_CONFLICT_PATHS), conflictsTruncated: conflicts.length > MAX_CONFLICT_PATHS });
    i = j + 1;
  }
  return results;
}

/** The outcome of `work`, its error kept as the value (a batch answers every merge). */
async function settle<T>(work: () => Promise<T>): Promise<MergeOutcome<T>> {
  try {
    return await work();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

function checkPair(p: MergePair): MergeError | null {
  return SHA_RE.test(p.targetTip) && SHA_RE.test(p.head) ? null : new MergeError("a commit of the pull request is not a full commit sha");
}

/** One `merge-tree --stdin` process over `pairs` (valid ids, at most MERGE_BATCH_MAX): the merges git answered, in order. */
async function stdinBatch(gitDir: string, pairs: MergePair[], env?: Record<string, string>): Promise<MergeTreeResult[]> {
  const input = pairs.map((p) => `${p.targetTip} ${p.head}\n`).join("");
  const r = await runMergeTree(gitDir, ["--write-tree", "--stdin", "-z", "--name-only", "--no-messages"], {
    input,
    timeoutMs: 60_000 + 200 * pairs.length,
    env,
  });
  if (r.code === 129 && r.stdout.length === 0) {
    stdinSupported = false; // git before --stdin: a usage error, nothing merged
    return [];
  }
  if (r.code === 0) stdinSupported = true;
  const done = parseMergeTreeBatch(r.stdout).slice(0, pairs.length);
  if (r.code !== 0 && done.length < pairs.length)
    console.warn(`merge-tree --stdin stopped after ${done.length} of ${pairs.length} merges: ${r.stderr.trim()}`);
  return done;
}

/**
 * Merges each pair's `head` into its `targetTip` in bare repository `gitDir` as `mergeTree`
 * does (ort, merged tree written, conflicting paths), for many pairs: `merge-tree --stdin` (one
 * process per MERGE_BATCH_MAX), else at most `concurrency` `mergeTree` processes at a time
 * (`opts.stdin`: force or skip `--stdin`; default: try it unless this git refused it before;
 * `opts.env`: an object quarantine's environment, quarantine.ts, for merges only asked about). Returns one outcome per pair, in order: the result, a MergeError
 * (unrelated histories, a missing commit, an id that is not a full sha) or a plain Error.
 */
export async function mergeTrees(
  gitDir: string,
  pairs: readonly MergePair[],
  opts: { concurrency?: number; stdin?: boolean; env?: Record<string, string> } = {},
): Promise<MergeOutcome<MergeTreeResult>[]> {
  const out: (MergeOutcome<MergeTreeResult> | undefined)[] = pairs.map(checkPair).map((e) => e ?? undefined);
  let todo = pairs.map((p, i) => ({ p, i })).filter(({ i }) => out[i] === undefined);
  if ((opts.stdin ?? stdinSupported) !== false) {
    const alone: typeof todo = [];
    let refused = 0;
    while (todo.length > 0 && refused < MAX_REFUSED_BATCHES) {
      const chunk = todo.slice(0, MERGE_BATCH_MAX);
      const done = await settle(() =>
        stdinBatch(
          gitDir,
          chunk.map((c) => c.p),
          opts.env,
        ),
      );
      const answered = done instanceof Error ? [] : done;
      answered.forEach((res, n) => (out[chunk[n].i] = res));
      if (stdinSupported === false && answered.length === 0) break; // this git has no --stdin: all in the pool
      if (answered.length === chunk.length) {
        todo = todo.slice(chunk.length);
        continue;
      }
      // git stopped at this merge: it runs alone (its own error), the rest in the next batch
      refused++;
      alone.push(chunk[answered.length]);
      todo = todo.slice(answered.length + 1);
    }
    todo = [...alone, ...todo];
  }
  await mapPool(todo, opts.concurrency ?? MERGE_POOL_SIZE, async ({ p, i }) => {
    out[i] = await settle(() => mergeTree(gitDir, p.targetTip, p.head, opts.env));
  });
  return out as MergeOutcome<MergeTreeResult>[];
}

/**
 * `checkMerge` (merge.ts) for many pairs of bare repository `gitDir`: `mergeTrees` in one object
 * quarantine (quarantine.ts: the merged trees are thrown away, nothing stays in the repository) and one
 * ahead/behind count per pair, at most `concurrency` git processes at a time (default
 * MERGE_POOL_SIZE; the merges and the counts share it). One outcome per pair, in order: the
 * check, a MergeError (as checkMerge: shown to the user) or a plain Error (a server fault).
 */
export async function checkMerges(
  gitDir: string,
  pairs: readonly MergePair[],
  opts: { concurrency?: number; stdin?: boolean } = {},
): Promise<MergeOutcome<MergeCheck>[]> {
  const each = Math.max(1, Math.floor((opts.concurrency ?? MERGE_POOL_SIZE) / 2));
  const [trees, counts] = await Promise.all([
    withObjectQuarantine(gitDir, (env) => mergeTrees(gitDir, pairs, { ...opts, concurrency: each, env })),
    mapPool(pairs, each, (p) =>
      checkPair(p)
        ? Promise.resolve(checkPair(p) as Error)
        : settle(() =>
            aheadBehind(gitDir, p.targetTip, p.head).catch((e: Error) => {
              throw mergeTreeFailure(e.message);
            }),
          ),
    ),
  ]);
  return trees.map((tree, i) => {
    const count = counts[i];
    if (tree instanceof Error) return tree;
    if (count instanceof Error) return count;
    const { tree: _gone, ...merged } = tree;
    return { ...merged, ...count };
  });
}
