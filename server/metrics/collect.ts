/**
 * The metrics read at scrape time, and the scrape itself (`renderMetrics`, for server/http/metrics.ts):
 *
 *   svc_git_processes                      git processes of this process running now (server/git/exec.ts)
 *   svc_git_processes_started_total        git processes it started
 *   svc_git_http_processes                 of those, serving git smart HTTP and raw downloads (process-gate.ts)
 *   svc_git_http_queued                    git HTTP requests waiting for a process slot (FIFO, then 503)
 *   svc_git_http_stopped_total             git HTTP processes svc stopped (client gone, stalled, limits)
 *   svc_job_queue_depth{queue, state}      unfinished jobs per job name and state (created, retry,
 *                                          active), all processes on the database together: one query
 *   svc_job_worker_state{state}            1 for this process's job worker state (stopped, off,
 *                                          starting, running, failed), 0 for the others
 *   svc_redis_up{connection}               1 when this process's Redis connection (limiter,
 *                                          publisher, subscriber) is ready, 0 when not; no series
 *                                          without REDIS_URL (server/redis.ts)
 *   svc_job_worker_start_failures_total    failed starts of this process's job worker (each is
 *                                          retried with backoff: server/jobs/index.ts superviseJobWorker)
 *
 * Only the job queue depth costs a query; a failed query leaves that metric empty for the scrape
 * (and is logged) rather than failing the scrape.
 */
import { Counter, Gauge } from "prom-client";
import { gitProcessCounts } from "@/server/git/exec";
import { gitHttpStats } from "@/server/http/git/process-gate";
import { jobQueueDepth, jobWorkerState, type JobWorkerState, type QueueDepth } from "@/server/jobs";
import { AI_REVIEW, REFRESH_MERGEABILITY, SEARCH_INDEX_REPO } from "@/server/jobs/names";
import { redisConnections } from "@/server/redis";
import { metric, metricsRegistry } from "./registry";

const WORKER_STATES: readonly JobWorkerState[] = ["stopped", "off", "starting", "running", "failed"];
const QUEUE_STATES: readonly QueueDepth["state"][] = ["created", "retry", "active"];

/** Sets a counter to a total kept elsewhere (prom-client counters only count up by themselves). */
function setTotal(counter: Counter, total: number): void {
  counter.reset();
  counter.inc(total);
}

function registerCollectors(): void {
  metric("svc_collectors", (registry) => {
    const registers = [registry];
    new Gauge({
      name: "svc_git_processes",
      help: "git processes this svc process runs now (requests, git HTTP and background jobs).",
      registers,
      collect() {
        this.set(gitProcessCounts().running);
      },
    });
    new Counter({
      name: "svc_git_processes_started_total",
      help: "git processes this svc process started.",
      registers,
      collect() {
        setTotal(this, gitProcessCounts().started);
      },
    });
    new Gauge({
      name: "svc_git_http_processes",
      help: "git processes serving git smart HTTP and raw-file downloads now (at most the git HTTP process limit).",
      registers,
      collect() {
        this.set(gitHttpStats().processes);
      },
    });
    new Gauge({
      name: "svc_git_http_queued",
      help: "git smart HTTP and raw-file requests waiting for a git process slot now.",
      registers,
      collect() {
        this.set(gitHttpStats().queued);
      },
    });
    new Counter({
      name: "svc_git_http_stopped_total",
      help: "git HTTP processes svc stopped (client gone, stalled, over a limit).",
      registers,
      collect() {
        setTotal(this, gitHttpStats().stopped);
      },
    });
    // a queue is reported from the first time it is seen (svc's own from the start), with 0 when empty
    const seen = new Set<string>([REFRESH_MERGEABILITY, AI_REVIEW, SEARCH_INDEX_REPO]);
    new Gauge({
      name: "svc_job_queue_depth",
      help: "Unfinished background jobs per job name and state (created: waiting, retry: waiting to retry, active: running), all processes together.",
      labelNames: ["queue", "state"] as const,
      registers,
      async collect() {
        this.reset();
        let depth: QueueDepth[];
        try {
          depth = await jobQueueDepth();
        } catch (e) {
          console.error("svc: metrics: cannot count the job queues:", e);
          return;
        }
        for (const d of depth) seen.add(d.name);
        for (const queue of seen) for (const state of QUEUE_STATES) this.set({ queue, state }, 0);
        for (const d of depth) this.set({ queue: d.name, state: d.state }, d.count);
      },
    });
    new Gauge({
      name: "svc_job_worker_state",
      help: "1 for the state of this process's job worker (stopped, off, starting, running, failed), 0 for the others.",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const current = jobWorkerState().state;
        for (const state of WORKER_STATES) this.set({ state }, state === current ? 1 : 0);
      },
    });
    new Gauge({
      name: "svc_redis_up",
      help: "1 when this process's Redis connection (limiter, publisher, subscriber) is ready, 0 when it is not (REDIS_URL set only).",
      labelNames: ["connection"] as const,
      registers,
      collect() {
        this.reset();
        for (const c of redisConnections()) this.set({ connection: c.role }, c.up ? 1 : 0);
      },
    });
    new Counter({
      name: "svc_job_worker_start_failures_total",
      help: "Failed starts of this process's job worker (each is retried with backoff until it runs).",
      registers,
      collect() {
        setTotal(this, jobWorkerState().startFailures);
      },
    });
    return true;
  });
}

/**
 * This process's metrics in the Prometheus text format (version 0.0.4): `contentType` for the
 * response header and the `body`. Registers the scrape-time metrics on first call.
 */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const registry = metricsRegistry();
  registerCollectors();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
