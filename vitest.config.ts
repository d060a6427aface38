import { configDefaults, defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  // `npm test` runs the SQLite and PostgreSQL passes side by side: each keeps its own results cache
  // (file durations, by which the next run starts the slowest files first), so the two never write
  // one file at the same moment and each orders by its own database's times
  cacheDir: path.join(import.meta.dirname, "node_modules/.vite", process.env.TEST_DATABASE_URL ? "postgresql" : "sqlite"),
  // server-only throws outside React's server condition; tests import server modules directly.
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["test/**/*.test.ts", "server/**/*.test.ts", "cli/**/*.test.ts"],
    // the two-process test needs a next build and runs as its own step (test/processes/vitest.config.ts)
    exclude: [...configDefaults.exclude, "test/processes/**"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
