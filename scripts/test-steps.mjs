// The pieces of `npm test` (scripts/test.mjs): running a step (alone, or beside others with its
// output prefixed line by line) and reading the vitest and Playwright JSON reports into counts and
// per-file durations.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * @typedef {{ label: string, tag?: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv, cwd: string }} Step
 *   tag: the line prefix when the step runs beside others (defaults to the label)
 * @typedef {{ ok: boolean, ms: number }} StepResult  ok: exit code 0; ms: wall time in milliseconds
 * @typedef {{ passed: number, failed: number, files: { file: string, ms: number }[], failures: string[] }} Counts
 *   files: one row per test file with its duration in milliseconds (for the slowest-files list);
 *   failures: one line per failed (or flaky) test: file, name and the first line of its error, so the
 *   end of the log (all a CI excerpt may show) names what failed
 */

/**
 * Runs one step. Alone (`prefixed` false) it inherits the terminal, so tools keep their colours;
 * beside others each line it writes is prefixed with `[tag] ` and written whole, so concurrent
 * logs stay readable and greppable. Never rejects: a spawn error is a failed step.
 * @param {Step} step
 * @param {boolean} prefixed
 * @returns {Promise<StepResult>}
 */
export function runStep(step, prefixed) {
  const started = Date.now();
  console.log(`\n=== ${step.label}${prefixed ? ` (lines prefixed [${step.tag ?? step.label}])` : ""}`);
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, { cwd: step.cwd, env: step.env, stdio: prefixed ? ["ignore", "pipe", "pipe"] : "inherit" });
    const flushers = [];
    if (prefixed) {
      const tag = `[${step.tag ?? step.label}] `;
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = "";
        from.setEncoding("utf8");
        from.on("data", (chunk) => {
          const lines = (rest + chunk).split("\n");
          rest = lines.pop();
          if (lines.length) to.write(lines.map((l) => tag + l + "\n").join(""));
        });
        flushers.push(() => rest && to.write(tag + rest + "\n"));
      }
    }
    let done = false;
    const finish = (ok, why) => {
      if (done) return;
      done = true;
      for (const flush of flushers) flush();
      const ms = Date.now() - started;
      if (!ok) console.error(`=== ${step.label}: ${why}`);
      console.log(`=== ${step.label}: ${ok ? "ok" : "FAILED"} in ${seconds(ms)}`);
      resolve({ ok, ms });
    };
    child.on("error", (e) => finish(false, e.message));
    child.on("close", (code, signal) => finish(code === 0, `exit ${code ?? signal}`));
  });
}

/**
 * Runs steps at the same time (`concurrent`) or one after the other, in the given order.
 * @param {Step[]} steps
 * @param {boolean} concurrent
 * @returns {Promise<StepResult[]>} in the order of `steps`
 */
export async function runSteps(steps, concurrent) {
  if (concurrent && steps.length > 1) return Promise.all(steps.map((s) => runStep(s, true)));
  const results = [];
  for (const s of steps) results.push(await runStep(s, false));
  return results;
}

/**
 * Counts from a vitest JSON report (`--reporter=json --outputFile=…`): its passed and failed
 * tests; a run with no test at all, or no report, counts as 1 failed. File times come from
 * scripts/vitest-file-times.mjs's output when there is one (a file's whole time), else from the
 * report (the span of the file's tests).
 * @param {string} file the report's path
 * @param {string} timesFile the path given to scripts/vitest-file-times.mjs (SVC_VITEST_FILE_TIMES)
 * @param {string} root paths in `files` are made relative to it
 * @returns {Counts}
 */
export function vitestCounts(file, timesFile, root) {
  if (!existsSync(file)) return { passed: 0, failed: 1, files: [], failures: [`no report at ${file}`] };
  const r = JSON.parse(readFileSync(file, "utf8"));
  const failures = [];
  for (const t of r.testResults ?? []) {
    const rel = path.relative(root, t.name);
    const failedTests = (t.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedTests) failures.push(failureLine(`${rel} > ${a.fullName}`, a.failureMessages?.[0]));
    // a file that failed outside its tests (an import or a hook)
    if (t.status === "failed" && !failedTests.length) failures.push(failureLine(rel, t.message));
  }
  const times = existsSync(timesFile)
    ? JSON.parse(readFileSync(timesFile, "utf8"))
    : (r.testResults ?? []).map((t) => ({ file: t.name, ms: Math.max(0, (t.endTime ?? 0) - (t.startTime ?? 0)) }));
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + (r.numTotalTests === 0 ? 1 : 0),
    files: times.map((t) => ({ file: path.relative(root, t.file), ms: t.ms })),
    failures,
  };
}

/**
 * Counts from a Playwright JSON report: expected tests pass; unexpected and flaky ones (passed
 * only on a retry) fail; a run where nothing passed, or no report, counts 1 more failed. A file's
 * duration is the sum of its tests' attempts.
 * @param {string} file the report's path (PLAYWRIGHT_JSON_OUTPUT_NAME)
 * @param {string} testDir the spec folder relative to the root (e2e), prefixed to the files
 * @returns {Counts}
 */
export function playwrightCounts(file, testDir) {
  if (!existsSync(file)) return { passed: 0, failed: 1, files: [], failures: [`no report at ${file}`] };
  const r = JSON.parse(readFileSync(file, "utf8"));
  const s = r.stats ?? {};
  const perFile = new Map();
  const failures = [];
  const walk = (suite, specFile) => {
    const f = suite.file ?? specFile;
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        for (const res of t.results ?? []) perFile.set(f, (perFile.get(f) ?? 0) + (res.duration ?? 0));
        if (t.status === "unexpected" || t.status === "flaky") {
          const error = (t.results ?? []).find((res) => res.error)?.error?.message;
          failures.push(
            failureLine(
              `${path.join(testDir, f)}:${spec.line} › ${spec.title} (${t.status === "flaky" ? "flaky: passed on a retry" : "failed"})`,
              error,
            ),
          );
        }
      }
    for (const child of suite.suites ?? []) walk(child, f);
  };
  for (const suite of r.suites ?? []) walk(suite, suite.file);
  return {
    passed: s.expected ?? 0,
    failed: (s.unexpected ?? 0) + (s.flaky ?? 0) + (s.expected ? 0 : 1),
    files: [...perFile].map(([f, ms]) => ({ file: path.join(testDir, f), ms })),
    failures,
  };
}

/** "what: first line of the error" (ANSI colours stripped, cut at 300 characters). */
function failureLine(what, error) {
  const first =
    (error ?? "")
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return `${what}${first ? `: ${first.trim().slice(0, 300)}` : ""}`;
}

/**
 * The `n` slowest rows, slowest first, as printable lines ("  12.3 s  vitest (SQLite)  test/…").
 * @param {{ run: string, file: string, ms: number }[]} rows
 * @param {number} n
 * @returns {string[]}
 */
export function slowestLines(rows, n = 10) {
  const top = [...rows].sort((a, b) => b.ms - a.ms).slice(0, n);
  const width = Math.max(0, ...top.map((r) => r.run.length));
  return top.map((r) => `${seconds(r.ms).padStart(8)}  ${r.run.padEnd(width)}  ${r.file}`);
}

/** `ms` milliseconds as "12.3 s". */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}
