import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  // server-only throws outside React's server condition; tests import server modules directly.
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["test/**/*.test.ts", "server/**/*.test.ts", "cli/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
