// `npm test`: every check and test, in four phases:
//   1. checks, side by side (each is one single-threaded process): `npm run format:check`
//      (prettier), `npm run lint` (ESLint; skipped while package.json has no "lint" script) and
//      typecheck (tsc --noEmit);
//   2. vitest (unit + integration) on SQLite and, when TEST_DATABASE_URL is set (a server URL;
//      each test file makes and drops its own database), on PostgreSQL, the two runs side by side
//      (they wait on git, databases and sockets: on 2 cores the pair takes less time side by side
//      than one after the other; next build beside them slowed them more than it saved);
//   3. next build; 4. the two-process test (test/processes: two production servers on one
//      PostgreSQL database and Redis, checked over HTTP and git; needs TEST_DATABASE_URL), alone;
//   5. Playwright end-to-end in Debian's Chromium against the real server, alone (two spec files at a time: playwright.config.ts).
// Steps that run side by side prefix each output line with their tag. A failed check or build
// counts as 1 failed test. At the end: passed/failed per run, each step's time, the 10 slowest
// test files, then one line "tests: N passed, N failed".
// Options: --no-e2e, --only-e2e, --serial (one step at a time, as on a machine with one core);
// other arguments filter the test files: e2e/… ones Playwright's, test/processes/… ones the
// two-process test's, the others vitest's (`npm test -- --no-e2e test/unit/markdown`,
// `npm test -- --only-e2e e2e/phone.spec.ts`). --no-e2e also skips the two-process test (it needs
// the build); filters naming only e2e/ specs skip it too.
// Chromium is checked first (scripts/chromium.mjs): missing → installed with apt-get when running
// as root, else the command to run is printed and nothing runs.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./chromium.mjs";
import { playwrightCounts, runSteps, seconds, slowestLines, vitestCounts } from "./test-steps.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2).filter((a) => a.startsWith("--")));
const filters = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const isProcesses = (a) => a.replace(/^\.\//, "").startsWith("test/processes");
const vitestFilters = filters.filter((a) => !a.startsWith("e2e/") && !isProcesses(a));
const e2eFilters = filters.filter((a) => a.startsWith("e2e/"));
const processesFilters = filters.filter(isProcesses);
const concurrent = !args.has("--serial");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
if (!args.has("--no-e2e") && !ensureChromium(env)) {
  console.log("\ntests: 0 passed, 1 failed");
  process.exit(1);
}
const started = Date.now();
const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-test-run-"));
const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts ?? {};
let passed = 0;
let failed = 0;
let broken = false;
/** One summary line per check and per test run. @type {string[]} */
const tallies = [];
/** @type {{ label: string, ms: number }[]} */
const timings = [];
/** @type {{ run: string, file: string, ms: number }[]} */
const fileTimes = [];
/** "run: file > test: error" per failed test. @type {string[]} */
const failures = [];

const step = (label, tag, cmd, cmdArgs, extraEnv = {}) => ({ label, tag, cmd, args: cmdArgs, cwd: root, env: { ...env, ...extraEnv } });

/** Runs `steps` (side by side unless --serial); returns whether each exited 0. */
async function phase(steps) {
  const results = await runSteps(steps, concurrent);
  steps.forEach((s, i) => timings.push({ label: s.label, ms: results[i].ms }));
  if (results.some((r) => !r.ok)) broken = true;
  return results.map((r) => r.ok);
}

/** A check (or build) passes or counts as one failed test. */
function tallyCheck(label, ok) {
  if (!ok) failed += 1;
  tallies.push(`${label}: ${ok ? "ok" : "FAILED (counts as 1 failed)"}`);
}

function tallyTests(run, counts) {
  passed += counts.passed;
  failed += counts.failed;
  tallies.push(`${run}: ${counts.passed} passed, ${counts.failed} failed`);
  for (const f of counts.files) fileTimes.push({ run, ...f });
  for (const f of counts.failures) failures.push(`${run}: ${f}`);
}

if (!args.has("--only-e2e")) {
  const checks = [step("format check (npm run format:check)", "format", "npm", ["run", "--silent", "format:check"])];
  if (scripts.lint) checks.push(step("lint (npm run lint)", "lint", "npm", ["run", "--silent", "lint"]));
  else console.log('\n(package.json has no "lint" script: lint skipped)');
  checks.push(
    step("typecheck (tsc --noEmit)", "tsc", process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", root]),
  );
  (await phase(checks)).forEach((ok, i) => tallyCheck(checks[i].label, ok));

  const vitest = (label, tag, databaseUrl) => {
    const out = path.join(tmp, `${tag}.json`);
    const times = path.join(tmp, `${tag}-file-times.json`);
    const cli = path.join(root, "node_modules/vitest/vitest.mjs");
    const fileTimes = path.join(root, "scripts/vitest-file-times.mjs");
    return {
      out,
      times,
      ...step(
        label,
        tag,
        process.execPath,
        [cli, "run", "--reporter=default", "--reporter=json", `--reporter=${fileTimes}`, `--outputFile=${out}`, ...vitestFilters],
        { TEST_DATABASE_URL: databaseUrl, SVC_VITEST_FILE_TIMES: times },
      ),
    };
  };
  const runs = [vitest("vitest (SQLite)", "SQLite", "")];
  if (process.env.TEST_DATABASE_URL) runs.push(vitest("vitest (PostgreSQL)", "PostgreSQL", process.env.TEST_DATABASE_URL));
  else console.log("\n(TEST_DATABASE_URL not set: PostgreSQL run skipped; .ci/run sets it)");
  await phase(runs);
  for (const r of runs) tallyTests(r.label, vitestCounts(r.out, r.times, root));
}

if (!args.has("--no-e2e")) {
  const [built] = await phase([step("next build", "build", process.execPath, [path.join(root, "scripts/start.mjs"), "--build-only"])]);
  if (built) {
    if (e2eFilters.length && !processesFilters.length) console.log("\n(only e2e/ specs named: two-process test skipped)");
    else if (!process.env.TEST_DATABASE_URL) console.log("\n(TEST_DATABASE_URL not set: two-process test skipped; .ci/run sets it)");
    else {
      const label = "two processes (PostgreSQL + Redis)";
      const out = path.join(tmp, "processes.json");
      const times = path.join(tmp, "processes-file-times.json");
      const config = path.join(root, "test/processes/vitest.config.ts");
      const cli = path.join(root, "node_modules/vitest/vitest.mjs");
      const reporters = ["--reporter=default", "--reporter=json", `--reporter=${path.join(root, "scripts/vitest-file-times.mjs")}`];
      await phase([
        step(
          label,
          "processes",
          process.execPath,
          [cli, "run", "--config", config, ...reporters, `--outputFile=${out}`, ...processesFilters],
          {
            SVC_VITEST_FILE_TIMES: times,
          },
        ),
      ]);
      tallyTests(label, vitestCounts(out, times, root));
    }
    const out = path.join(tmp, "playwright.json");
    const cli = path.join(root, "node_modules/@playwright/test/cli.js");
    await phase([
      step("playwright", "e2e", process.execPath, [cli, "test", "--reporter=list,json", ...e2eFilters], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      }),
    ]);
    tallyTests("playwright", playwrightCounts(out, "e2e"));
  } else tallyCheck("next build", false);
}

rmSync(tmp, { recursive: true, force: true });
console.log("\n=== summary");
console.log(tallies.join("\n"));
console.log(`\nsteps (${seconds(Date.now() - started)} in all; side by side within a phase):`);
for (const t of timings) console.log(`${seconds(t.ms).padStart(8)}  ${t.label}`);
if (fileTimes.length) console.log(`\n10 slowest test files:\n${slowestLines(fileTimes, 10).join("\n")}`);
if (failures.length)
  console.log(`\nfailed tests:\n${failures.slice(0, 30).join("\n")}${failures.length > 30 ? `\n… and ${failures.length - 30} more` : ""}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(broken || failed ? 1 : 0);
