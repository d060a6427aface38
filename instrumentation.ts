/**
 * Next's instrumentation hook: `register()` runs once when a server process starts — with
 * scripts/server.mjs at `app.prepare()`, and under `next dev` — before any request. svc starts
 * its background job worker here (server/jobs/server-start.ts), and the metrics' event-loop monitor
 * when METRICS_TOKEN is set (server/metrics/registry.ts), and warms the highlighting pool
 * (server/highlight/pool.ts). Node.js runtime only: the edge runtime
 * (proxy.ts) has no database.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("@/server/metrics/registry")).startMetrics();
  // the highlighting thread and its common grammars, before the first page view needs them
  void (await import("@/server/highlight/pool")).warmHighlighter();
  const { startServerJobs } = await import("@/server/jobs/server-start");
  await startServerJobs();
}
