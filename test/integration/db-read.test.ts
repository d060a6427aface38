import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { dateOf } from "@/server/db/raw";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p = (n: number) => (getConfig().provider === "postgresql" ? `$${n}` : "?");

describe("the read path off Prisma (server/db/read.ts)", () => {
  it("sees every committed write at once, and nothing of a transaction still open", async () => {
    const db = await getDb();
    const byName = `SELECT "id", "username", "createdAt" FROM "User" WHERE "usernameLower" = ${p(1)}`;
    const before = Date.now();
    await db.user.create({ data: { username: "Reader", usernameLower: "reader" } });
    const [row] = await readRows<{ id: string; username: string; createdAt: unknown }>(db, byName, ["reader"]);
    expect(row.username).toBe("Reader");
    // timestamps read back as the instant Prisma stored (UTC, whatever the process's zone)
    expect(Math.abs(dateOf(row.createdAt)!.getTime() - before)).toBeLessThan(60_000);

    const open = db.$transaction(async (tx) => {
      await tx.user.create({ data: { username: "pending", usernameLower: "pending" } });
      // the transaction's own client reads its own write (through Prisma, on its connection)
      expect(await readRows(tx, byName, ["pending"])).toHaveLength(1);
      await sleep(200);
    });
    await sleep(50);
    expect(await readRows(db, byName, ["pending"])).toHaveLength(0);
    await open;
    expect(await readRows(db, byName, ["pending"])).toHaveLength(1);
  });

  it("binds values and never splices them", async () => {
    const db = await getDb();
    const evil = `x' OR '1'='1`;
    expect(await readRows(db, `SELECT "id" FROM "User" WHERE "usernameLower" = ${p(1)}`, [evil])).toEqual([]);
  });

  it("refuses a statement that writes (SQLite checks before running it)", async () => {
    const db = await getDb();
    if (getConfig().provider !== "sqlite") return expect(getConfig().provider).toBe("postgresql");
    await expect(readRows(db, `DELETE FROM "User"`, [])).rejects.toThrow(/read-only SELECT/);
    await expect(readRows(db, `UPDATE "User" SET "name" = ${p(1)}`, ["x"])).rejects.toThrow(/read-only SELECT/);
    expect(await db.user.count()).toBeGreaterThan(0);
  });
});
