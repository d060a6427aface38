/**
 * Issue tracker, part 3: statuses, priorities, the board (listGroupedByStatus, updateStatus with
 * every status/state coupling, move) and triage (listTriage, acceptTriage, rejectTriage).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STATUSES } from "@/lib/issues/model";
import { codeOf, issueWorld, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
let r: string;
beforeAll(async () => {
  w = await issueWorld();
  r = w.repoId;
});
const last = async (number: number) => (await w.as.owner.issues.getActivity({ repoId: r, number, limit: 1 }))[0];

describe("statuses and priorities", () => {
  it("lists statuses with categories and priorities in order", async () => {
    const statuses = await w.as.reader.issues.statuses({ repoId: r });
    expect(statuses.map((s) => [s.key, s.category])).toEqual([
      ["triage", "triage"],
      ["backlog", "backlog"],
      ["todo", "unstarted"],
      ["in_progress", "started"],
      ["in_review", "started"],
      ["done", "completed"],
      ["canceled", "canceled"],
    ]);
    expect(statuses.map((s) => s.order)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await w.as.anon.issues.priorities()).toEqual([
      { key: "urgent", label: "Urgent", order: 0 },
      { key: "high", label: "High", order: 1 },
      { key: "medium", label: "Medium", order: 2 },
      { key: "low", label: "Low", order: 3 },
      { key: "none", label: "No priority", order: 4 },
    ]);
    expect(await codeOf(w.as.stranger.issues.statuses({ repoId: r }))).toBe("NOT_FOUND");
  });
});

describe("updateStatus couples state", () => {
  it.each(DEFAULT_STATUSES.map((s) => [s.key, s.category] as const))("to %s (%s)", async (key, category) => {
    for (const from of ["in_progress", "done"]) {
      const i = await w.as.owner.issues.create({ repoId: r, title: `to ${key} from ${from}`, status: from });
      const moved = await w.as.writer.issues.updateStatus({ repoId: r, number: i.number, status: key });
      const closed = category === "completed" || category === "canceled";
      expect(moved).toMatchObject({ status: key, state: closed ? "closed" : "open" });
      expect(moved.closedAt === null).toBe(!closed);
      if (key !== from) {
        const acts = await w.as.owner.issues.getActivity({ repoId: r, number: i.number, limit: 5 });
        expect(acts.find((a) => a.field === "status" && a.action === "status_changed")).toMatchObject({ oldValue: from, newValue: key });
        const flipped = (from === "done") !== closed;
        expect(acts.some((a) => a.field === "state" && a.newValue === (closed ? "closed" : "open") && a.createdAt >= i.createdAt)).toBe(
          flipped,
        );
      }
    }
  });

  it("refuses unknown statuses and read-only callers", async () => {
    const i = await w.as.owner.issues.create({ repoId: r, title: "s" });
    expect(await codeOf(w.as.writer.issues.updateStatus({ repoId: r, number: i.number, status: "wontfix" }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.reader.issues.updateStatus({ repoId: r, number: i.number, status: "todo" }))).toBe("FORBIDDEN");
  });
});

describe("board", () => {
  it("groups every status, ordered by board position; move reorders and changes status", async () => {
    const b = await issueWorld();
    const c = b.as.owner;
    const project = await c.projects.create({ repoId: b.repoId, name: "Board" });
    const t1 = await c.issues.create({ repoId: b.repoId, title: "t1", status: "todo", project: "Board" });
    const t2 = await c.issues.create({ repoId: b.repoId, title: "t2", status: "todo", project: "Board" });
    const t3 = await c.issues.create({ repoId: b.repoId, title: "t3", status: "todo" });
    const p1 = await c.issues.create({ repoId: b.repoId, title: "p1", status: "in_progress" });
    const grouped = await b.as.reader.issues.listGroupedByStatus({ repoId: b.repoId });
    expect(Object.keys(grouped)).toEqual(DEFAULT_STATUSES.map((s) => s.key));
    expect(grouped.backlog).toEqual([]);
    const nums = (xs: { number: number }[]) => xs.map((x) => x.number);
    expect(nums(grouped.todo)).toEqual([t1.number, t2.number, t3.number]);
    expect(grouped.todo[0]).toMatchObject({ title: "t1", author: { id: b.owner.id }, labels: [] });

    await c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo", beforeNumber: t1.number });
    expect(nums((await c.issues.listGroupedByStatus({ repoId: b.repoId })).todo)).toEqual([t3.number, t1.number, t2.number]);
    await c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo", afterNumber: t1.number });
    expect(nums((await c.issues.listGroupedByStatus({ repoId: b.repoId })).todo)).toEqual([t1.number, t3.number, t2.number]);
    const before = (await c.issues.getActivity({ repoId: b.repoId, number: t3.number })).length;
    expect((await c.issues.getActivity({ repoId: b.repoId, number: t3.number })).length).toBe(before); // reorder: no activity

    const moved = await c.issues.move({ repoId: b.repoId, number: t2.number, status: "in_progress", beforeNumber: p1.number });
    expect(moved).toMatchObject({ status: "in_progress", state: "open" });
    expect((await c.issues.getActivity({ repoId: b.repoId, number: t2.number, limit: 1 }))[0]).toMatchObject({
      action: "status_changed",
      oldValue: "todo",
      newValue: "in_progress",
    });
    const g2 = await c.issues.listGroupedByStatus({ repoId: b.repoId });
    expect(nums(g2.in_progress)).toEqual([t2.number, p1.number]);
    expect(nums(g2.todo)).toEqual([t1.number, t3.number]);

    const done = await c.issues.move({ repoId: b.repoId, number: t1.number, status: "done" });
    expect(done).toMatchObject({ state: "closed", status: "done" });
    expect(nums((await c.issues.listGroupedByStatus({ repoId: b.repoId })).done)).toEqual([t1.number]);
    await c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo" }); // to the end of its own column: no-op order

    // many moves into the same gap force a renumbering and keep the order right
    const q = [
      await c.issues.create({ repoId: b.repoId, title: "q0", status: "in_review" }),
      await c.issues.create({ repoId: b.repoId, title: "q1", status: "in_review" }),
    ];
    const movers = [] as number[];
    for (let i = 0; i < 60; i++) {
      const m = await c.issues.create({ repoId: b.repoId, title: `m${i}`, status: "backlog" });
      await c.issues.move({ repoId: b.repoId, number: m.number, status: "in_review", afterNumber: q[0].number });
      movers.push(m.number);
    }
    const col = nums((await c.issues.listGroupedByStatus({ repoId: b.repoId })).in_review);
    expect(col).toEqual([q[0].number, ...movers.reverse(), q[1].number]);

    expect(await codeOf(c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo", beforeNumber: p1.number }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo", beforeNumber: t3.number }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(c.issues.move({ repoId: b.repoId, number: t3.number, status: "todo", beforeNumber: 1, afterNumber: 2 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(b.as.reader.issues.move({ repoId: b.repoId, number: t3.number, status: "todo" }))).toBe("FORBIDDEN");

    const byProject = await c.issues.listGroupedByStatus({ repoId: b.repoId, projectId: project.id });
    expect(
      Object.values(byProject)
        .flat()
        .map((i) => i.title)
        .sort(),
    ).toEqual(["t1", "t2"]);
    expect(await codeOf(c.issues.listGroupedByStatus({ repoId: b.repoId, cycleId: "00000000-0000-4000-8000-000000000000" }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("triage", () => {
  it("lists, accepts (default backlog, optional priority) and rejects with a reason", async () => {
    const a = await w.as.reader.issues.create({ repoId: r, title: "triage a" });
    const b = await w.as.reader.issues.create({ repoId: r, title: "triage b" });
    const c = await w.as.reader.issues.create({ repoId: r, title: "triage c" });
    const queue = await w.as.reader.issues.listTriage({ repoId: r });
    expect(queue.map((i) => i.number)).toEqual(expect.arrayContaining([a.number, b.number, c.number]));
    expect(queue.every((i) => i.status === "triage" && i.state === "open")).toBe(true);

    const accepted = await w.as.writer.issues.acceptTriage({ repoId: r, number: a.number });
    expect(accepted).toMatchObject({ status: "backlog", state: "open" });
    expect(await last(a.number)).toMatchObject({ action: "status_changed", oldValue: "triage", newValue: "backlog" });
    const acceptedB = await w.as.writer.issues.acceptTriage({ repoId: r, number: b.number, targetStatus: "todo", priority: "high" });
    expect(acceptedB).toMatchObject({ status: "todo", priority: "high" });
    const bActs = await w.as.owner.issues.getActivity({ repoId: r, number: b.number, limit: 2 });
    expect(bActs.map((x) => x.action).sort()).toEqual(["priority_changed", "status_changed"]);
    expect(await codeOf(w.as.writer.issues.acceptTriage({ repoId: r, number: a.number }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf(w.as.reader.issues.acceptTriage({ repoId: r, number: c.number }))).toBe("FORBIDDEN");

    expect(await codeOf(w.as.writer.issues.rejectTriage({ repoId: r, number: c.number, reason: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.rejectTriage({ repoId: r, number: c.number, reason: "   " }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.rejectTriage({ repoId: r, number: c.number } as never))).toBe("BAD_REQUEST");
    const rejected = await w.as.writer.issues.rejectTriage({ repoId: r, number: c.number, reason: "not reproducible" });
    expect(rejected).toMatchObject({ state: "closed", status: "canceled" });
    const comments = await w.as.reader.issues.comments({ repoId: r, number: c.number });
    expect(comments.at(-1)?.body).toBe("Rejected in triage: not reproducible");
    const cActs = await w.as.owner.issues.getActivity({ repoId: r, number: c.number, limit: 3 });
    expect(cActs.map((x) => x.action)).toEqual(["status_changed", "status_changed", "commented"]);
    expect((await w.as.reader.issues.listTriage({ repoId: r })).map((i) => i.number)).not.toContain(c.number);
    expect(await codeOf(w.as.writer.issues.rejectTriage({ repoId: r, number: a.number, reason: "late" }))).toBe("PRECONDITION_FAILED");
  });
});

describe("board positions under concurrency", () => {
  it("concurrent creates in one column get distinct positions in number order", async () => {
    const b = await issueWorld();
    await Promise.all(Array.from({ length: 30 }, (_, i) => b.as.owner.issues.create({ repoId: b.repoId, title: `c${i}`, status: "todo" })));
    const col = (await b.as.owner.issues.listGroupedByStatus({ repoId: b.repoId })).todo.map((i) => i.number);
    expect(col).toEqual([...col].sort((x, y) => x - y));
    expect(col).toHaveLength(30);
  });
});
