import { describe, expect, it } from "vitest";
import { defineJob, jobConcurrencyFromEnv, startJobWorker } from "./index";

describe("job options", () => {
  it("SVC_JOB_CONCURRENCY: 0–64, else the default 2", () => {
    expect(jobConcurrencyFromEnv({})).toBe(2);
    expect(jobConcurrencyFromEnv({ SVC_JOB_CONCURRENCY: "0" })).toBe(0);
    expect(jobConcurrencyFromEnv({ SVC_JOB_CONCURRENCY: " 8 " })).toBe(8);
    for (const bad of ["65", "-1", "1.5", "two", "", "100"]) expect(jobConcurrencyFromEnv({ SVC_JOB_CONCURRENCY: bad })).toBe(2);
  });

  it("defineJob refuses bad names and out-of-range options, naming them", () => {
    const ok = async () => {};
    expect(() => defineJob("has space", ok)).toThrow(/job name/);
    expect(() => defineJob("", ok)).toThrow(/job name/);
    expect(() => defineJob("x", ok, { retries: -1 })).toThrow(/retries must be an integer from 0 to 100/);
    expect(() => defineJob("x", ok, { backoffMs: 1.5 })).toThrow(/backoffMs/);
    expect(() => defineJob("x", ok, { timeoutMs: 10 })).toThrow(/timeoutMs must be an integer from 1000/);
    expect(() => defineJob("pulls.refreshMergeability", ok, { retries: 0, backoffMs: 0, timeoutMs: 1000 })).not.toThrow();
  });

  it("startJobWorker refuses out-of-range settings before touching the database", async () => {
    await expect(startJobWorker({ concurrency: 65 })).rejects.toThrow(/concurrency/);
    await expect(startJobWorker({ pollIntervalMs: 0 })).rejects.toThrow(/pollIntervalMs/);
  });
});
