/**
 * Background jobs (docs/architecture.md "Background jobs"): server/jobs on the database of this run
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL). Jobs run, failed runs retry with backoff, jobs
 * outlive a restart of the worker and of the store's connections, singleton keys dedupe waiting
 * jobs, and two processes on one database never run one job twice. Completion is polled with
 * generous limits; nothing here asserts a duration.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/server/config";
import { closeJobs, defineJob, enqueue, getJob, startJobWorker, stopJobWorker } from "@/server/jobs";
import { createRunTable, recordRun, runsOf } from "../fixtures/job-runs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const POLL = { pollIntervalMs: 100 };

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, limitMs = 90_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const completed = (name: string, id: string) =>
  until(`job ${id} to complete`, async () => {
    const job = await getJob(name, id);
    return job && (job.state === "completed" || job.state === "failed") ? job : undefined;
  });

const failuresLeft = new Map<number, number>();

beforeAll(async () => {
  await createRunTable();
  defineJob("test.record", async (p: unknown) => recordRun(p as { tag: string; n: number }), { retries: 0 });
  // fails its first `fail` runs per n, then records
  defineJob(
    "test.flaky",
    async (p: unknown) => {
      const { n, fail } = p as { n: number; fail: number };
      const left = failuresLeft.get(n) ?? fail;
      failuresLeft.set(n, left - 1);
      if (left > 0) throw new Error(`planned failure ${fail - left + 1} of ${fail}`);
      await recordRun({ tag: "flaky", n });
    },
    { retries: 2, backoffMs: 200 },
  );
});

afterAll(async () => {
  await closeJobs();
});

describe(`jobs on ${getConfig().provider}`, () => {
  it("runs an enqueued job and records it completed", async () => {
    await startJobWorker(POLL);
    const id = await enqueue("test.record", { tag: "one", n: 1 });
    expect(id).toBeTruthy();
    const job = await completed("test.record", id!);
    expect(job).toMatchObject({ state: "completed", attempts: 1, lastError: null });
    expect(await runsOf("one")).toEqual([{ n: 1, pid: process.pid }]);
    expect(await getJob("test.record", "not-a-job")).toBeNull();
    expect(await getJob("test.other", id!)).toBeNull();
  });

  it("retries a failing job with backoff until it succeeds, keeping the last error while it retries", async () => {
    const id = await enqueue("test.flaky", { n: 1, fail: 2 });
    const retrying = await until("a recorded failure", async () => {
      const job = await getJob("test.flaky", id!);
      return job?.lastError ? job : undefined;
    });
    expect(retrying.lastError).toMatch(/planned failure/);
    const job = await completed("test.flaky", id!);
    expect(job).toMatchObject({ state: "completed", attempts: 3 });
    expect(await runsOf("flaky")).toEqual([{ n: 1, pid: process.pid }]);
  });

  it("waits between backoffMs and 2·backoffMs before the first retry (the recorded due time)", async () => {
    defineJob(
      "test.slowRetry",
      async () => {
        throw new Error("always");
      },
      { retries: 1, backoffMs: 60_000 },
    );
    await stopJobWorker();
    await startJobWorker(POLL); // workers run the names defined when they start
    const id = await enqueue("test.slowRetry", {});
    const job = await until("the first failure", async () => {
      const j = await getJob("test.slowRetry", id!);
      return j?.state === "retry" ? j : undefined;
    });
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/always/);
    // due 60–120 s after the failure, which happened before this line
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 120_000);
  });

  it("fails a job for good once its retries are used up, with the last error", async () => {
    const id = await enqueue("test.flaky", { n: 2, fail: 5 });
    const job = await completed("test.flaky", id!);
    expect(job.state).toBe("failed");
    expect(job.attempts).toBe(3); // first run + retries: 2
    expect(job.lastError).toMatch(/planned failure 3 of 5/);
    expect((await runsOf("flaky")).filter((r) => r.n === 2)).toEqual([]);
  });

  it("runs a job enqueued before a restart (worker stopped, connections closed, new worker)", async () => {
    await closeJobs();
    const id = await enqueue("test.record", { tag: "restart", n: 1 });
    await closeJobs();
    expect(await runsOf("restart")).toEqual([]);
    await startJobWorker(POLL);
    await completed("test.record", id!);
    expect(await runsOf("restart")).toEqual([{ n: 1, pid: process.pid }]);
  });

  it("stopJobWorker waits for a running job to finish and records it", async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    defineJob(
      "test.gated",
      async () => {
        started();
        await gate;
        await recordRun({ tag: "gated", n: 1 });
      },
      { retries: 0 },
    );
    await stopJobWorker();
    await startJobWorker(POLL);
    const id = await enqueue("test.gated", {});
    await running;
    let stopped = false;
    const stopping = stopJobWorker().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(stopped).toBe(false); // still waiting for the job
    release();
    await stopping;
    expect(await runsOf("gated")).toEqual([{ n: 1, pid: process.pid }]);
    expect(await getJob("test.gated", id!)).toMatchObject({ state: "completed", attempts: 1 });
    await startJobWorker(POLL);
  });

  it("drops a second enqueue with the same singletonKey while the first is waiting", async () => {
    await stopJobWorker();
    const first = await enqueue("test.record", { tag: "single", n: 1 }, { singletonKey: "pr-1" });
    const second = await enqueue("test.record", { tag: "single", n: 2 }, { singletonKey: "pr-1" });
    const other = await enqueue("test.record", { tag: "single", n: 3 }, { singletonKey: "pr-2" });
    const unkeyed = [await enqueue("test.record", { tag: "single", n: 4 }), await enqueue("test.record", { tag: "single", n: 5 })];
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(other).toBeTruthy();
    expect(unkeyed.every(Boolean)).toBe(true);
    await startJobWorker(POLL);
    for (const id of [first!, other!, ...(unkeyed as string[])]) await completed("test.record", id);
    expect((await runsOf("single")).map((r) => r.n)).toEqual([1, 3, 4, 5]);
    // once the first has run, the key is free again
    const again = await enqueue("test.record", { tag: "single", n: 6 }, { singletonKey: "pr-1" });
    expect(again).toBeTruthy();
    await completed("test.record", again!);
  });

  it("two processes on one database run each of many jobs exactly once", async () => {
    await startJobWorker(POLL);
    const child = await spawnWorker();
    const logged = vi.spyOn(console, "error");
    try {
      const N = 120;
      const ids: string[] = [];
      for (let n = 1; n <= N; n++) ids.push((await enqueue("test.record", { tag: "shared", n, holdMs: 25 }))!);
      for (const id of ids) await completed("test.record", id);
      const runs = await runsOf("shared");
      const byPid = new Map<number, number>();
      for (const r of runs) byPid.set(r.pid, (byPid.get(r.pid) ?? 0) + 1);
      expect(
        runs.map((r) => r.n),
        `runs per process: ${JSON.stringify([...byPid])}`,
      ).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      // both processes took part (each run holds 25 ms, so neither drains the queue alone)
      expect(byPid.size, `runs per process: ${JSON.stringify([...byPid])}`).toBe(2);
      // no claim or record failed in either process (e.g. SQLite's "database is locked")
      expect(logged.mock.calls.map((c) => c.map(String).join(" "))).toEqual([]);
      expect(child.stderr()).not.toMatch(/svc: jobs|locked/);
    } finally {
      logged.mockRestore();
      await child.stop();
    }
  }, 300_000);
});

/** Starts test/fixtures/job-worker.ts (a second process with a worker on this database). */
async function spawnWorker(): Promise<{ stop: () => Promise<void>; stderr: () => string }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "test/fixtures/job-worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, SVC_APP_ROOT: ROOT },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err = (err + c.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`job-worker.ts did not start:\n${err}`)), 120_000);
    void exited.then(() => reject(new Error(`job-worker.ts exited before it was ready:\n${err}`)));
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("JOBS_READY")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    stderr: () => err,
    async stop() {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
