/**
 * On SQLite the better-sqlite3 adapter has ONE connection: a write made outside a transaction
 * while another request's interactive transaction is open would run inside it and be lost when
 * that transaction rolls back. The issue services put every write in a transaction (which waits
 * for the adapter's mutex); this proves a label created during a failing transaction survives.
 * (On PostgreSQL the same test simply passes.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { createLabel, listLabels } from "@/server/services/issues/labels";
import { issueWorld, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
beforeAll(async () => {
  w = await issueWorld();
});

describe("writes outside a failing transaction", () => {
  it("are not rolled back with it", async () => {
    const db = await getDb();
    const repo = { id: w.repoId };
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const failing = db
      .$transaction(
        async (tx) => {
          await tx.issueTemplate.create({ data: { repoId: w.repoId, name: "doomed" } });
          entered();
          await new Promise((r) => setTimeout(r, 150));
          throw new Error("roll back");
        },
        { timeout: 10_000 },
      )
      .catch((e: Error) => e.message);
    await inside;
    const label = await createLabel(db, repo, { name: "survivor", color: "#123456" });
    expect(await failing).toBe("roll back");
    expect((await listLabels(db, repo)).map((l) => l.id)).toContain(label.id);
    expect(await db.issueTemplate.count({ where: { repoId: w.repoId, name: "doomed" } })).toBe(0);
  });
});
