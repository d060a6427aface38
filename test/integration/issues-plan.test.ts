/**
 * SQLite query plans of the issue list statement (docs/issues.md "Performance"). SQLite's
 * statistics count every NULL parentId as one value, so in a repository without sub-issues the
 * planner can take Issue_parentId_idx for useless and count each listed row's sub-issues with a
 * full table scan.
 * This checks, on its own SQLite file with the real migrations and statistics gathered as at
 * server start (PRAGMA optimize in migrateSqlite), that every lookup of a listed row's children,
 * labels and closer goes through an index. (SQLite-only by nature: it reads SQLite's plan; it
 * runs the same whatever TEST_DATABASE_URL says.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrateSqlite } from "@/server/db/migrate";
import { issuesSql } from "@/server/services/issues/query";

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("issue list plan on SQLite", () => {
  it("uses indexes for sub-issue counts even when no issue has a parent", () => {
    const file = path.join(dir, "plan.db");
    const migrations = path.resolve(import.meta.dirname, "../../prisma/migrations");
    migrateSqlite(file, migrations);
    const db = new Database(file);
    const now = new Date().toISOString();
    const userId = randomUUID();
    const repoId = randomUUID();
    db.prepare(`INSERT INTO "User" (id, username, usernameLower, createdAt, updatedAt) VALUES (?, 'u', 'u', ?, ?)`).run(userId, now, now);
    db.prepare(
      `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, 'r', 'r', 0, 2001, ?, ?)`,
    ).run(repoId, userId, now, now);
    const insert = db.prepare(
      `INSERT INTO "Issue" (id, repoId, number, title, state, status, authorId, createdAt, updatedAt) VALUES (?, ?, ?, 't', ?, 'todo', ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let n = 1; n <= 2000; n++) insert.run(randomUUID(), repoId, n, n % 3 ? "open" : "closed", userId, now, now);
    })();
    db.close();
    migrateSqlite(file, migrations); // nothing to apply; gathers statistics as the server does at start

    const reader = new Database(file, { readonly: true });
    const { text, params } = issuesSql("sqlite", { repoId }, [{ field: "number", direction: "desc" }], { limit: 20, offset: 0 });
    const plan = (reader.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    reader.close();
    // the children lookups are by index, never a scan of the table
    expect(plan.filter((d) => /\bch\b/.test(d))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEARCH ch USING (COVERING )?INDEX Issue_parentId_idx/)]),
    );
    expect(plan.filter((d) => /^SCAN (ch|i|par|il|l|ca)\b/.test(d))).toEqual([]);
  });
});
