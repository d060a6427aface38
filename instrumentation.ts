/**
 * Next's instrumentation hook: `register()` runs once when a server process starts — with
 * scripts/server.mjs at `app.prepare()`, which it awaits before listening, and under `next dev` —
 * before any request. svc takes its SQLite server lock, migrates the database and starts its
 * background job worker here (server/process-start.ts), and the metrics' event-loop monitor when
 * METRICS_TOKEN is set (server/metrics/registry.ts). A throw stops the server before its port
 * opens. It also warms the highlighting pool (server/highlight/pool.ts) without waiting for it.
 * Node.js runtime only: the edge runtime (proxy.ts) has no database.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("@/server/metrics/registry")).startMetrics();
  // the highlighting thread and its common grammars, before the first page view needs them
  void (await import("@/server/highlight/pool")).warmHighlighter();
  const { startServerProcess } = await import("@/server/process-start");
  await startServerProcess();
}
