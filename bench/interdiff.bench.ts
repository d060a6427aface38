/**
 * Interdiff benchmark (docs/performance.md "Interdiff"): `npx tsx bench/interdiff.bench.ts` (not
 * part of the tests; no database). A generated repository (bench/interdiff-fixture.ts): a base of BENCH_BASE_FILES files
 * (1,000) of 100 lines; the change edits 4 lines in each of BENCH_FILES files (500) over 5
 * commits; the base then moves (3 lines inserted at the top of every other changed file, 200
 * untouched files edited); the change is rebased onto it (the same 5 commits, with one line of
 * 10 files amended). Measures `interdiff` (server/git/interdiff.ts: the replay's
 * three commit-tree and one merge-tree, then the diff T → new head) against
 * `git range-diff oldBase..oldHead newBase..newHead` (git's own rebase-aware comparison, read to
 * the end) in the same run. Rows: cold (the replay and diff caches emptied before each run, the
 * patch cache off) and warm (a second view of the same revisions: the replay remembered, the diff cached). Goal: cold
 * ≤ 2× the baseline. Env: BENCH_FILES (500), BENCH_BASE_FILES (1000), BENCH_RUNS (9).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { measureRuns } from "./support";
import {
  forgetInterdiffCaches as forgetCaches,
  INTERDIFF_COMMITS as COMMITS,
  makeInterdiffRepo,
  rangeDiff as rangeDiffOf,
} from "./interdiff-fixture";

const FILES = Number(process.env.BENCH_FILES ?? 500);
const BASE_FILES = Math.max(FILES, Number(process.env.BENCH_BASE_FILES ?? 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-interdiff-bench-"));
const gitDir = path.join(dir, "repo.git");
const fixture = makeInterdiffRepo(gitDir, { files: FILES, baseFiles: BASE_FILES });
const { revs } = fixture;
console.log(
  `repository: ${BASE_FILES} files, change of ${FILES} files over ${COMMITS} commits, base moved (${fixture.upstreamFiles} files)`,
);

// ---- measure ----
const { interdiff } = await import("@/server/git/interdiff");
const { setPatchCacheLimits } = await import("@/server/git/diff-patch-cache");

const check = await interdiff(gitDir, revs);
console.log(
  `interdiff: ${check.totalFiles} files, +${check.totalAdditions} -${check.totalDeletions}, replayed ${check.replayed}, conflicted ${check.rebaseConflicted}`,
);
if (check.totalFiles !== 10 || check.rebaseConflicted) throw new Error("the interdiff should be the 10 amended files");

const rangeDiff = () => rangeDiffOf(fixture);
const base = await measureRuns(rangeDiff, { runs: RUNS, warmup: 2 });
setPatchCacheLimits({ maxBytes: 0 });
const cold = await measureRuns(
  async () => {
    forgetCaches();
    return interdiff(gitDir, revs);
  },
  { runs: RUNS, warmup: 2 },
);
setPatchCacheLimits();
forgetCaches();
const warm = await measureRuns(() => interdiff(gitDir, revs), { runs: RUNS, warmup: 2 });

const row = (label: string, p50: number) => `${label.padEnd(46)} ${p50.toFixed(1).padStart(8)} ms  ${(p50 / base.p50).toFixed(2)}×`;
console.log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
console.log(row("git range-diff (baseline)", base.p50));
console.log(row("interdiff, cold (caches emptied)", cold.p50));
console.log(row("interdiff, warm (same revisions again)", warm.p50));
console.log(cold.p50 <= 2 * base.p50 ? "goal met: cold ≤ 2× range-diff" : "goal missed: cold > 2× range-diff");
rmSync(dir, { recursive: true, force: true });
