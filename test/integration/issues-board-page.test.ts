/**
 * The paged board (docs/issues.md "Board"): issues.board (every column's first page with exact
 * counts and estimate sums) and issues.boardColumn (a column's next page by keyset cursor), through
 * the real router. Paging a column to its end gives exactly listGroupedByStatus's column.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUSES } from "@/lib/issues/model";
import { encodeCursor } from "@/server/services/issues/board-page";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
let r: string;
let projectId: string;
const nums = (xs: { number: number }[]) => xs.map((x) => x.number);

beforeAll(async () => {
  w = await issueWorld();
  r = w.repoId;
  const c = w.as.owner;
  projectId = (await c.projects.create({ repoId: r, name: "Paged" })).id;
  // todo: 7 cards, estimates 0.1 + 0.2 + 1 … (4 without one); in_progress: 2; done: 1 (closed)
  for (let k = 0; k < 7; k++) {
    await c.issues.create({
      repoId: r,
      title: `todo ${k}`,
      status: "todo",
      ...(k < 3 ? { estimate: [0.1, 0.2, 1][k] } : {}),
      ...(k % 2 === 0 ? { project: "Paged" } : {}),
    });
  }
  await c.issues.create({ repoId: r, title: "doing 1", status: "in_progress", estimate: 5 });
  await c.issues.create({ repoId: r, title: "doing 2", status: "in_progress", project: "Paged" });
  await c.issues.create({ repoId: r, title: "shipped", status: "done", estimate: 2 });
});

describe("issues.board", () => {
  it("returns every column in board order with exact counts, estimate sums and the first page", async () => {
    const { columns } = await w.as.reader.issues.board({ repoId: r, limit: 3 });
    expect(columns.map((c) => c.status)).toEqual(DEFAULT_STATUSES.map((s) => s.key));
    const todo = columns.find((c) => c.status === "todo")!;
    expect(todo.count).toBe(7);
    expect(todo.estimate).toBe(1.3); // 0.1 + 0.2 + 1, not 1.3000000000000003
    expect(todo.issues.map((i) => i.title)).toEqual(["todo 0", "todo 1", "todo 2"]);
    expect(todo.issues[0]).toMatchObject({ status: "todo", state: "open", author: { id: w.owner.id }, labels: [] });
    expect(todo.nextCursor).toEqual(expect.any(String));
    expect(columns.find((c) => c.status === "in_progress")).toMatchObject({ count: 2, estimate: 5, nextCursor: null });
    expect(columns.find((c) => c.status === "done")).toMatchObject({
      count: 1,
      estimate: 2,
      nextCursor: null,
      issues: [expect.objectContaining({ state: "closed" })],
    });
    expect(columns.find((c) => c.status === "backlog")).toEqual({ status: "backlog", count: 0, estimate: 0, issues: [], nextCursor: null });
  });

  it("defaults to 50 cards a column and agrees with listGroupedByStatus", async () => {
    const [{ columns }, grouped] = await Promise.all([
      w.as.reader.issues.board({ repoId: r }),
      w.as.reader.issues.listGroupedByStatus({ repoId: r }),
    ]);
    for (const c of columns) {
      expect(c.issues).toEqual((grouped as Record<string, unknown[]>)[c.status]);
      expect(c.count).toBe((grouped as Record<string, unknown[]>)[c.status].length);
    }
  });

  it("filters by project (counts and sums too)", async () => {
    const { columns } = await w.as.reader.issues.board({ repoId: r, projectId });
    const todo = columns.find((c) => c.status === "todo")!;
    expect(todo.issues.map((i) => i.title)).toEqual(["todo 0", "todo 2", "todo 4", "todo 6"]);
    expect(todo).toMatchObject({ count: 4, estimate: 1.1 });
    expect(columns.find((c) => c.status === "in_progress")).toMatchObject({ count: 1, estimate: 0 });
  });
});

describe("issues.boardColumn", () => {
  it("pages a column to its end by cursor, in board order, without gaps or repeats", async () => {
    const grouped = await w.as.reader.issues.listGroupedByStatus({ repoId: r });
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await w.as.reader.issues.boardColumn({ repoId: r, status: "todo", limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page).toMatchObject({ status: "todo", count: 7, estimate: 1.3 });
      expect(page.issues.length).toBeLessThanOrEqual(2);
      seen.push(...nums(page.issues));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(nums(grouped.todo));
  });

  it("keeps its place when cards move: a cursor is a board position, not an offset", async () => {
    const b = await issueWorld();
    const c = b.as.owner;
    const made = [];
    for (let k = 0; k < 5; k++) made.push(await c.issues.create({ repoId: b.repoId, title: `c${k}`, status: "todo" }));
    const first = await c.issues.boardColumn({ repoId: b.repoId, status: "todo", limit: 2 });
    expect(nums(first.issues)).toEqual([made[0].number, made[1].number]);
    // the first card leaves the column and a new card lands at its top: an offset would now skip c2
    await c.issues.move({ repoId: b.repoId, number: made[0].number, status: "in_progress" });
    await c.issues.move({ repoId: b.repoId, number: made[4].number, status: "todo", beforeNumber: made[1].number });
    const next = await c.issues.boardColumn({ repoId: b.repoId, status: "todo", limit: 2, cursor: first.nextCursor! });
    expect(nums(next.issues)).toEqual([made[2].number, made[3].number]);
    expect(next).toMatchObject({ count: 4, nextCursor: null });
  });

  it("filters by project and cycle", async () => {
    const page = await w.as.reader.issues.boardColumn({ repoId: r, status: "todo", projectId, limit: 3 });
    expect(page.issues.map((i) => i.title)).toEqual(["todo 0", "todo 2", "todo 4"]);
    expect(page.count).toBe(4);
    const rest = await w.as.reader.issues.boardColumn({ repoId: r, status: "todo", projectId, limit: 3, cursor: page.nextCursor! });
    expect(rest.issues.map((i) => i.title)).toEqual(["todo 6"]);
    expect(rest.nextCursor).toBeNull();
    const cycle = await w.as.owner.cycles.create({ repoId: r, startsAt: "2030-01-01", endsAt: "2030-01-15" });
    expect(await w.as.reader.issues.boardColumn({ repoId: r, status: "todo", cycleId: cycle.id })).toEqual({
      status: "todo",
      count: 0,
      estimate: 0,
      issues: [],
      nextCursor: null,
    });
  });
});

describe("validation and access", () => {
  it("refuses bad input with 400s naming the field", async () => {
    const c = w.as.reader.issues;
    expect(await messageOf(c.board({ repoId: r, limit: 0 }))).toMatch(/limit must be at least 1/);
    expect(await messageOf(c.board({ repoId: r, limit: 101 }))).toMatch(/limit is at most 100/);
    expect(await messageOf(c.boardColumn({ repoId: r, status: "wontfix" }))).toMatch(/status must be one of/);
    expect(await messageOf(c.boardColumn({ repoId: r, status: "todo", cursor: "not a cursor" }))).toMatch(/cursor is invalid/);
    expect(await messageOf(c.boardColumn({ repoId: r, status: "todo", cursor: Buffer.from("1:x").toString("base64url") }))).toMatch(
      /cursor is invalid/,
    );
    expect(await messageOf(c.boardColumn({ repoId: r, status: "todo", cursor: "a\u0000" }))).toMatch(/cursor must not contain NUL/);
    expect(await messageOf(c.boardColumn({ repoId: r, status: "todo", cursor: "x".repeat(101) }))).toMatch(/cursor is invalid/);
    expect(await codeOf(c.board({ repoId: r, projectId: "nope" }))).toBe("BAD_REQUEST");
    // a cursor past every card is an empty page, not an error
    const end = await c.boardColumn({ repoId: r, status: "todo", cursor: encodeCursor({ position: 1e12, number: 1 }) });
    expect(end).toMatchObject({ count: 7, issues: [], nextCursor: null });
  });

  it("answers NOT_FOUND for another repository's project or cycle, and for a private repository to strangers", async () => {
    const other = await issueWorld();
    const foreign = await other.as.owner.projects.create({ repoId: other.repoId, name: "Elsewhere" });
    expect(await codeOf(w.as.reader.issues.board({ repoId: r, projectId: foreign.id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.reader.issues.boardColumn({ repoId: r, status: "todo", projectId: foreign.id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.stranger.issues.board({ repoId: r }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.anon.issues.boardColumn({ repoId: r, status: "todo" }))).toBe("NOT_FOUND");
  });

  it("lets anyone read a public repository's board", async () => {
    const pub = await issueWorld({ isPrivate: false });
    await pub.as.owner.issues.create({ repoId: pub.repoId, title: "visible", status: "todo" });
    const { columns } = await pub.as.anon.issues.board({ repoId: pub.repoId });
    expect(columns.find((c) => c.status === "todo")).toMatchObject({ count: 1, issues: [expect.objectContaining({ title: "visible" })] });
    expect((await pub.as.stranger.issues.boardColumn({ repoId: pub.repoId, status: "todo" })).count).toBe(1);
  });
});
