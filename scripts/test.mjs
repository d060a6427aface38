// `npm test`: every test. 1) vitest (unit + integration) on SQLite; 2) the same on PostgreSQL
// when TEST_DATABASE_URL is set (a server URL; each test file makes and drops its own database);
// 0) typecheck; 3) next build; 4) Playwright end-to-end in Debian's Chromium against the real server.
// Ends with one line "tests: N passed, N failed". Options: --no-e2e, --only-e2e.
// Chromium is checked first (scripts/chromium.mjs): missing → installed with apt-get when running
// as root, else the command to run is printed and nothing runs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
if (!args.has("--no-e2e") && !ensureChromium(env)) {
  console.log("\ntests: 0 passed, 1 failed");
  process.exit(1);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-test-run-"));
let passed = 0;
let failed = 0;
let broken = false;

function run(label, cmd, cmdArgs, extraEnv = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env: { ...env, ...extraEnv }, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`=== ${label}: exit ${r.status ?? r.signal}`);
    broken = true;
  }
  return r.status === 0;
}

function vitest(label, extraEnv) {
  const out = path.join(tmp, `${label.replace(/\W+/g, "-")}.json`);
  run(
    label,
    process.execPath,
    [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile=${out}`],
    extraEnv,
  );
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numTotalTests === 0 ? 1 : 0);
  } else failed += 1;
}

if (!args.has("--only-e2e")) {
  if (!run("typecheck (tsc --noEmit)", process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", root]))
    failed += 1;
  vitest("vitest (SQLite)", { TEST_DATABASE_URL: "" });
  if (process.env.TEST_DATABASE_URL) vitest("vitest (PostgreSQL)", { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL });
  else console.log("\n(TEST_DATABASE_URL not set: PostgreSQL run skipped; .ci/run sets it)");
}

if (!args.has("--no-e2e")) {
  if (run("next build", process.execPath, [path.join(root, "scripts/start.mjs"), "--build-only"])) {
    const out = path.join(tmp, "playwright.json");
    run("playwright", process.execPath, [path.join(root, "node_modules/@playwright/test/cli.js"), "test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    if (existsSync(out)) {
      const s = JSON.parse(readFileSync(out, "utf8")).stats ?? {};
      passed += s.expected ?? 0;
      failed += (s.unexpected ?? 0) + (s.flaky ?? 0);
      if (!s.expected) failed += 1;
    } else failed += 1;
  } else failed += 1;
}

rmSync(tmp, { recursive: true, force: true });
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(broken || failed ? 1 : 0);
