/**
 * GET /api/metrics (README "Metrics", docs/security.md "Hardening II, item 2"), over real HTTP
 * (startServer): absent (404) without METRICS_TOKEN, 401 without the bearer token, else this
 * process's metrics in the Prometheus text format: the event-loop delay, procedure calls by
 * outcome (HTTP and in-process), git HTTP requests, running and queued git processes, the job
 * queue depth on this run's database and the job worker state. Values are compared before and
 * after an action; conditions are polled, nothing asserts a duration.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "@/server/config";
import { spawnGit } from "@/server/git/exec";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { resetGitHttpLimits, setGitHttpLimits } from "@/server/http/git/http-limits";
import { acquireGitSlot, gitHttpStats, trackGitProcess } from "@/server/http/git/process-gate";
import { closeJobs, enqueue, startJobWorker } from "@/server/jobs";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

const TOKEN = `metrics-${randomBytes(16).toString("hex")}`;
let server: { url: string; close: () => Promise<void> };

function scrape(authorization?: string): Promise<Response> {
  return fetch(`${server.url}/api/metrics`, { headers: authorization ? { authorization } : {} });
}

/** The metrics text, asserting a 200 in the Prometheus text format. */
async function metricsText(): Promise<string> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of the sample `name` whose labels include `labels`, or undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, limitMs = 45_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function setToken(token: string | undefined): void {
  if (token === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = token;
  resetConfig();
}

beforeAll(async () => {
  server = await startServer({ git: handleGitHttp });
});

afterEach(() => resetGitHttpLimits());

afterAll(async () => {
  setToken(undefined);
  await server.close();
  await closeJobs();
});

describe(`GET /api/metrics on ${getConfig().provider}`, () => {
  it("is absent (404) while METRICS_TOKEN is unset, and then measures nothing", async () => {
    setToken(undefined);
    expect((await scrape()).status).toBe(404);
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
    // a call while metrics are off is not counted later
    expect((await fetch(`${server.url}/api/trpc/agent.getModes`)).status).toBe(200);
    setToken(TOKEN);
    expect(sample(await metricsText(), "svc_procedure_calls_total", { procedure: "agent.getModes" })).toBeUndefined();
  });

  it("refuses a short METRICS_TOKEN at configuration", () => {
    process.env.METRICS_TOKEN = "short";
    resetConfig();
    expect(() => getConfig()).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    setToken(TOKEN);
  });

  it("answers 401 with WWW-Authenticate: Bearer unless the configured token is presented as a bearer token", async () => {
    setToken(TOKEN);
    const user = await makeUser("metrics");
    const pat = await makeToken(user, ["user:read"]);
    const wrongSameLength = `${TOKEN.slice(0, -1)}${TOKEN.endsWith("0") ? "1" : "0"}`;
    for (const authorization of [
      undefined,
      "Bearer",
      `Bearer ${wrongSameLength}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${pat}`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`,
      TOKEN,
    ]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="svc metrics"');
      expect(await res.text()).not.toContain("svc_");
    }
    expect((await scrape(`bearer ${TOKEN}`)).status).toBe(200); // the scheme is case-insensitive
  });

  it("reports the event-loop delay, and a stall of the loop in svc_event_loop_delay_seconds", async () => {
    setToken(TOKEN);
    const text = await metricsText();
    for (const name of ["nodejs_eventloop_lag_p50_seconds", "nodejs_eventloop_lag_p99_seconds", "nodejs_eventloop_lag_max_seconds"])
      expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    const over100ms = (t: string) =>
      (sample(t, "svc_event_loop_delay_seconds_count") ?? 0) - (sample(t, "svc_event_loop_delay_seconds_bucket", { le: "0.1" }) ?? 0);
    const before = over100ms(text);
    const end = Date.now() + 300; // blocks the event loop for 300 ms
    while (Date.now() < end) Math.sqrt(end);
    await until("the stall to be observed", async () => over100ms(await metricsText()) > before);
  });

  it("counts procedure calls by procedure and outcome, over HTTP and in-process", async () => {
    setToken(TOKEN);
    const before = await metricsText();
    const ok = { procedure: "agent.getModes", code: "OK" };
    const missing = { procedure: "users.profile", code: "NOT_FOUND" };
    const bad = { procedure: "users.profile", code: "BAD_REQUEST" };
    expect((await fetch(`${server.url}/api/trpc/agent.getModes`)).status).toBe(200);
    const unknownUser = encodeURIComponent(JSON.stringify({ username: "nobody-like-this" }));
    expect((await fetch(`${server.url}/api/trpc/users.profile?input=${unknownUser}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/trpc/users.profile?input=${encodeURIComponent("{}")}`)).status).toBe(400);
    await (await callerFor(actorOf(await makeUser("metrics")))).agent.getModes();

    const after = await metricsText();
    const delta = (labels: Record<string, string>) =>
      (sample(after, "svc_procedure_calls_total", labels) ?? 0) - (sample(before, "svc_procedure_calls_total", labels) ?? 0);
    expect(delta(ok)).toBe(2);
    expect(delta(missing)).toBe(1);
    expect(delta(bad)).toBe(1);
    const count = (t: string) => sample(t, "svc_procedure_duration_seconds_count", { procedure: "users.profile" }) ?? 0;
    expect(count(after) - count(before)).toBe(2);
    expect(sample(after, "svc_procedure_duration_seconds_bucket", { procedure: "agent.getModes", le: "+Inf" })).toBeGreaterThanOrEqual(2);
  });

  it("reports running and queued git processes, and counts git HTTP requests", async () => {
    setToken(TOKEN);
    const before = await metricsText();
    expect(sample(before, "svc_git_http_processes")).toBe(0);
    expect(sample(before, "svc_git_http_queued")).toBe(0);

    // one git HTTP slot: a held slot with its git process, and a second request waiting for it
    setGitHttpLimits({ maxProcesses: 1 });
    const slot = await acquireGitSlot("ip:metrics-a");
    expect(slot).not.toBeNull();
    const waiting = acquireGitSlot("ip:metrics-b");
    const child = spawnGit(["hash-object", "--stdin"], { timeoutMs: 0 }); // runs until its stdin ends
    trackGitProcess(child, slot!);
    const busy = await metricsText();
    expect(sample(busy, "svc_git_http_processes")).toBe(1);
    expect(sample(busy, "svc_git_http_queued")).toBe(1);
    expect(sample(busy, "svc_git_processes")).toBeGreaterThanOrEqual(1);
    expect(sample(busy, "svc_git_processes_started_total")).toBeGreaterThan(sample(before, "svc_git_processes_started_total") ?? 0);

    child.stdin.end("x");
    const next = await waiting; // granted once the first git exits
    expect(next).not.toBeNull();
    next!.release();
    await until("the slots to be free", async () => gitHttpStats().slots === 0 && gitHttpStats().processes === 0);
    const idle = await metricsText();
    expect(sample(idle, "svc_git_http_processes")).toBe(0);
    expect(sample(idle, "svc_git_http_queued")).toBe(0);
    expect(sample(idle, "svc_git_http_stopped_total")).toBeGreaterThanOrEqual(0);

    const labels = { service: "upload-pack", status: "401" };
    const res = await fetch(`${server.url}/nobody-metrics/none.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(401);
    const after = await metricsText();
    expect((sample(after, "svc_git_http_requests_total", labels) ?? 0) - (sample(idle, "svc_git_http_requests_total", labels) ?? 0)).toBe(
      1,
    );
    expect(sample(after, "svc_git_http_response_seconds_count", { service: "upload-pack" })).toBeGreaterThanOrEqual(1);
  });

  it("documents every svc metric it serves in the README's Metrics table", async () => {
    setToken(TOKEN);
    await (await callerFor(null)).agent.getModes();
    await (await fetch(`${server.url}/nobody-metrics/none.git/info/refs?service=git-upload-pack`)).text();
    const names = [...(await metricsText()).matchAll(/^# HELP (svc_\w+) /gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThanOrEqual(12);
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Metrics"));
    expect(names.filter((n) => !table.includes(`\`${n}`))).toEqual([]);
  });

  it("reports the job queue depth per queue and state, and the job worker state", async () => {
    setToken(TOKEN);
    const before = await metricsText();
    expect(sample(before, "svc_job_queue_depth", { queue: "pulls.refreshMergeability", state: "created" })).toBe(0);
    expect(sample(before, "svc_job_worker_state", { state: "stopped" })).toBe(1);
    expect(sample(before, "svc_job_worker_state", { state: "running" })).toBe(0);

    const later = new Date(Date.now() + 3_600_000); // not due: the jobs stay queued
    await enqueue("test.metrics", { n: 1 }, { runAt: later });
    await enqueue("test.metrics", { n: 2 }, { runAt: later });
    await startJobWorker({ pollIntervalMs: 100 });
    const after = await metricsText();
    expect(sample(after, "svc_job_queue_depth", { queue: "test.metrics", state: "created" })).toBe(2);
    expect(sample(after, "svc_job_queue_depth", { queue: "test.metrics", state: "active" })).toBe(0);
    expect(sample(after, "svc_job_worker_state", { state: "running" })).toBe(1);
    expect(sample(after, "svc_job_worker_state", { state: "stopped" })).toBe(0);
  });
});
