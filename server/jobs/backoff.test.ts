import { describe, expect, it } from "vitest";
import { MAX_RETRY_DELAY_MS, retryDelayMs } from "./backoff";

describe("retryDelayMs", () => {
  it("doubles per retry, between backoffMs·2^(k−1) and backoffMs·2^k", () => {
    expect([1, 2, 3, 4].map((k) => retryDelayMs(1000, k, 0))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3].map((k) => retryDelayMs(1000, k, 0.999999))).toEqual([2000, 4000, 8000]);
    expect(retryDelayMs(1000, 2, 0.5)).toBe(3000);
  });

  it("stops growing at the 16th retry and caps at 24 h", () => {
    expect(retryDelayMs(1, 40, 0)).toBe(retryDelayMs(1, 16, 0));
    expect(retryDelayMs(3_600_000, 30, 0.9)).toBe(MAX_RETRY_DELAY_MS);
  });

  it("is 0 for backoffMs 0 and treats odd retry numbers and randoms as their nearest valid value", () => {
    expect(retryDelayMs(0, 5)).toBe(0);
    expect(retryDelayMs(1000, 0, 0)).toBe(1000);
    expect(retryDelayMs(1000, 1, 7)).toBe(2000);
  });
});
