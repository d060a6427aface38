/**
 * svc's Prometheus metrics of this process (README "Metrics", docs/performance.md "Hardening II,
 * item 2"): one prom-client registry, kept on globalThis because Next loads a module once per
 * bundle layer (requests, and the job worker started by instrumentation.ts) and the metrics are
 * of the whole process. Nothing is measured unless METRICS_TOKEN is configured (`metricsEnabled`).
 *
 * Created with the registry:
 * - prom-client's default metrics (`process_*`, `nodejs_*`), among them the event-loop delay
 *   measured by `perf_hooks.monitorEventLoopDelay` every 10 ms: `nodejs_eventloop_lag_p50_seconds`,
 *   `…_p90_…`, `…_p99_…`, `…_max_seconds` over the time since the previous scrape;
 * - `svc_event_loop_delay_seconds`, a histogram of the worst event-loop delay of each second (its
 *   own monitorEventLoopDelay, read and reset every second): independent of scrapes, and summable
 *   over time (`rate(svc_event_loop_delay_seconds_bucket[5m])`), so "seconds in which the loop
 *   stalled for more than 100 ms" is one query.
 * The other metrics are created on first use with `metric` (procedures.ts, git-http.ts, collect.ts).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { getConfig } from "@/server/config";

interface MetricsState {
  registry: Registry;
  metrics: Map<string, unknown>;
}

const holder = globalThis as { __svcMetrics?: MetricsState };

/** Bucket bounds (seconds) of svc_event_loop_delay_seconds: 10 ms (the sampling resolution) to 10 s. */
export const EVENT_LOOP_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create(): MetricsState {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const delay = new Histogram({
    name: "svc_event_loop_delay_seconds",
    help: "Worst event-loop delay of each second (perf_hooks.monitorEventLoopDelay, 10 ms resolution).",
    buckets: EVENT_LOOP_BUCKETS,
    registers: [registry],
  });
  const monitor = monitorEventLoopDelay({ resolution: 10 });
  monitor.enable();
  // a loop blocked for several seconds fires this late, once: that stall is one observation of its length
  setInterval(() => {
    if (monitor.count > 0) delay.observe(monitor.max / 1e9);
    monitor.reset();
  }, 1000).unref();
  return { registry, metrics: new Map() };
}

/** True when METRICS_TOKEN is configured: only then svc measures (getConfig, cached). */
export function metricsEnabled(): boolean {
  return getConfig().metricsToken !== undefined;
}

/** This process's registry; the first call starts the default metrics and the event-loop monitor. */
export function metricsRegistry(): Registry {
  return (holder.__svcMetrics ??= create()).registry;
}

/**
 * Starts measuring at server start (instrumentation.ts) when metrics are enabled, so the event-loop
 * histogram covers the time before the first request. No-op otherwise.
 * @throws Error from getConfig (a METRICS_TOKEN that is too short)
 */
export function startMetrics(): void {
  if (metricsEnabled()) metricsRegistry();
}

/**
 * The metric `name` of this process, made by `make(registry)` on first use (once per process,
 * whichever bundle asks first). `make` must register the metric in the registry it is given.
 */
export function metric<T>(name: string, make: (registry: Registry) => T): T {
  const registry = metricsRegistry();
  const metrics = holder.__svcMetrics!.metrics;
  let m = metrics.get(name) as T | undefined;
  if (m === undefined) {
    m = make(registry);
    metrics.set(name, m);
  }
  return m;
}
