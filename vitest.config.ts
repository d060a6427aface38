import { configDefaults, defineConfig } from "vitest/config";
import path from "node:path";

/**
 * Test files whose subject is not the database: pure unit tests, and integration tests of git's
 * protocols (smart HTTP, SSH, LFS over SSH) and their limits, git merges, object quarantine, the
 * on-disk patch cache, highlighting, body caps, rate limits (in memory or Redis), Redis slots and
 * the push hook's sockets, and the `svc` CLI (the same services; cli-postgres.test.ts covers what
 * differs), which use a database only to sign a user in and find a repository (the
 * same queries every PostgreSQL-run file makes). `npm test` runs them in the
 * SQLite pass only; with TEST_DATABASE_URL (the PostgreSQL pass) they are left out, so the two
 * passes run side by side without doing the same work twice (docs/contributing.md "Running checks").
 */
export const DATABASE_AGNOSTIC = [
  "test/unit/**",
  "server/**/*.test.ts",
  "cli/**/*.test.ts",
  "test/integration/ai-base-url-guard.test.ts",
  "test/integration/blob-limits.test.ts",
  "test/integration/cli.test.ts",
  "test/integration/diff-patch-cache.test.ts",
  "test/integration/git-http.test.ts",
  "test/integration/lfs-ssh.test.ts",
  "test/integration/merge-git.test.ts",
  "test/integration/object-quarantine.test.ts",
  "test/integration/ssh-git.test.ts",
  "test/integration/ssh-limits.test.ts",
  "test/integration/body-limits.test.ts",
  "test/integration/git-http-limits.test.ts",
  "test/integration/git-push-queue.test.ts",
  "test/integration/highlight-dos.test.ts",
  "test/integration/metrics.test.ts",
  "test/integration/push-hook-sockets.test.ts",
  "test/integration/rate-limits.test.ts",
  "test/integration/shared-slots.test.ts",
];

/** Test files about PostgreSQL itself: they run in the PostgreSQL pass only (left out without TEST_DATABASE_URL). */
export const POSTGRES_ONLY = ["test/integration/cli-postgres.test.ts"];

/**
 * Test files that run each in a fresh process ("isolated" project): they replace modules
 * (`vi.mock`), change `process.env` for the process, change or read module-level state (limits set
 * for a test, caches and their statistics, counters of running git processes), or need a cold start
 * (the push hook's socket server). Every other file runs in the "shared"
 * project: one worker process imports the server's modules once and runs file after file
 * (test/setup.ts gives each file its own DATA_DIR and database and closes the database and the
 * job queue after it; test/setup-shared.ts also the push-hook socket), which saves importing them again per file
 * (measured: 40% of the suite's CPU time; docs/contributing.md "Running checks"). A new test that
 * does any of the above belongs here; test/unit/vitest-isolation.test.ts checks the list.
 */
export const ISOLATED = [
  "test/integration/ssh-git.test.ts",
  "test/integration/ssh-limits.test.ts",
  "test/integration/lfs-http.test.ts",
  "test/integration/lfs-ssh.test.ts",
  "test/integration/lfs-diff-surfaces.test.ts", // turns the patch cache off for a test (setPatchCacheLimits)
  "test/integration/agent-sessions.test.ts",
  "test/integration/agent-turn-lock.test.ts",
  "test/integration/ai-base-url-guard.test.ts",
  "test/integration/ai-budget.test.ts",
  "test/integration/ai-code.test.ts",
  "test/integration/ai-key-redaction.test.ts",
  "test/integration/ai-keys.test.ts",
  "test/integration/ai-status-limits.test.ts",
  "test/integration/blob-limits.test.ts",
  "test/integration/diff-patch-cache.test.ts",
  "test/integration/git-http.test.ts",
  "test/integration/lfs-ssh.test.ts",
  "test/integration/merge-git.test.ts",
  "test/integration/object-quarantine.test.ts",
  "test/integration/ssh-git.test.ts",
  "test/integration/ssh-limits.test.ts",
  "test/integration/body-limits.test.ts",
  "test/integration/db-pools.test.ts",
  "test/integration/diff-caches.test.ts",
  "test/integration/diff-pages.test.ts",
  "test/integration/diff-patch-cache.test.ts",
  "test/integration/git-http-limits.test.ts",
  "test/integration/git-push-queue.test.ts",
  "test/integration/immutable-reads.test.ts",
  "test/integration/interdiff.test.ts",
  "test/integration/jobs-processes.test.ts",
  "test/integration/merge-rebase-parallel.test.ts",
  "test/integration/metrics.test.ts",
  "test/integration/notification-email.test.ts",
  // run the job worker (every registered handler) and, for -live, open event streams and set SMTP_URL
  "test/integration/notifications-issues.test.ts",
  "test/integration/notifications-live.test.ts",
  "test/integration/notifications-pulls.test.ts",
  "test/integration/notifications-teams.test.ts",
  "test/integration/pgbouncer.test.ts",
  "test/integration/pull-events.test.ts",
  "test/integration/pulls-ai-review.test.ts",
  "test/integration/pulls-auto-merge.test.ts",
  "test/integration/pulls-push-job.test.ts",
  "test/integration/push-hook-sockets.test.ts",
  "test/integration/rate-limit.test.ts",
  "test/integration/rate-limits.test.ts",
  "test/integration/redis-outage.test.ts",
  "test/integration/repo-maintenance.test.ts",
  "test/integration/rest-rate-limit.test.ts",
  "test/integration/search-embedding-failure.test.ts",
  "test/integration/search-vectors-processes.test.ts",
  "test/integration/semantic-search.test.ts",
  "test/integration/shared-slots.test.ts",
  "test/integration/sqlite-busy.test.ts",
  "test/integration/update-branch.test.ts",
  "test/integration/webhooks.test.ts",
  "test/unit/drafts.test.ts",
  "test/unit/read-registry.test.ts",
  "test/unit/stale-locks.test.ts",
];

const include = ["test/**/*.test.ts", "server/**/*.test.ts", "cli/**/*.test.ts"];
// the two-process test needs a next build and runs as its own step (test/processes/vitest.config.ts)
const exclude = [...configDefaults.exclude, "test/processes/**", ...(process.env.TEST_DATABASE_URL ? DATABASE_AGNOSTIC : POSTGRES_ONLY)];
const alias = {
  "@": path.resolve(import.meta.dirname),
  // server-only throws outside React's server condition; tests import server modules directly.
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};
/** One project's whole configuration (no `extends`: inherited arrays would be concatenated). */
const project = (name: string, isolate: boolean, files: { include: string[]; exclude: string[] }) => ({
  resolve: { alias },
  test: {
    name,
    ...files,
    isolate,
    setupFiles: isolate ? ["test/setup.ts"] : ["test/setup.ts", "test/setup-shared.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks" as const,
  },
});

export default defineConfig({
  // `npm test` runs the SQLite and PostgreSQL passes side by side: each keeps its own results cache
  // (file durations, by which the next run starts the slowest files first), so the two never write
  // one file at the same moment and each orders by its own database's times
  cacheDir: path.join(import.meta.dirname, "node_modules/.vite", process.env.TEST_DATABASE_URL ? "postgresql" : "sqlite"),
  resolve: { alias },
  test: {
    maxWorkers: 2,
    projects: [
      project("shared", false, { include, exclude: [...exclude, ...ISOLATED] }),
      project("isolated", true, { include: ISOLATED, exclude }),
    ],
  },
});
