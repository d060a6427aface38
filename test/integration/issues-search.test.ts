/**
 * issues.list / issues.counts `q` (GitHub-style search, full-text over title and body), `author`
 * and `sort` (docs/issues.md "Search"), and `closedBy` in lists. Runs on SQLite (FTS5)
 * and, with TEST_DATABASE_URL, on PostgreSQL (tsvector + GIN).
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { codeOf, issueWorld } from "./issues-fixtures";

describe("issues.list q: qualifiers and full-text search", () => {
  it("filters by qualifiers, searches title and body, stays in sync with edits and deletes", async () => {
    const w = await issueWorld();
    const { owner, writer } = w.as;
    const repoId = w.repoId;
    await owner.issues.createLabel({ repoId, name: "bug", color: "#d73a4a" });
    await owner.issues.createLabel({ repoId, name: "good first issue", color: "#7057ff" });
    const a = await owner.issues.create({
      repoId,
      title: "Crash when opening files",
      body: "The editor crashes with a segfault",
      labels: ["bug"],
      priority: "high",
      assigneeId: w.writer.id,
    });
    const b = await writer.issues.create({
      repoId,
      title: "Docs: explain config",
      body: "Mention the crashing edge case",
      labels: ["good first issue"],
      dueDate: "2000-01-01",
    });
    const c = await owner.issues.create({ repoId, title: "Ünïcödé title 日本語", labels: ["bug", "good first issue"], priority: "urgent" });
    await owner.issues.close({ repoId, number: c.number });

    const nums = async (q: string, extra: Record<string, unknown> = {}) =>
      (await owner.issues.list({ repoId, q, ...extra })).map((i) => i.number);
    expect(await nums("is:open")).toEqual([b.number, a.number]);
    expect(await nums("is:closed")).toEqual([c.number]);
    expect(await nums("label:bug")).toEqual([c.number, a.number]);
    expect(await nums('label:bug label:"good first issue"')).toEqual([c.number]); // repeated: all
    expect(await nums('label:bug,"good first issue"')).toEqual([c.number, b.number, a.number]); // comma: any
    expect(await nums("no:label")).toEqual([]);
    expect(await nums(`assignee:${w.writer.username.toUpperCase()}`)).toEqual([a.number]);
    expect(await nums("no:assignee")).toEqual([c.number, b.number]);
    expect(await (await w.as.writer.issues.list({ repoId, q: "assignee:@me" })).map((i) => i.number)).toEqual([a.number]);
    expect(await (await w.as.writer.issues.list({ repoId, q: "author:@me" })).map((i) => i.number)).toEqual([b.number]);
    expect(await nums(`author:${w.writer.username}`)).toEqual([b.number]);
    expect(await nums("", { author: w.owner.username })).toEqual([c.number, a.number]);
    expect(await nums("priority:high,urgent")).toEqual([c.number, a.number]);
    expect(await nums("status:backlog")).toEqual([b.number, a.number]);
    expect(await nums("status:done is:open")).toEqual([]);
    expect(await nums("due:overdue")).toEqual([b.number]);
    expect(await nums("is:open", { state: "closed" })).toEqual([]); // AND with the spec's inputs
    // full text: stemming (crash ~ crashes ~ crashing), title and body, phrases, unicode
    expect(await nums("crash")).toEqual([b.number, a.number]);
    expect(await nums("segfault")).toEqual([a.number]);
    expect(await nums('"opening files"')).toEqual([a.number]);
    expect(await nums('"files opening"')).toEqual([]);
    expect(await nums("日本語")).toEqual([c.number]);
    expect(await nums("ÜNÏCÖDÉ")).toEqual([c.number]); // case-folded
    expect(await nums("unicode")).toEqual([]); // diacritics are kept, on both engines
    expect(await nums("crash label:bug is:open")).toEqual([a.number]);
    expect(await nums("unknown:qualifier crash")).toEqual([]); // unknown qualifiers are text
    // FTS syntax in user input is never an error
    for (const q of [
      '"',
      '""',
      "*",
      "crash*",
      "NEAR(crash files)",
      "-crash",
      "crash -files",
      "OR",
      "AND NOT",
      "^x",
      "a:b:c",
      "(",
      ")",
      "'",
      "\\",
      "🙂",
      "title:crash",
      'col:"x',
      "crash OR docs",
    ]) {
      expect(await codeOf(owner.issues.list({ repoId, q })), q).toBe("OK");
      expect(await codeOf(owner.issues.counts({ repoId, q })), q).toBe("OK");
    }
    expect(await nums("crash docs")).toEqual([b.number]); // all words must match
    expect(await nums("crash OR zebra")).toEqual([]); // OR is a word, not an operator
    // edits and deletes keep the index in sync (same transaction)
    await owner.issues.update({ issueId: a.id, title: "Freeze when opening files", body: "hangs" });
    expect(await nums("segfault")).toEqual([]);
    expect(await nums("freeze")).toEqual([a.number]);
    await owner.issues.update({ issueId: a.id, body: null });
    expect(await nums("hangs")).toEqual([]);
    // counts: the same filters, both states whatever is: says
    expect(await owner.issues.counts({ repoId, q: "is:open label:bug" })).toEqual({ open: 1, closed: 1 });
    expect(await owner.issues.counts({ repoId, q: "japanese 日本語" })).toEqual({ open: 0, closed: 0 });
    // bad qualifier values: BAD_REQUEST naming them; too long: BAD_REQUEST
    const err = await owner.issues.list({ repoId, q: "priority:huge" }).catch((e: Error) => e.message);
    expect(err).toMatch(/priority:huge/);
    expect(await codeOf(owner.issues.list({ repoId, q: "x".repeat(257) }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.issues.list({ repoId, q: "a\u0000b" }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.issues.list({ repoId, sort: "sideways" as never }))).toBe("BAD_REQUEST");
    // readers search too; strangers of a private repository do not
    expect((await w.as.reader.issues.list({ repoId, q: "docs" })).map((i) => i.number)).toEqual([b.number]);
    expect(await codeOf(w.as.stranger.issues.list({ repoId, q: "docs" }))).toBe("NOT_FOUND");
    // anonymous @me matches nothing (public repository)
    const pub = await issueWorld({ isPrivate: false });
    await pub.as.owner.issues.create({ repoId: pub.repoId, title: "x", assigneeId: pub.owner.id });
    expect(await pub.as.anon.issues.list({ repoId: pub.repoId, q: "assignee:@me" })).toEqual([]);
  });

  it("sorts: newest, oldest, updated, priority, due date (nulls last)", async () => {
    const w = await issueWorld();
    const { owner } = w.as;
    const repoId = w.repoId;
    const one = await owner.issues.create({ repoId, title: "one", priority: "low", dueDate: "2030-01-02" });
    const two = await owner.issues.create({ repoId, title: "two", priority: "urgent" });
    const three = await owner.issues.create({ repoId, title: "three", priority: "medium", dueDate: "2030-01-01" });
    await new Promise((r) => setTimeout(r, 5));
    await owner.issues.update({ issueId: one.id, title: "one!" });
    const order = async (sort: string, viaQ = false) =>
      (await owner.issues.list(viaQ ? { repoId, q: `sort:${sort}` } : { repoId, sort: sort as never })).map((i) => i.title);
    expect(await order("created-desc")).toEqual(["three", "two", "one!"]);
    expect(await order("created-asc")).toEqual(["one!", "two", "three"]);
    expect(await order("updated-desc", true)).toEqual(["one!", "three", "two"]);
    expect(await order("priority", true)).toEqual(["two", "three", "one!"]);
    expect(await order("due-asc")).toEqual(["three", "one!", "two"]);
    expect(await order("due-desc")).toEqual(["one!", "three", "two"]);
    // the input sort wins over q's
    expect((await owner.issues.list({ repoId, q: "sort:priority", sort: "created-asc" })).map((i) => i.title)).toEqual([
      "one!",
      "two",
      "three",
    ]);
  });

  it("saved views carry a query (filters.q): applied with the other filters, editable, validated", async () => {
    const w = await issueWorld();
    const { owner, writer } = w.as;
    const repoId = w.repoId;
    await owner.issues.createLabel({ repoId, name: "bug", color: "#d73a4a" });
    const a = await owner.issues.create({ repoId, title: "login crash", labels: ["bug"], assigneeId: w.writer.id });
    const b = await owner.issues.create({ repoId, title: "login slow", priority: "high" });
    await owner.issues.create({ repoId, title: "other", labels: ["bug"] });
    const v = await owner.issues.createView({ repoId, name: "Login", filters: { q: "login sort:created-asc" } });
    expect(v.filters).toEqual({ q: "login sort:created-asc" });
    const nums = async (viewId: string, as = owner) => (await as.issues.getIssuesByView({ viewId })).map((i) => i.number);
    expect(await nums(v.id)).toEqual([a.number, b.number]); // q's sort applies when the view has none
    const edited = await owner.issues.updateView({
      viewId: v.id,
      filters: { q: "login assignee:@me", labels: ["bug"] },
      sort: { field: "number", direction: "desc" },
    });
    expect(edited.filters).toEqual({ q: "login assignee:@me", labels: ["bug"] });
    expect(await nums(v.id)).toEqual([]); // @me is the caller: the owner is assigned nothing
    expect(await nums(v.id, writer)).toEqual([a.number]);
    // assignee ids (views store ids) also work as qualifier values
    expect((await owner.issues.list({ repoId, q: `assignee:${w.writer.id}` })).map((i) => i.number)).toEqual([a.number]);
    expect(await codeOf(owner.issues.createView({ repoId, name: "bad", filters: { q: "priority:huge" } }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.issues.updateView({ viewId: v.id, filters: { q: "x".repeat(300) } }))).toBe("BAD_REQUEST");
    expect((await owner.issues.deleteView({ viewId: v.id })).deleted).toBe(true);
  });

  it("lists say who closed an issue, in the same single query", async () => {
    const w = await issueWorld();
    const repoId = w.repoId;
    const a = await w.as.owner.issues.create({ repoId, title: "a" });
    const b = await w.as.owner.issues.create({ repoId, title: "b" });
    await w.as.writer.issues.close({ repoId, number: a.number });
    await w.as.owner.issues.close({ repoId, number: b.number });
    await w.as.owner.issues.reopen({ repoId, number: b.number });
    const list = await w.as.owner.issues.list({ repoId });
    expect(list.find((i) => i.number === a.number)!.closedBy).toEqual({ id: w.writer.id, username: w.writer.username, name: null });
    expect(list.find((i) => i.number === b.number)!.closedBy).toBeNull();
    expect((await w.as.owner.issues.get({ repoId, number: a.number })).closedBy?.username).toBe(w.writer.username);
  });

  it("uses the full-text index and drops documents with their repository", async () => {
    const db = await getDb();
    const w = await issueWorld();
    await w.as.owner.issues.create({ repoId: w.repoId, title: "indexed words" });
    if (getConfig().provider === "postgresql") {
      const rows = await db.$queryRawUnsafe<{ indexdef: string }[]>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'Issue_search_idx'`);
      expect(rows[0].indexdef).toMatch(/gin \(to_tsvector/i);
      await db.$executeRawUnsafe("SET enable_seqscan = off");
      const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT 1 FROM "Issue" i WHERE to_tsvector('english'::regconfig, i."title" || ' ' || COALESCE(i."body", '')) @@ websearch_to_tsquery('english'::regconfig, 'words')`,
      );
      await db.$executeRawUnsafe("SET enable_seqscan = on");
      expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Issue_search_idx/);
    } else {
      const before = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT COUNT(*) AS n FROM "IssueSearchDoc"`);
      await w.as.owner.repos.delete({ repoId: w.repoId } as never).catch(async () => db.repository.delete({ where: { id: w.repoId } }));
      const after = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT COUNT(*) AS n FROM "IssueSearchDoc"`);
      expect(Number(after[0].n)).toBe(Number(before[0].n) - 1);
      const fts = await db.$queryRawUnsafe<{ n: number }[]>(
        `SELECT COUNT(*) AS n FROM "IssueSearch" WHERE "IssueSearch" MATCH '"indexed"'`,
      );
      expect(Number(fts[0].n)).toBe(0);
    }
  });
});
