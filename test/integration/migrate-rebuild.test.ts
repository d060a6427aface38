/**
 * A migration that rebuilds a parent table (Prisma's SQLite "new_<table>" / DROP / RENAME, as
 * 20261123160232_pull_requests does for Repository) must keep the rows of its child tables:
 * server/db/migrate.ts turns foreign keys off outside the transaction, as SQLite documents.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrateSqlite } from "@/server/db/migrate";

const all = path.resolve("prisma/migrations");
const dir = mkdtempSync(path.join(os.tmpdir(), "svc-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite migrations", () => {
  it("rebuilding Repository keeps its issues and labels", () => {
    const before = path.join(dir, "before");
    for (const m of readdirSync(all).filter((d) => d < "20261123160232"))
      cpSync(path.join(all, m), path.join(before, m), { recursive: true });
    const file = path.join(dir, "svc.db");
    migrateSqlite(file, before);

    const db = new Database(file);
    db.exec(`INSERT INTO "User" (id, username, usernameLower, isAdmin, createdAt, updatedAt) VALUES ('u1', 'ann', 'ann', 0, 0, 0)`);
    db.exec(
      `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, defaultBranch, nextIssueNumber, nextPullNumber, createdAt, updatedAt) VALUES ('r1', 'u1', 'app', 'app', 0, 'main', 2, 1, 0, 0)`,
    );
    db.exec(
      `INSERT INTO "Issue" (id, repoId, number, title, state, status, priority, boardPosition, createdAt, updatedAt) VALUES ('i1', 'r1', 1, 'kept', 'open', 'backlog', 4, 0, 0, 0)`,
    );
    db.exec(`INSERT INTO "Label" (id, repoId, name, nameLower, color, createdAt) VALUES ('l1', 'r1', 'bug', 'bug', '#d73a4a', 0)`);
    db.close();

    expect(migrateSqlite(file, all)).toContain("20261123160232_pull_requests");
    const after = new Database(file, { readonly: true });
    expect(after.prepare(`SELECT title FROM "Issue"`).all()).toEqual([{ title: "kept" }]);
    expect(after.prepare(`SELECT count(*) AS n FROM "Label"`).get()).toEqual({ n: 1 });
    expect(after.prepare(`SELECT nextIssueNumber, forkedFromId FROM "Repository"`).get()).toEqual({
      nextIssueNumber: 2,
      forkedFromId: null,
    });
    expect(after.pragma("foreign_key_check")).toEqual([]);
    after.close();
  });
});
