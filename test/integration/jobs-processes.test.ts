/**
 * Job workers of several svc processes on one database (issue 21, items 1 and 5; docs/architecture.md
 * "Background jobs"), on the database of this run:
 * - two processes starting their workers at the same moment on a new database both end running
 *   (PostgreSQL deadlocked in pg-boss's create_queue without svc's advisory lock);
 * - a start the database refuses is retried with backoff, and `GET /api/ready` and the metrics
 *   say the worker failed until it runs;
 * - a long job whose process is killed runs again within about a lease (2 s here), not after its
 *   timeoutMs (10 min), and each run names the process that ran it.
 * Conditions are polled with generous limits; the one time bound (a minute) is the issue's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig, resetConfig } from "@/server/config";
import { closeDb } from "@/server/db";
import { closeJobs, defineJob, enqueue, getJob, jobProcessId, jobWorkerState, startJobWorker, stopJobWorker } from "@/server/jobs";
import { startServerJobs } from "@/server/jobs/server-start";
import { renderMetrics } from "@/server/metrics/collect";
import { spawnFixture } from "../fixtures/child";
import { createRunTable, recordRun, runsOf } from "../fixtures/job-runs";
import { newDatabase } from "../fixtures/new-database";
import { startServer } from "../helpers";

const provider = getConfig().provider;
const temp = mkdtempSync(path.join(tmpdir(), "svc-jobs-processes-"));

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, limitMs = 90_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Points this process (getConfig, getDb, the job store) at `url` until `restore()`. */
async function useDatabase(url: string): Promise<{ restore: () => Promise<void> }> {
  const before = process.env.DATABASE_URL;
  await closeJobs();
  await closeDb();
  process.env.DATABASE_URL = url;
  resetConfig();
  return {
    async restore() {
      await closeJobs();
      await closeDb();
      process.env.DATABASE_URL = before;
      resetConfig();
    },
  };
}

beforeAll(async () => {
  await createRunTable();
});

afterAll(async () => {
  await closeJobs();
  rmSync(temp, { recursive: true, force: true });
});

describe(`job workers of several processes on ${provider}`, () => {
  it("two processes starting their workers at the same moment on a new database both end running (5 times)", async () => {
    for (let trial = 1; trial <= 5; trial++) {
      const db = newDatabase(temp);
      await db.create();
      const env = { DATABASE_URL: db.url, JOB_WORKER_GO: "1" };
      const children = [spawnFixture("job-worker.ts", env), spawnFixture("job-worker.ts", env)];
      try {
        await Promise.all(children.map((c) => c.line(/^JOBS_LOADED$/)));
        for (const c of children) c.send("go"); // both start their workers now
        const outcomes = await Promise.all(children.map((c) => c.line(/^JOBS_(READY|FAILED)/)));
        expect(outcomes, `trial ${trial}`).toEqual(["JOBS_READY", "JOBS_READY"]);
      } finally {
        await Promise.all(children.map((c) => c.stop()));
        await db.drop();
      }
    }
  }, 600_000);

  it("retries a worker start the database refuses, with backoff; /api/ready and the metrics say failed until it runs", async () => {
    const db = newDatabase(temp);
    const using = await useDatabase(db.url);
    const server = await startServer();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failuresBefore = jobWorkerState().startFailures;
      await startServerJobs({ firstRetryMs: 100, maxRetryMs: 400 });
      expect(jobWorkerState().state).toBe("failed");
      // retried by itself, several times
      await until("three failed starts", () => jobWorkerState().startFailures >= failuresBefore + 3);
      const retries = logged.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith("svc: background jobs did not start"));
      expect(retries.length).toBeGreaterThanOrEqual(3);
      expect(retries[0]).toMatch(/attempt 1; next try in/);

      const ready = await fetch(`${server.url}/api/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get("content-type")).toBe("application/health+json");
      const body = (await ready.json()) as { status: string; checks: Record<string, { status: string; observedValue?: string }[]> };
      expect(body.status).toBe("fail");
      expect(body.checks["jobs:worker"][0]).toMatchObject({ status: "fail", observedValue: "failed" });
      expect(body.checks["database:ping"][0]).toMatchObject({ status: "fail", observedValue: "unreachable" });
      expect(JSON.stringify(body)).not.toMatch(/svc_test_|does not exist|ENOTDIR|EEXIST|\//); // states only: no error text, names or paths
      const live = await fetch(`${server.url}/api/health`);
      expect(live.status).toBe(200);
      expect(await live.json()).toMatchObject({ status: "pass" });

      const metrics = (await renderMetrics()).body;
      expect(metrics).toMatch(/^svc_job_worker_state\{state="failed"\} 1$/m);
      expect(Number(/^svc_job_worker_start_failures_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);

      await db.create(); // the database becomes available: the next retry starts the worker
      await until("the worker to run", () => jobWorkerState().state === "running", 60_000);
      const readyNow = await fetch(`${server.url}/api/ready`);
      const okBody = (await readyNow.json()) as { status: string; checks: Record<string, { status: string; observedValue?: string }[]> };
      expect(readyNow.status, JSON.stringify(okBody)).toBe(200);
      expect(okBody.status).toBe("pass");
      expect(okBody.checks["jobs:worker"][0]).toMatchObject({ status: "pass", observedValue: "running" });
      expect(okBody.checks["database:migrations"][0]).toMatchObject({ status: "pass" });
      expect((await renderMetrics()).body).toMatch(/^svc_job_worker_state\{state="running"\} 1$/m);
    } finally {
      logged.mockRestore();
      await server.close();
      await using.restore();
      await db.drop();
    }
  }, 180_000);

  it("runs a killed process's long job again within a minute (lease 2 s, timeout 10 min), naming the process of each run", async () => {
    // this process finishes what the killed one started
    defineJob("test.hold", async (p: unknown) => recordRun({ ...(p as { n: number }), tag: "hold-done" }), {
      retries: 3,
      backoffMs: 200,
      timeoutMs: 600_000,
    });
    const child = spawnFixture("job-worker.ts", { SVC_JOB_LEASE_MS: "2000" });
    try {
      await child.line(/^JOBS_READY$/);
      const id = (await enqueue("test.hold", { tag: "hold", n: 1 }))!;
      await until("the other process to run the job", async () => (await runsOf("hold")).some((r) => r.pid === child.pid));
      await child.kill9();
      const killedAt = Date.now();
      await startJobWorker({ pollIntervalMs: 100, leaseMs: 2_000 });
      const job = await until(
        "the job to run again and complete",
        async () => {
          const j = await getJob("test.hold", id);
          return j?.state === "completed" ? j : undefined;
        },
        60_000,
      );
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      expect(await runsOf("hold-done")).toEqual([{ n: 1, pid: process.pid }]);
      expect(job.runs.map(({ attempt, worker, outcome }) => ({ attempt, worker, outcome }))).toEqual([
        { attempt: 1, worker: `${hostname()}:${child.pid}`, outcome: "lost" },
        { attempt: 2, worker: jobProcessId(), outcome: "completed" },
      ]);
      expect(jobProcessId()).toBe(`${hostname()}:${process.pid}`);
      expect(job.runs[1].finishedAt).toBeInstanceOf(Date);
    } finally {
      await child.stop();
      await stopJobWorker();
    }
  }, 240_000);
});
