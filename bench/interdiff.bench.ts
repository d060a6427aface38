/**
 * Interdiff benchmark (docs/performance.md "Interdiff"): `npx tsx bench/interdiff.bench.ts` (not
 * part of the tests; no database). A generated repository: a base of BENCH_BASE_FILES files
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
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { measureRuns } from "./support";

const FILES = Number(process.env.BENCH_FILES ?? 500);
const BASE_FILES = Math.max(FILES, Number(process.env.BENCH_BASE_FILES ?? 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const COMMITS = 5;

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-interdiff-bench-"));
const gitDir = path.join(dir, "repo.git");
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const git = (args: string[], input?: string) =>
  execFileSync("git", args, { env: { ...env, GIT_DIR: gitDir }, input, maxBuffer: 1 << 30 }).toString("utf8");
git(["init", "-q", "--bare", gitDir]);

// ---- data: one fast-import stream ----
const name = (i: number) => `src/d${i % 25}/f${i}.txt`;
const lines = (i: number, edit: (l: number) => string | null = () => null, top = false) =>
  (top ? `top 1 of ${i}\ntop 2\ntop 3\n` : "") +
  Array.from({ length: 100 }, (_, l) => edit(l) ?? `file ${i} line ${l} some text to make the line longer`).join("\n") +
  "\n";
/** The change's edit of file i (the 4 lines 10, 35, 60, 85), with line 60 amended in the new revision's first 10 files. */
const changed = (i: number, amended: boolean) => (l: number) =>
  l % 25 === 10 ? (amended && i < 10 && l === 60 ? `amended ${i}.${l}` : `changed ${i}.${l}`) : null;
const baseMoved = (i: number) => i < FILES && i % 2 === 0; // the top insertion: every other changed file
const out: string[] = [];
let mark = 0;
function commit(ref: string, from: number | null, files: Array<[string, string]>): number {
  mark += 1;
  const msg = `commit ${mark}`;
  out.push(`commit ${ref}\nmark :${mark}\ncommitter Bench <bench@example.com> ${1_700_000_000 + mark} +0000\ndata ${msg.length}\n${msg}\n`);
  if (from) out.push(`from :${from}\n`);
  for (const [p, c] of files) out.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(c)}\n${c}\n`);
  return mark;
}
const all = Array.from({ length: BASE_FILES }, (_, i) => i);
const oldBaseMark = commit(
  "refs/heads/main",
  null,
  all.map((i) => [name(i), lines(i)]),
);
const per = Math.ceil(FILES / COMMITS);
let at = oldBaseMark;
for (let c = 0; c < COMMITS; c++)
  at = commit(
    "refs/heads/old",
    at,
    all.slice(c * per, Math.min(FILES, (c + 1) * per)).map((i) => [name(i), lines(i, changed(i, false))]),
  );
const oldHeadMark = at;
const upstream = all.filter((i) => baseMoved(i) || (i >= FILES && i < FILES + 200));
const newBaseMark = commit(
  "refs/heads/main",
  oldBaseMark,
  upstream.map((i) => [name(i), lines(i, i >= FILES ? (l) => (l === 50 ? "upstream" : null) : undefined, baseMoved(i))]),
);
at = newBaseMark;
for (let c = 0; c < COMMITS; c++)
  at = commit(
    "refs/heads/new",
    at,
    all.slice(c * per, Math.min(FILES, (c + 1) * per)).map((i) => [name(i), lines(i, changed(i, true), baseMoved(i))]),
  );
const newHeadMark = at;
out.push(`progress done\n`);
git(["fast-import", "--quiet", `--export-marks=${path.join(dir, "marks")}`], out.join(""));
const marks = new Map(
  readFileSync(path.join(dir, "marks"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split(" ") as [string, string]),
);
const markSha = (m: number) => marks.get(`:${m}`)!;
const revs = { oldBase: markSha(oldBaseMark), oldHead: markSha(oldHeadMark), newBase: markSha(newBaseMark), newHead: markSha(newHeadMark) };
console.log(`repository: ${BASE_FILES} files, change of ${FILES} files over ${COMMITS} commits, base moved (${upstream.length} files)`);

// ---- measure ----
const { interdiff } = await import("@/server/git/interdiff");
const { setPatchCacheLimits } = await import("@/server/git/diff-patch-cache");
const forgetCaches = () => {
  const g = globalThis as unknown as { __svcDiffMetadata?: Map<string, unknown>; __svcInterdiffReplays?: Map<string, unknown> };
  g.__svcDiffMetadata?.clear();
  g.__svcInterdiffReplays?.clear();
};

const check = await interdiff(gitDir, revs);
console.log(
  `interdiff: ${check.totalFiles} files, +${check.totalAdditions} -${check.totalDeletions}, replayed ${check.replayed}, conflicted ${check.rebaseConflicted}`,
);
if (check.totalFiles !== 10 || check.rebaseConflicted) throw new Error("the interdiff should be the 10 amended files");

const rangeDiff = () => git(["range-diff", "--no-color", `${revs.oldBase}..${revs.oldHead}`, `${revs.newBase}..${revs.newHead}`]).length;
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
