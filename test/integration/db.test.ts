import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("database handle", () => {
  it("never lets a plain write join another request's open transaction (it would vanish on rollback)", async () => {
    const db = await getDb();
    const u = (name: string) => ({ username: name, usernameLower: name });
    const failing = db.$transaction(async (tx) => {
      await tx.user.create({ data: u("in-tx") });
      await sleep(300);
      throw new Error("roll back");
    });
    await sleep(50);
    // an unrelated request's write while the transaction is open
    await db.user.create({ data: u("outside") });
    await expect(failing).rejects.toThrow("roll back");
    expect(await db.user.findUnique({ where: { usernameLower: "outside" } })).not.toBeNull();
    expect(await db.user.findUnique({ where: { usernameLower: "in-tx" } })).toBeNull();
  });

  it("runs concurrent transactions and plain queries to completion", async () => {
    const db = await getDb();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? db.$transaction(async (tx) => {
              await tx.user.create({ data: { username: `c${i}`, usernameLower: `c${i}` } });
            })
          : db.user.create({ data: { username: `c${i}`, usernameLower: `c${i}` } }),
      ),
    );
    expect(await db.user.count({ where: { usernameLower: { startsWith: "c" } } })).toBe(40);
  });
});
