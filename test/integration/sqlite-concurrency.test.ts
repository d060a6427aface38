/**
 * Concurrent writes from the web app wait their turn instead of failing with
 * "database is locked". 50 board moves and 50 comments at once over real HTTP, split between this
 * process's server and a second svc server process on the same database (test/fixtures/serve.ts;
 * as the CLI or a second server would be). On SQLite the two processes hold two connections to
 * one file: a transaction that read first and wrote later would fail at once with SQLITE_BUSY
 * under BEGIN DEFERRED (busy_timeout does not help there), so server/db/serialized-sqlite.ts starts
 * every transaction with BEGIN IMMEDIATE. On PostgreSQL the same run simply passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { makeToken, startServer } from "../helpers";
import { spawnServe, type ServeChild } from "../fixtures/spawn-serve";
import { trpc, type TrpcResult } from "../fixtures/clients";
import { issueWorld, type IssueWorld } from "./issues-fixtures";

const N = 50;
const STATUSES = ["todo", "in_progress", "in_review", "done", "canceled"];

let w: IssueWorld;
let token: string;
let local: { url: string; close: () => Promise<void> };
let child: ServeChild;

beforeAll(async () => {
  w = await issueWorld();
  token = await makeToken(w.writer, ["repo:read", "repo:write"]);
  local = await startServer();
  child = await spawnServe();
}, 180_000);

afterAll(async () => {
  await child?.stop();
  await local?.close();
});

describe("concurrent writes from two server processes on one database", () => {
  it("50 board moves and 50 comments at once all succeed, none lost", async () => {
    const numbers: number[] = [];
    for (let i = 0; i < N; i++) numbers.push((await w.as.owner.issues.create({ repoId: w.repoId, title: `c${i}` })).number);
    const base = (i: number) => (i % 2 ? child.url : local.url);
    const calls: Promise<TrpcResult>[] = numbers.flatMap((number, i) => [
      trpc(base(i), token, "issues.move", { repoId: w.repoId, number, status: STATUSES[i % STATUSES.length] }, "mutation", 120_000),
      trpc(base(i + 1), token, "issues.addComment", { repoId: w.repoId, number, body: `comment ${i}` }, "mutation", 120_000),
    ]);
    const results = await Promise.all(calls);
    const failed = results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.error}`);
    expect(failed, child.stderr().slice(-2000)).toEqual([]);

    const db = await getDb();
    const issues = await db.issue.findMany({ where: { repoId: w.repoId }, select: { number: true, status: true } });
    for (const [i, number] of numbers.entries())
      expect(issues.find((x) => x.number === number)?.status).toBe(STATUSES[i % STATUSES.length]);
    expect(await db.issueComment.count({ where: { issue: { repoId: w.repoId } } })).toBe(N);
  }, 300_000);
});

// The mechanism under the run above, step by step, with a second connection in this process.
// SQLite only: PostgreSQL has no file lock to observe (the run above covers it).
if (getConfig().provider === "sqlite") {
  describe("SQLite transactions against a second connection", () => {
    it("hold the write lock from BEGIN, so a read-then-write transaction cannot lose its snapshot", async () => {
      const db = await getDb();
      const other = new Database(getConfig().databaseUrl.slice("file:".length), { timeout: 0 });
      try {
        const name = `snap${Math.random().toString(36).slice(2, 8)}`;
        const otherWrite = () =>
          other.prepare(`UPDATE "Repository" SET "description" = ? WHERE "id" = ?`).run("from another process", w.repoId);
        let blocked = "";
        await db.$transaction(async (tx) => {
          await tx.user.count(); // a read first: a deferred BEGIN would take its snapshot here
          try {
            otherWrite();
          } catch (e) {
            blocked = (e as { code?: string }).code ?? String(e);
          }
          await tx.user.create({ data: { username: name, usernameLower: name } });
        });
        expect(blocked).toBe("SQLITE_BUSY");
        expect(await db.user.count({ where: { usernameLower: name } })).toBe(1);
        expect(otherWrite().changes).toBe(1); // and the lock is free again
      } finally {
        other.close();
      }
    });

    it("release the connection when COMMIT itself fails (deferred foreign keys), rolling back", async () => {
      const db = await getDb();
      const name = `fk${Math.random().toString(36).slice(2, 8)}`;
      const failing = db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON");
        await tx.user.create({ data: { username: name, usernameLower: name } });
        await tx.issueActivity.create({ data: { repoId: "no-such-repo", issueId: "no-such-issue", action: "commented" } });
      });
      await expect(failing).rejects.toThrow(/foreign ?key/i);
      // the next query runs (the lock was released) and the failed transaction left nothing
      expect(await db.user.count({ where: { usernameLower: name } })).toBe(0);
      await db.$transaction(async (tx) => {
        await tx.user.create({ data: { username: `${name}b`, usernameLower: `${name}b` } });
      });
      expect(await db.user.count({ where: { usernameLower: `${name}b` } })).toBe(1);
    }, 60_000);
  });
}
