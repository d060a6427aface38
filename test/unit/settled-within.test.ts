import { describe, expect, it } from "vitest";
import { settledWithin } from "@/lib/settled-within";

describe("settledWithin", () => {
  it("is true for a promise that resolves or rejects in time, false for one that does not", async () => {
    expect(await settledWithin(Promise.resolve(1), 1_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error("no")), 1_000)).toBe(true);
    expect(await settledWithin(new Promise(() => {}), 20)).toBe(false);
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error("late")), 50));
    expect(await settledWithin(late, 10)).toBe(false);
    await new Promise((r) => setTimeout(r, 80)); // its later rejection is handled: no unhandled rejection
  });
});
