/**
 * Issue tracker, part 1: create, numbering, list filters, get, update and the field setters,
 * state/status coupling, due dates, estimates; permissions. Through the real router (callerFor).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, utcToday } from "@/lib/issues/model";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
beforeAll(async () => {
  w = await issueWorld();
});

async function lastActivity(number: number, repoId = w.repoId) {
  return (await w.as.owner.issues.getActivity({ repoId, number, limit: 5 }))[0];
}

describe("issues.create", () => {
  it("creates with the spec's fields, numbered per repository, in backlog for writers", async () => {
    const label = await w.as.owner.issues.createLabel({ repoId: w.repoId, name: "bug", color: "#ff0000" });
    const issue = await w.as.writer.issues.create({
      repoId: w.repoId,
      title: "  First  ",
      body: "details",
      labels: ["BUG"],
      priority: "high",
      dueDate: "2030-01-31",
      estimate: 3,
      assigneeId: w.reader.id,
    });
    expect(issue).toMatchObject({
      title: "First",
      body: "details",
      state: "open",
      status: "backlog",
      priority: "high",
      dueDate: "2030-01-31",
      estimate: 3,
      parentNumber: null,
      projectId: null,
      cycleId: null,
      authorId: w.writer.id,
      author: { id: w.writer.id, username: w.writer.username },
      assigneeId: w.reader.id,
      labels: [{ id: label.id, name: "bug", color: "#ff0000", description: null }],
      subIssueCount: 0,
      subIssueProgress: 0,
      closedAt: null,
    });
    expect(issue.number).toBeGreaterThanOrEqual(1);
    expect(issue.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const next = await w.as.owner.issues.create({ repoId: w.repoId, title: "Second" });
    expect(next.number).toBe(issue.number + 1);
    expect(next.priority).toBe("none");
    expect(await lastActivity(issue.number)).toMatchObject({
      action: "created",
      issueNumber: issue.number,
      actor: { id: w.writer.id },
      newValue: "backlog",
    });
  });

  it("puts issues by read-only callers in triage and refuses them status/assignee", async () => {
    const issue = await w.as.reader.issues.create({ repoId: w.repoId, title: "From a reader" });
    expect(issue.status).toBe("triage");
    expect(await codeOf(w.as.reader.issues.create({ repoId: w.repoId, title: "x", status: "todo" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.create({ repoId: w.repoId, title: "x", assigneeId: w.reader.id }))).toBe("FORBIDDEN");
    const pub = await issueWorld({ isPrivate: false });
    const byStranger = await pub.as.stranger.issues.create({ repoId: pub.repoId, title: "drive-by report" });
    expect(byStranger.status).toBe("triage");
    expect(await codeOf(pub.as.anon.issues.create({ repoId: pub.repoId, title: "anon" }))).toBe("UNAUTHORIZED");
  });

  it("honours an explicit status from writers, closing for done", async () => {
    const done = await w.as.owner.issues.create({ repoId: w.repoId, title: "Already done", status: "done" });
    expect(done).toMatchObject({ status: "done", state: "closed" });
    expect(done.closedAt).not.toBeNull();
  });

  it("refuses unknown project, cycle, parent, template, labels and unreadable assignees", async () => {
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", project: "nope" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", cycle: 99 }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", parentNumber: 9999 }))).toBe("NOT_FOUND");
    expect(
      await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", templateId: "00000000-0000-4000-8000-000000000000" })),
    ).toBe("NOT_FOUND");
    expect(await messageOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", labels: ["missing"] }))).toMatch(
      /unknown label: missing/,
    );
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", assigneeId: w.stranger.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", dueDate: "2030-02-30" }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", estimate: -1 }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.owner.issues.create({ repoId: w.repoId, title: "x", priority: "critical" as never }))).toBe("BAD_REQUEST");
  });

  it("puts a project and cycle on the issue", async () => {
    const project = await w.as.owner.projects.create({ repoId: w.repoId, name: "Launch" });
    const cycle = await w.as.owner.cycles.create({ repoId: w.repoId, startsAt: "2030-01-01", endsAt: "2030-01-14" });
    const issue = await w.as.owner.issues.create({ repoId: w.repoId, title: "planned", project: "launch", cycle: cycle.number });
    expect(issue).toMatchObject({ projectId: project.id, cycleId: cycle.id });
  });

  it("gives 200 concurrent creates 200 distinct consecutive numbers", async () => {
    const fresh = await issueWorld();
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) => fresh.as.owner.issues.create({ repoId: fresh.repoId, title: `concurrent ${i}` })),
    );
    const numbers = created.map((c) => c.number).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(200);
    expect(numbers[0]).toBe(1);
    expect(numbers[199]).toBe(200);
    const activity = await fresh.as.owner.issues.getRepoActivity({ repoId: fresh.repoId, limit: 200 });
    expect(activity.filter((a) => a.action === "created")).toHaveLength(200);
  }, 120_000);
});

describe("issues.get / list", () => {
  it("gets by number with relations; NOT_FOUND for unknown numbers", async () => {
    const a = await w.as.owner.issues.create({ repoId: w.repoId, title: "get me" });
    const got = await w.as.reader.issues.get({ repoId: w.repoId, number: a.number });
    expect(got).toMatchObject({
      id: a.id,
      number: a.number,
      relations: { blocking: [], blockedBy: [], related: [], duplicates: [], duplicatedBy: [] },
    });
    expect(await codeOf(w.as.owner.issues.get({ repoId: w.repoId, number: 99999 }))).toBe("NOT_FOUND");
  });

  it("filters by state, status, priority, assignee, project, cycle, overdue and dueSoon; pages", async () => {
    const r = await issueWorld();
    const c = r.as.owner;
    const project = await c.projects.create({ repoId: r.repoId, name: "P" });
    const cycle = await c.cycles.create({
      repoId: r.repoId,
      number: 4,
      name: "C4",
      startsAt: "2030-01-01T00:00:00Z",
      endsAt: "2030-01-15T00:00:00Z",
    });
    const today = utcToday();
    const i1 = await c.issues.create({
      repoId: r.repoId,
      title: "overdue",
      dueDate: addDays(today, -1),
      priority: "urgent",
      assigneeId: r.writer.id,
    });
    const i2 = await c.issues.create({ repoId: r.repoId, title: "due today", dueDate: today, project: "P" });
    const i3 = await c.issues.create({ repoId: r.repoId, title: "due in 7", dueDate: addDays(today, 7), cycle: 4 });
    const i4 = await c.issues.create({ repoId: r.repoId, title: "due in 8", dueDate: addDays(today, 8), status: "in_progress" });
    const i5 = await c.issues.create({ repoId: r.repoId, title: "closed overdue", dueDate: addDays(today, -3) });
    await c.issues.close({ repoId: r.repoId, number: i5.number });
    const nums = (xs: { number: number }[]) => xs.map((x) => x.number).sort((a, b) => a - b);
    expect(nums(await c.issues.list({ repoId: r.repoId }))).toEqual([i1, i2, i3, i4, i5].map((i) => i.number));
    expect((await c.issues.list({ repoId: r.repoId }))[0].number).toBe(i5.number); // newest first
    expect(nums(await c.issues.list({ repoId: r.repoId, state: "closed" }))).toEqual([i5.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, status: "in_progress" }))).toEqual([i4.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, priority: "urgent" }))).toEqual([i1.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, assignee: r.writer.id }))).toEqual([i1.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, project: "p" }))).toEqual([i2.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, project: "nope" }))).toEqual([]);
    expect(nums(await c.issues.list({ repoId: r.repoId, cycle: 4 }))).toEqual([i3.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, overdue: true }))).toEqual([i1.number]);
    expect(nums(await c.issues.list({ repoId: r.repoId, dueSoon: true }))).toEqual([i2.number, i3.number]);
    expect(nums(await c.issues.listOverdue({ repoId: r.repoId }))).toEqual([i1.number]);
    expect(nums(await c.issues.listDueSoon({ repoId: r.repoId }))).toEqual([i2.number, i3.number]);
    expect(nums(await c.issues.listDueSoon({ repoId: r.repoId, days: 8 }))).toEqual([i2.number, i3.number, i4.number]);
    expect(nums(await c.issues.listDueSoon({ repoId: r.repoId, days: 0 }))).toEqual([i2.number]);
    expect(await c.issues.list({ repoId: r.repoId, limit: 2 })).toHaveLength(2);
    expect(nums(await c.issues.list({ repoId: r.repoId, limit: 2, offset: 4 }))).toEqual([i1.number]);
    expect(await codeOf(c.issues.list({ repoId: r.repoId, limit: 101 }))).toBe("BAD_REQUEST");
    expect(await codeOf(c.issues.list({ repoId: r.repoId, assignee: "not-a-uuid" }))).toBe("BAD_REQUEST");
    expect(project.name).toBe("P");
    expect(cycle).toMatchObject({ number: 4, name: "C4", startsAt: "2030-01-01T00:00:00.000Z" });
  });
});

describe("update and setters", () => {
  it("updates fields by issueId with one activity entry per change", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "to edit" });
    const u = await w.as.writer.issues.update({
      issueId: i.id,
      title: "edited",
      body: "b",
      priority: "low",
      dueDate: "2031-05-06",
      estimate: 5,
      assigneeId: w.writer.id,
    });
    expect(u).toMatchObject({
      title: "edited",
      body: "b",
      priority: "low",
      dueDate: "2031-05-06",
      estimate: 5,
      assigneeId: w.writer.id,
      assignee: { username: w.writer.username },
    });
    const acts = await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i.number });
    const by = (action: string) => acts.find((a) => a.action === action);
    expect(by("edited")).toBeDefined();
    expect(by("priority_changed")).toMatchObject({ field: "priority", oldValue: "none", newValue: "low" });
    expect(by("due_date_set")).toMatchObject({ field: "dueDate", oldValue: null, newValue: "2031-05-06" });
    expect(by("estimate_set")).toMatchObject({ field: "estimate", newValue: "5" });
    expect(by("assigned")).toMatchObject({ field: "assignee", newValue: w.writer.id });
    const again = await w.as.writer.issues.update({ issueId: i.id, assigneeId: w.reader.id, dueDate: null, estimate: null });
    expect(again).toMatchObject({ assigneeId: w.reader.id, dueDate: null, estimate: null });
    const acts2 = await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i.number, limit: 4 });
    expect(acts2.map((a) => a.action).sort()).toEqual(["assigned", "due_date_cleared", "estimate_set", "unassigned"]);
    const un = await w.as.writer.issues.update({ issueId: i.id, assigneeId: null });
    expect(un.assigneeId).toBeNull();
    expect(await lastActivity(i.number)).toMatchObject({ action: "unassigned", oldValue: w.reader.id });
    const count = (await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i.number, limit: 200 })).length;
    await w.as.writer.issues.update({ issueId: i.id, title: "edited" });
    expect((await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i.number, limit: 200 })).length).toBe(count);
    expect(await codeOf(w.as.writer.issues.update({ issueId: i.id, assigneeId: w.stranger.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.update({ issueId: "00000000-0000-4000-8000-000000000000", title: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.update({ issueId: "nope", title: "x" }))).toBe("BAD_REQUEST");
  });

  it("update with status couples the state", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "status via update" });
    expect(await w.as.owner.issues.update({ issueId: i.id, status: "canceled" })).toMatchObject({ state: "closed", status: "canceled" });
    expect(await w.as.owner.issues.update({ issueId: i.id, status: "in_review" })).toMatchObject({
      state: "open",
      status: "in_review",
      closedAt: null,
    });
    expect(await lastActivity(i.number)).toMatchObject({ action: "status_changed", field: "state", oldValue: "closed", newValue: "open" });
  });

  it("close → closed + done; reopen → open + the status before closing; both idempotent", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "close me", status: "in_progress" });
    const closed = await w.as.writer.issues.close({ repoId: w.repoId, number: i.number });
    expect(closed).toMatchObject({ state: "closed", status: "done" });
    expect(closed.closedAt).not.toBeNull();
    const acts = await w.as.owner.issues.getActivity({ repoId: w.repoId, number: i.number, limit: 2 });
    expect(acts.map((a) => [a.field, a.oldValue, a.newValue])).toEqual([
      ["state", "open", "closed"],
      ["status", "in_progress", "done"],
    ]);
    expect(await w.as.writer.issues.close({ repoId: w.repoId, number: i.number })).toMatchObject({ state: "closed", status: "done" });
    const reopened = await w.as.writer.issues.reopen({ repoId: w.repoId, number: i.number });
    expect(reopened).toMatchObject({ state: "open", status: "in_progress", closedAt: null });
    expect(await lastActivity(i.number)).toMatchObject({ action: "status_changed", field: "state", newValue: "open" });
    expect(await w.as.writer.issues.reopen({ repoId: w.repoId, number: i.number })).toMatchObject({ state: "open", status: "in_progress" });
  });

  it("priority, due date and estimate setters write their activity", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "setters" });
    const n = { repoId: w.repoId, number: i.number };
    expect((await w.as.writer.issues.updatePriority({ ...n, priority: "urgent" })).priority).toBe("urgent");
    expect(await lastActivity(i.number)).toMatchObject({ action: "priority_changed", oldValue: "none", newValue: "urgent" });
    expect((await w.as.writer.issues.setDueDate({ ...n, dueDate: "2031-01-02T23:30:00-05:00" })).dueDate).toBe("2031-01-03");
    expect(await lastActivity(i.number)).toMatchObject({ action: "due_date_set", newValue: "2031-01-03" });
    expect((await w.as.writer.issues.clearDueDate(n)).dueDate).toBeNull();
    expect(await lastActivity(i.number)).toMatchObject({ action: "due_date_cleared", oldValue: "2031-01-03", newValue: null });
    expect((await w.as.writer.issues.setEstimate({ ...n, estimate: 2.5 })).estimate).toBe(2.5);
    expect(await lastActivity(i.number)).toMatchObject({ action: "estimate_set", newValue: "2.5" });
    expect((await w.as.writer.issues.clearEstimate(n)).estimate).toBeNull();
    expect(await lastActivity(i.number)).toMatchObject({ action: "estimate_set", oldValue: "2.5", newValue: null });
    expect(await codeOf(w.as.writer.issues.setDueDate({ ...n, dueDate: "tomorrow" }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.setEstimate({ ...n, estimate: Number.NaN }))).toBe("BAD_REQUEST");
  });

  it("getTotalEstimate sums all states, per project and cycle", async () => {
    const r = await issueWorld();
    const c = r.as.owner;
    const project = await c.projects.create({ repoId: r.repoId, name: "Est" });
    const cycle = await c.cycles.create({ repoId: r.repoId, startsAt: "2030-02-01", endsAt: "2030-02-14" });
    await c.issues.create({ repoId: r.repoId, title: "a", estimate: 3, project: "Est" });
    const b = await c.issues.create({ repoId: r.repoId, title: "b", estimate: 5, project: "Est", cycle: cycle.number });
    await c.issues.create({ repoId: r.repoId, title: "c", estimate: 8 });
    await c.issues.create({ repoId: r.repoId, title: "d", project: "Est" });
    await c.issues.close({ repoId: r.repoId, number: b.number });
    expect(await c.issues.getTotalEstimate({ repoId: r.repoId })).toBe(16);
    expect(await r.as.reader.issues.getTotalEstimate({ repoId: r.repoId, projectId: project.id })).toBe(8);
    expect(await c.issues.getTotalEstimate({ repoId: r.repoId, cycleId: cycle.id })).toBe(5);
    expect(await c.issues.getTotalEstimate({ repoId: r.repoId, projectId: project.id, cycleId: cycle.id })).toBe(5);
    expect(await codeOf(c.issues.getTotalEstimate({ repoId: r.repoId, projectId: "00000000-0000-4000-8000-000000000000" }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("permissions", () => {
  it("refuses write operations to read-only collaborators (FORBIDDEN) and hides private repos (NOT_FOUND)", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "guarded" });
    const n = { repoId: w.repoId, number: i.number };
    expect(await codeOf(w.as.reader.issues.close(n))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.update({ issueId: i.id, title: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.updatePriority({ ...n, priority: "high" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.createLabel({ repoId: w.repoId, name: "r", color: "#000000" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.projects.create({ repoId: w.repoId, name: "r" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.cycles.create({ repoId: w.repoId, startsAt: "2030-01-01", endsAt: "2030-01-02" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.get(n))).toBe("OK");
    expect(await codeOf(w.as.stranger.issues.get(n))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.stranger.issues.list({ repoId: w.repoId }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.stranger.issues.update({ issueId: i.id, title: "x" }))).toBe("NOT_FOUND");
    expect(await messageOf(w.as.stranger.issues.update({ issueId: i.id, title: "x" }))).toBe("issue not found");
    expect(await codeOf(w.as.anon.issues.get(n))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.anon.issues.update({ issueId: i.id, title: "x" }))).toBe("NOT_FOUND");
  });

  it("lets anyone read a public repository's issues but only members write", async () => {
    const pub = await issueWorld({ isPrivate: false });
    const i = await pub.as.owner.issues.create({ repoId: pub.repoId, title: "public" });
    expect((await pub.as.anon.issues.get({ repoId: pub.repoId, number: i.number })).title).toBe("public");
    expect(await codeOf(pub.as.anon.issues.close({ repoId: pub.repoId, number: i.number }))).toBe("UNAUTHORIZED");
    expect(await codeOf(pub.as.stranger.issues.close({ repoId: pub.repoId, number: i.number }))).toBe("FORBIDDEN");
    expect(await codeOf(pub.as.stranger.issues.update({ issueId: i.id, title: "x" }))).toBe("FORBIDDEN");
  });
});
