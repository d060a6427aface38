/**
 * The two-process test (./two-processes.test.ts): its own vitest run, after `next build`, as a
 * step of `npm test` (scripts/test.mjs), never in the unit and integration runs (vitest.config.ts
 * leaves test/processes out). Same setup file and aliases as vitest.config.ts; one worker: the
 * file starts two production servers itself.
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx vitest run --config test/processes/vitest.config.ts
 */
import { defineConfig } from "vitest/config";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  root,
  cacheDir: path.join(root, "node_modules/.vite/processes"),
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["test/processes/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // the servers take a while to start on a loaded machine; each check polls with its own bounds
    hookTimeout: 180_000,
    testTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
