/**
 * tRPC procedure metrics, recorded by the first middleware of every procedure (server/api/trpc.ts
 * `base`), so HTTP calls and in-process calls from server components are counted alike:
 *
 *   svc_procedure_calls_total{procedure, code}      calls by outcome: OK or the tRPC error code
 *   svc_procedure_duration_seconds{procedure}       time in the procedure (access checks, rate
 *                                                   limit, input parsing and the handler); for a
 *                                                   subscription, the time to start its stream
 *
 * `procedure` is a path of the app router (tRPC answers unknown paths before any middleware), so
 * the label's values are bounded by the router. A call costs two clock reads, one Map lookup per
 * metric (the label children are cached) and nothing at all when metrics are off.
 */
import { Counter, Histogram } from "prom-client";
import { metric, metricsEnabled } from "./registry";

/** Bucket bounds (seconds) of svc_procedure_duration_seconds: 5 ms to 30 s. */
export const PROCEDURE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface ProcedureMetrics {
  calls: Map<string, { inc(): void }>;
  durations: Map<string, { observe(seconds: number): void }>;
  counter: Counter<"procedure" | "code">;
  histogram: Histogram<"procedure">;
}

function procedureMetrics(): ProcedureMetrics {
  return metric("svc_procedure", (registry) => ({
    calls: new Map(),
    durations: new Map(),
    counter: new Counter({
      name: "svc_procedure_calls_total",
      help: "tRPC procedure calls by procedure and outcome (OK or the tRPC error code).",
      labelNames: ["procedure", "code"] as const,
      registers: [registry],
    }),
    histogram: new Histogram({
      name: "svc_procedure_duration_seconds",
      help: "Time in a tRPC procedure, middleware included (a subscription: until its stream starts).",
      labelNames: ["procedure"] as const,
      buckets: PROCEDURE_BUCKETS,
      registers: [registry],
    }),
  }));
}

function record(path: string, code: string, ms: number): void {
  const m = procedureMetrics();
  const key = `${path} ${code}`;
  let calls = m.calls.get(key);
  if (!calls) m.calls.set(key, (calls = m.counter.labels({ procedure: path, code })));
  calls.inc();
  let duration = m.durations.get(path);
  if (!duration) m.durations.set(path, (duration = m.histogram.labels({ procedure: path })));
  duration.observe(ms / 1000);
}

/**
 * Runs the rest of procedure `path`'s middleware chain (`next`) and records the call: its
 * outcome (`OK`, or the code of the TRPCError tRPC's chain returned) and its duration. Returns
 * what `next` returned; when metrics are off it only calls `next`.
 */
export async function observeProcedure<R extends { ok: boolean }>(path: string, next: () => Promise<R>): Promise<R> {
  if (!metricsEnabled()) return next();
  const start = performance.now();
  let result: R;
  try {
    result = await next();
  } catch (e) {
    record(path, "INTERNAL_SERVER_ERROR", performance.now() - start);
    throw e;
  }
  const code = result.ok ? "OK" : ((result as { error?: { code?: string } }).error?.code ?? "INTERNAL_SERVER_ERROR");
  record(path, code, performance.now() - start);
  return result;
}
