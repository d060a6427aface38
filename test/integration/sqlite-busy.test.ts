/**
 * A write that cannot get SQLite's write lock within the busy timeout (another process holds it)
 * answers 503 SERVICE_UNAVAILABLE with Retry-After and a message saying so — never a 500 — and
 * changes nothing; once the lock is free the same request succeeds. The busy timeout is lowered
 * to 300 ms for this file (SVC_SQLITE_BUSY_TIMEOUT_MS, read when the database is first opened).
 * The detection and the setting are checked on every database.
 */
process.env.SVC_SQLITE_BUSY_TIMEOUT_MS = "300";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { getDb, sqliteBusyTimeoutMs } from "@/server/db";
import { getConfig } from "@/server/config";
import { AppError, isDatabaseBusy } from "@/server/errors";
import { errorResponse } from "@/server/http/respond";
import { makeToken, startServer } from "../helpers";
import { issueWorld, type IssueWorld } from "./issues-fixtures";

describe("a busy database is recognised", () => {
  it("by SQLITE_BUSY codes or the message anywhere in the cause chain", () => {
    expect(isDatabaseBusy(Object.assign(new Error("x"), { code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isDatabaseBusy(new Error("outer", { cause: new Error("SqliteError: database is locked") }))).toBe(true);
    expect(isDatabaseBusy(new Error("unique constraint failed"))).toBe(false);
    expect(isDatabaseBusy(null)).toBe(false);
    // what Prisma 6 throws: P1008 with the driver's error in meta.driverAdapterError
    const prisma = Object.assign(new Error("Operation has timed out"), {
      code: "P1008",
      meta: {
        driverAdapterError: {
          name: "DriverAdapterError",
          cause: { originalCode: "SQLITE_BUSY", originalMessage: "database is locked", kind: "SocketTimeout" },
        },
      },
    });
    expect(isDatabaseBusy(prisma)).toBe(true);
  });

  it("REST answers 503 with Retry-After for it", async () => {
    const res = errorResponse(new Error("database is locked"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect((await res.json()).error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "the database is busy; try again in 2 seconds",
    });
    expect(new AppError("SERVICE_UNAVAILABLE", "x").code).toBe("SERVICE_UNAVAILABLE");
  });

  it("the busy timeout setting is bounded and defaults to 10 s", () => {
    expect(sqliteBusyTimeoutMs({})).toBe(10_000);
    expect(sqliteBusyTimeoutMs({ SVC_SQLITE_BUSY_TIMEOUT_MS: "250" })).toBe(250);
    for (const bad of ["0", "-1", "1e3", "700000", "abc", ""])
      expect(sqliteBusyTimeoutMs({ SVC_SQLITE_BUSY_TIMEOUT_MS: bad })).toBe(10_000);
  });
});

if (getConfig().provider === "sqlite") {
  describe("SQLite held by another process", () => {
    let w: IssueWorld;
    let token: string;
    let server: { url: string; close: () => Promise<void> };
    let issueNumber: number;

    beforeAll(async () => {
      w = await issueWorld();
      token = await makeToken(w.writer, ["repo:read", "repo:write"]);
      server = await startServer();
      issueNumber = (await w.as.owner.issues.create({ repoId: w.repoId, title: "busy" })).number;
    }, 120_000);
    afterAll(async () => server?.close());

    const addComment = (body: string) =>
      fetch(`${server.url}/api/trpc/issues.addComment`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ repoId: w.repoId, number: issueNumber, body }),
      });

    it("a write answers 503 + Retry-After while the lock is held, and succeeds once it is free", async () => {
      const db = await getDb();
      const before = await db.issueComment.count();
      const other = new Database(getConfig().databaseUrl.slice("file:".length));
      other.exec("BEGIN IMMEDIATE");
      let res: Response;
      try {
        res = await addComment("while locked");
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      const body = await res.json();
      expect(body.error.message).toBe("the database is busy; try again in 2 seconds");
      expect(body.error.data.code).toBe("SERVICE_UNAVAILABLE");
      expect(await db.issueComment.count()).toBe(before);

      const again = await addComment("after the lock");
      expect(again.status).toBe(200);
      expect(await db.issueComment.count()).toBe(before + 1);
    }, 60_000);
  });
}
