/** server/db/unique-retry.ts: a check-then-insert transaction runs again after a unique violation, nothing else. */
import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { retryOnUniqueViolation } from "@/server/db/unique-retry";

const unique = () => Object.assign(new Error("Unique constraint failed on the fields: (`oid`)"), { code: "P2002" });

describe("retryOnUniqueViolation", () => {
  it("runs the write again after P2002 and returns its result", async () => {
    let calls = 0;
    const out = await retryOnUniqueViolation(async () => {
      if (++calls < 3) throw unique();
      return "stored";
    });
    expect({ out, calls }).toEqual({ out: "stored", calls: 3 });
  });

  it("gives up after the attempts, and never retries other errors", async () => {
    let calls = 0;
    await expect(
      retryOnUniqueViolation(async () => {
        calls++;
        throw unique();
      }, 2),
    ).rejects.toMatchObject({ code: "P2002" });
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      retryOnUniqueViolation(async () => {
        calls++;
        throw Object.assign(new Error("fk"), { code: "P2003" });
      }),
    ).rejects.toThrow("fk");
    expect(calls).toBe(1);
    expect([unique(), new Error("x"), null, "P2002"].map(isUniqueViolation)).toEqual([true, false, false, false]);
  });
});
