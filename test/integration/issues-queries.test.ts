/**
 * The issue lists make a constant number of queries (no N+1): counted with Prisma's query event
 * log on a second client over the same database (SQLite file or PostgreSQL), calling the services
 * directly. 120 issues with labels, assignees and sub-issues.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { listGroupedByStatus } from "@/server/services/issues/board";
import { listDueSoon, listOverdue } from "@/server/services/issues/due-dates";
import { countIssues, listIssues } from "@/server/services/issues/list-issues";
import { getSubIssues } from "@/server/services/issues/sub-issues";
import { listTriage } from "@/server/services/issues/triage";
import { getIssuesByView } from "@/server/services/issues/views";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { issueWorld, type IssueWorld } from "./issues-fixtures";
import { countingDb, type CountingDb } from "./query-count";

let w: IssueWorld;
let db: Db;
let counting: CountingDb;
let viewId: string;

beforeAll(async () => {
  // statements on the read path count too (server/db/read.ts): this client reads as the server's does
  counting = await countingDb();
  db = counting.db;
  w = await issueWorld();
  const c = w.as.owner;
  await c.issues.createLabel({ repoId: w.repoId, name: "a", color: "#000000" });
  await c.issues.createLabel({ repoId: w.repoId, name: "b", color: "#000000" });
  const parent = await c.issues.create({ repoId: w.repoId, title: "parent" });
  for (let i = 0; i < 120; i++) {
    await c.issues.create({
      repoId: w.repoId,
      title: `i${i}`,
      labels: i % 3 ? ["a", "b"] : ["a"],
      assigneeId: i % 2 ? w.writer.id : w.reader.id,
      status: i % 2 ? "todo" : "in_progress",
      parentNumber: i % 4 ? undefined : parent.number,
    });
  }
  viewId = (
    await c.issues.createView({
      repoId: w.repoId,
      name: "v",
      filters: { labels: ["b"], status: ["todo"] },
      sort: { field: "priority", direction: "asc" },
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await counting.close();
});

const count = (fn: () => Promise<unknown>) => counting.count(fn);

describe("constant query counts", () => {
  it("issues.list: one query at any page size, with labels, author, assignee and sub-issue counts", async () => {
    const repo = { id: w.repoId, ownerId: w.owner.id, isPrivate: true, permission: "admin" as const };
    const page = await listIssues(db, repo, { limit: 100 });
    expect(page).toHaveLength(100);
    expect(page.every((i) => i.author?.id === w.owner.id && i.assignee !== null && i.labels.length >= 1)).toBe(true);
    expect(page.find((i) => i.title === "parent")).toBeUndefined();
    expect(await count(() => listIssues(db, repo, { limit: 1 }))).toBe(1);
    expect(await count(() => listIssues(db, repo, { limit: 20 }))).toBe(1);
    expect(await count(() => listIssues(db, repo, { limit: 100, status: "todo" }))).toBe(1);
    // search (docs/issues.md "Search"): q with qualifiers, usernames and full text, author and sort; closedBy for closed rows
    const q = `is:open label:a,b label:b assignee:${w.writer.username} author:@me priority:none status:todo no:project i1 sort:updated-desc`;
    const found = await listIssues(db, repo, { q, limit: 100 }, w.owner.id);
    expect(found.map((i) => i.title)).toEqual(["i1"]);
    expect(await count(() => listIssues(db, repo, { q, limit: 100 }, w.owner.id))).toBe(1);
    expect(await count(() => listIssues(db, repo, { q: "is:closed", author: w.owner.username, sort: "priority", limit: 100 }))).toBe(1);
    expect(await count(() => countIssues(db, repo, { q }, w.owner.id))).toBe(1);
  });

  it("board, view, sub-issues, triage and due lists: one query each", async () => {
    const repo = { id: w.repoId, ownerId: w.owner.id, isPrivate: true, permission: "admin" as const };
    const grouped = await listGroupedByStatus(db, repo, {});
    expect(grouped.todo.length + grouped.in_progress.length + grouped.backlog.length).toBe(121);
    expect(await count(() => listGroupedByStatus(db, repo, {}))).toBe(1);
    const byView = await getIssuesByView(db, repo, viewId, { limit: 100 });
    expect(byView.length).toBe(40);
    expect(byView.every((i) => i.status === "todo" && i.labels.some((l) => l.name === "b"))).toBe(true);
    expect(await count(() => getIssuesByView(db, repo, viewId, { limit: 100 }))).toBe(2); // view row + issues
    // through tRPC the view's filters and sort come with the authorization query: 2 in all
    const actor: Actor = {
      user: { id: w.owner.id, username: w.owner.username, name: null, email: null, isAdmin: false },
      via: "session",
      scopes: SCOPES,
    };
    const caller = createCaller({ db, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "test" });
    expect(await caller.issues.getIssuesByView({ viewId, limit: 100 })).toEqual(byView);
    expect(await count(() => caller.issues.getIssuesByView({ viewId, limit: 100 }))).toBe(2);
    expect(await count(() => getSubIssues(db, repo, 1))).toBe(2); // parent lookup + issues
    expect(await count(() => listTriage(db, repo))).toBe(1);
    expect(await count(() => listOverdue(db, repo))).toBe(1);
    expect(await count(() => listDueSoon(db, repo, 7))).toBe(1);
  });
});
