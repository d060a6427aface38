/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser) against
 * the real server: `node scripts/start.mjs` (builds when needed, then svc's server, scripts/server.mjs) on PORT 3100
 * with a fresh DATA_DIR, so every run starts from an empty database.
 *
 *   npx playwright test                  start svc on SVC_E2E_PORT (3100) and run e2e/
 *   SVC_E2E_BASE_URL=http://localhost:3000 npx playwright test   use a server that is already running
 */
import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const external = process.env.SVC_E2E_BASE_URL?.replace(/\/+$/, "");
const port = Number(process.env.SVC_E2E_PORT || 3100);
const baseURL = external || `http://localhost:${port}`;

// Created once by the runner; workers inherit the variable and reuse it.
if (!external && !process.env.SVC_E2E_DATA_DIR) {
  process.env.SVC_E2E_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-"));
}

export default defineConfig({
  testDir: "e2e",
  globalTeardown: "./e2e/global-teardown.ts",
  // Two spec files at a time (SVC_E2E_WORKERS to change): every spec signs up users of its own
  // (e2e/session.ts) and works in their repositories, so specs never see each other's data; a
  // spec's tests run in order (fullyParallel off). The suite waits on the server and the browser
  // far more than it computes: measured on 2 cores, 95 tests took 8.6 min with 2 workers and
  // 16–18 min with 1, without a flaky test (docs/contributing.md "Running checks").
  workers: Number(process.env.SVC_E2E_WORKERS || 2),
  fullyParallel: false,
  // One retry in CI: a test that fails twice fails the run; one that passes on its retry is
  // listed as "flaky" in the log, to be fixed, instead of throwing away a whole run's work.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    browserName: "chromium",
    viewport: { width: 1280, height: 900 },
    // A trace records every action's DOM snapshot and a screencast, kept only on failure; CI's
    // clone is thrown away with its traces, and the log already carries each failure's error,
    // page snapshot (error-context.md) and screenshot, so CI records none (measured: the browser
    // and runner used 20–40% less CPU without it). Locally a failed test keeps its trace.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: external
    ? undefined
    : {
        command: "node scripts/start.mjs",
        url: `${baseURL}/api/auth/providers`,
        // the first start builds the app (a few minutes on 2 cores)
        timeout: 15 * 60_000,
        reuseExistingServer: false,
        stdout: "ignore",
        stderr: "pipe",
        env: {
          PORT: String(port),
          DATA_DIR: process.env.SVC_E2E_DATA_DIR!,
          NEXTAUTH_URL: baseURL,
          NEXT_TELEMETRY_DISABLED: "1",
          // Playwright plays the reverse proxy: e2e/session.ts gives each user an X-Forwarded-For
          // address of its own, so the suite's sign-ups are not all counted against one address
          // (30 an hour); requests without the header still count as the socket's address
          TRUST_PROXY: "1",
          // e2e/agent.spec.ts points one repository's AI key (repoAiKeys.baseUrl) at a fake
          // OpenAI-compatible server on 127.0.0.1; no OPENAI_BASE_URL for the whole server, as
          // other specs expect the local engine
          SVC_AI_ALLOW_PRIVATE_BASE_URLS: "1",
          // e2e/webhooks.spec.ts points a webhook at a receiver it starts on 127.0.0.1
          SVC_WEBHOOK_ALLOW_PRIVATE_URLS: "1",
        },
      },
});
