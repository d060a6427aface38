/**
 * Issue tracker, part 4: labels, comments, templates, views (getIssuesByView in SQL), projects,
 * cycles and the activity log, through the real router, with the id-located procedures'
 * NOT_FOUND / FORBIDDEN answers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, utcToday } from "@/lib/issues/model";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
let r: string;
const NO_ID = "00000000-0000-4000-8000-000000000000";
beforeAll(async () => {
  w = await issueWorld();
  r = w.repoId;
});
const last = async (number: number) => (await w.as.owner.issues.getActivity({ repoId: r, number, limit: 1 }))[0];

describe("labels", () => {
  it("creates, lists, updates, labels issues and deletes with activity", async () => {
    const label = await w.as.writer.issues.createLabel({ repoId: r, name: "Feature", color: "#00FF00", description: "new things" });
    expect(label).toMatchObject({ name: "Feature", color: "#00ff00", description: "new things" });
    expect(await codeOf(w.as.writer.issues.createLabel({ repoId: r, name: "feature", color: "#000000" }))).toBe("CONFLICT");
    expect(await codeOf(w.as.writer.issues.createLabel({ repoId: r, name: "x", color: "green" }))).toBe("BAD_REQUEST");
    const other = await w.as.writer.issues.createLabel({ repoId: r, name: "docs", color: "#0000ff" });
    expect((await w.as.reader.issues.listLabels({ repoId: r })).map((l) => l.name)).toEqual(["docs", "Feature"]);
    const updated = await w.as.writer.issues.updateLabel({ labelId: label.id, name: "feat", color: "#111111", description: null });
    expect(updated).toMatchObject({ id: label.id, name: "feat", color: "#111111", description: null });
    expect(await codeOf(w.as.writer.issues.updateLabel({ labelId: label.id, name: "DOCS" }))).toBe("CONFLICT");
    expect(await codeOf(w.as.reader.issues.updateLabel({ labelId: label.id, name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.issues.updateLabel({ labelId: label.id, name: "x" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.updateLabel({ labelId: NO_ID, name: "x" }))).toBe("NOT_FOUND");

    const i = await w.as.owner.issues.create({ repoId: r, title: "labelled" });
    const withLabel = await w.as.writer.issues.addLabel({ repoId: r, number: i.number, labelId: label.id });
    expect(withLabel.labels.map((l) => l.name)).toEqual(["feat"]);
    expect(await last(i.number)).toMatchObject({ action: "labeled", field: "label", newValue: "feat" });
    await w.as.writer.issues.addLabel({ repoId: r, number: i.number, labelId: label.id }); // idempotent
    await w.as.writer.issues.addLabel({ repoId: r, number: i.number, labelId: other.id });
    const removed = await w.as.writer.issues.removeLabel({ repoId: r, number: i.number, labelId: other.id });
    expect(removed.labels.map((l) => l.name)).toEqual(["feat"]);
    expect(await last(i.number)).toMatchObject({ action: "unlabeled", oldValue: "docs" });
    expect(await codeOf(w.as.reader.issues.addLabel({ repoId: r, number: i.number, labelId: other.id }))).toBe("FORBIDDEN");

    // a label of another repository is not found here
    const elsewhere = await issueWorld();
    const foreign = await elsewhere.as.owner.issues.createLabel({ repoId: elsewhere.repoId, name: "foreign", color: "#123456" });
    expect(await codeOf(w.as.writer.issues.addLabel({ repoId: r, number: i.number, labelId: foreign.id }))).toBe("NOT_FOUND");

    expect(await w.as.writer.issues.deleteLabel({ labelId: label.id })).toEqual({ id: label.id, deleted: true });
    expect(await last(i.number)).toMatchObject({ action: "unlabeled", oldValue: "feat" });
    expect((await w.as.reader.issues.get({ repoId: r, number: i.number })).labels).toEqual([]);
    expect(await codeOf(w.as.writer.issues.deleteLabel({ labelId: label.id }))).toBe("NOT_FOUND");
  });
});

describe("comments", () => {
  it("readers comment; authors edit and delete their own; writers may change others'", async () => {
    const i = await w.as.owner.issues.create({ repoId: r, title: "discuss" });
    const c1 = await w.as.reader.issues.addComment({ repoId: r, number: i.number, body: "first!" });
    expect(c1).toMatchObject({ issueNumber: i.number, body: "first!", authorId: w.reader.id, author: { username: w.reader.username } });
    expect(await last(i.number)).toMatchObject({ action: "commented", newValue: c1.id, actor: { id: w.reader.id } });
    const c2 = await w.as.writer.issues.addComment({ repoId: r, number: i.number, body: "second" });
    expect((await w.as.reader.issues.comments({ repoId: r, number: i.number })).map((c) => c.body)).toEqual(["first!", "second"]);
    expect((await w.as.reader.issues.updateComment({ commentId: c1.id, body: "first (edited)" })).body).toBe("first (edited)");
    expect(await codeOf(w.as.reader.issues.updateComment({ commentId: c2.id, body: "hijack" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.reader.issues.deleteComment({ commentId: c2.id }))).toBe("FORBIDDEN");
    expect((await w.as.writer.issues.updateComment({ commentId: c1.id, body: "moderated" })).body).toBe("moderated");
    expect(await w.as.writer.issues.deleteComment({ commentId: c1.id })).toEqual({ id: c1.id, deleted: true });
    expect(await w.as.writer.issues.deleteComment({ commentId: c2.id })).toEqual({ id: c2.id, deleted: true });
    expect(await codeOf(w.as.writer.issues.deleteComment({ commentId: c2.id }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.stranger.issues.addComment({ repoId: r, number: i.number, body: "hi" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.addComment({ repoId: r, number: i.number, body: "  " }))).toBe("BAD_REQUEST");
    const c3 = await w.as.owner.issues.addComment({ repoId: r, number: i.number, body: "owner's" });
    expect(await codeOf(w.as.stranger.issues.deleteComment({ commentId: c3.id }))).toBe("NOT_FOUND");
    const pub = await issueWorld({ isPrivate: false });
    const pi = await pub.as.owner.issues.create({ repoId: pub.repoId, title: "p" });
    const pc = await pub.as.stranger.issues.addComment({ repoId: pub.repoId, number: pi.number, body: "drive-by" });
    expect(await codeOf(pub.as.anon.issues.addComment({ repoId: pub.repoId, number: pi.number, body: "anon" }))).toBe("UNAUTHORIZED");
    expect(await codeOf(pub.as.anon.issues.deleteComment({ commentId: pc.id }))).toBe("UNAUTHORIZED");
  });
});

describe("templates", () => {
  it("CRUD and create from a template under explicit inputs", async () => {
    await w.as.owner.issues.createLabel({ repoId: r, name: "bug", color: "#ff0000" });
    const t = await w.as.writer.issues.createTemplate({
      repoId: r,
      name: "Bug report",
      title: "[Bug] ",
      body: "Steps:",
      labels: ["bug"],
      priority: "high",
    });
    expect(t).toMatchObject({ name: "Bug report", title: "[Bug] ", body: "Steps:", labels: ["bug"], priority: "high" });
    expect(await codeOf(w.as.writer.issues.createTemplate({ repoId: r, name: "x", labels: ["nope"] }))).toBe("BAD_REQUEST");
    expect((await w.as.reader.issues.listTemplates({ repoId: r })).map((x) => x.id)).toEqual([t.id]);
    expect(await w.as.reader.issues.getTemplate({ templateId: t.id })).toEqual(t);
    const fromTemplate = await w.as.writer.issues.create({ repoId: r, templateId: t.id });
    expect(fromTemplate).toMatchObject({ title: "[Bug]", body: "Steps:", priority: "high", labels: [{ name: "bug" }] });
    const overridden = await w.as.writer.issues.create({
      repoId: r,
      templateId: t.id,
      title: "Crash on start",
      priority: "urgent",
      labels: [],
    });
    expect(overridden).toMatchObject({ title: "Crash on start", body: "Steps:", priority: "urgent", labels: [] });
    const u = await w.as.writer.issues.updateTemplate({ templateId: t.id, name: "Bug", title: null, priority: null });
    expect(u).toMatchObject({ name: "Bug", title: null, priority: null, labels: ["bug"] });
    expect(await codeOf(w.as.writer.issues.create({ repoId: r, templateId: t.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.reader.issues.updateTemplate({ templateId: t.id, name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.issues.getTemplate({ templateId: t.id }))).toBe("NOT_FOUND");
    expect(await w.as.writer.issues.deleteTemplate({ templateId: t.id })).toEqual({ id: t.id, deleted: true });
    expect(await codeOf(w.as.reader.issues.getTemplate({ templateId: t.id }))).toBe("NOT_FOUND");
  });
});

describe("views", () => {
  it("CRUD and getIssuesByView filters and sorts", async () => {
    const v = await issueWorld();
    const c = v.as.owner;
    const today = utcToday();
    await c.issues.createLabel({ repoId: v.repoId, name: "ui", color: "#aaaaaa" });
    await c.issues.createLabel({ repoId: v.repoId, name: "api", color: "#bbbbbb" });
    const a = await c.issues.create({
      repoId: v.repoId,
      title: "a",
      status: "todo",
      priority: "low",
      labels: ["ui"],
      dueDate: addDays(today, -2),
      assigneeId: v.writer.id,
      estimate: 1,
    });
    const b = await c.issues.create({
      repoId: v.repoId,
      title: "b",
      status: "in_progress",
      priority: "urgent",
      labels: ["api", "ui"],
      dueDate: addDays(today, 3),
      estimate: 5,
    });
    const d = await c.issues.create({ repoId: v.repoId, title: "d", status: "todo", priority: "medium" });
    const e = await c.issues.create({ repoId: v.repoId, title: "e", status: "done", labels: ["api"], dueDate: addDays(today, -5) });
    const run = async (filters: object, sort?: { field: string; direction: "asc" | "desc" }) => {
      const view = await v.as.writer.issues.createView({ repoId: v.repoId, name: "v", filters: filters as never, sort: sort as never });
      return (await v.as.reader.issues.getIssuesByView({ viewId: view.id })).map((i) => i.number);
    };
    expect(await run({})).toEqual([e, d, b, a].map((i) => i.number));
    expect(await run({ status: ["todo"] })).toEqual([d, a].map((i) => i.number));
    expect(await run({ priority: ["urgent", "low"] })).toEqual([b, a].map((i) => i.number));
    expect(await run({ assignee: [v.writer.id] })).toEqual([a.number]);
    expect(await run({ labels: ["UI"] })).toEqual([b, a].map((i) => i.number));
    expect(await run({ labels: ["api"], status: ["done"] })).toEqual([e.number]);
    expect(await run({ dueDate: "overdue" })).toEqual([a.number]);
    expect(await run({ dueDate: "due_soon" })).toEqual([b.number]);
    expect(await run({ dueDate: "no_date" })).toEqual([d.number]);
    expect(await run({}, { field: "priority", direction: "asc" })).toEqual([b, d, a, e].map((i) => i.number));
    expect(await run({}, { field: "dueDate", direction: "asc" })).toEqual([e, a, b, d].map((i) => i.number));
    expect(await run({}, { field: "estimate", direction: "desc" })).toEqual([b, a, e, d].map((i) => i.number));
    expect(await run({}, { field: "number", direction: "asc" })).toEqual([a, b, d, e].map((i) => i.number));

    const view = await v.as.writer.issues.createView({
      repoId: v.repoId,
      name: "Mine",
      filters: { assignee: [v.writer.id] },
      sort: { field: "createdAt", direction: "desc" },
    });
    expect(view).toMatchObject({ name: "Mine", filters: { assignee: [v.writer.id] }, sort: { field: "createdAt", direction: "desc" } });
    expect(await v.as.reader.issues.getView({ viewId: view.id })).toEqual(view);
    expect((await v.as.reader.issues.listViews({ repoId: v.repoId })).length).toBeGreaterThan(1);
    const upd = await v.as.writer.issues.updateView({ viewId: view.id, name: "Todo", filters: { status: ["todo"] }, sort: null });
    expect(upd).toMatchObject({ name: "Todo", filters: { status: ["todo"] }, sort: null });
    expect((await v.as.reader.issues.getIssuesByView({ viewId: view.id, limit: 1 })).map((i) => i.number)).toEqual([d.number]);
    expect(await codeOf(v.as.writer.issues.createView({ repoId: v.repoId, name: "bad", filters: { dueDate: "yesterday" } as never }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(v.as.writer.issues.createView({ repoId: v.repoId, name: "bad", filters: { colour: ["x"] } as never }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(
        v.as.writer.issues.createView({ repoId: v.repoId, name: "bad", filters: {}, sort: { field: "body", direction: "asc" } as never }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await messageOf(v.as.writer.issues.createView({ repoId: v.repoId, name: "bad", filters: { status: ["nope"] } as never })),
    ).toMatch(/filters\.status/);
    expect(await codeOf(v.as.reader.issues.updateView({ viewId: view.id, name: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.issues.getIssuesByView({ viewId: view.id }))).toBe("NOT_FOUND");
    expect(await messageOf(w.as.stranger.issues.getIssuesByView({ viewId: view.id }))).toBe("view not found");
    expect(await messageOf(v.as.reader.issues.getIssuesByView({ viewId: "00000000-0000-4000-8000-000000000000" }))).toBe("view not found");
    expect(await v.as.writer.issues.deleteView({ viewId: view.id })).toEqual({ id: view.id, deleted: true });
    expect(await codeOf(v.as.reader.issues.getView({ viewId: view.id }))).toBe("NOT_FOUND");
  });
});

describe("projects and cycles", () => {
  it("creates and lists; refuses duplicates and bad dates", async () => {
    const p = await issueWorld();
    const c = p.as.owner;
    await c.projects.create({ repoId: p.repoId, name: "Beta" });
    await c.projects.create({ repoId: p.repoId, name: "alpha" });
    expect(await codeOf(c.projects.create({ repoId: p.repoId, name: "BETA" }))).toBe("CONFLICT");
    expect((await p.as.reader.projects.list({ repoId: p.repoId })).map((x) => x.name)).toEqual(["alpha", "Beta"]);
    const c1 = await c.cycles.create({ repoId: p.repoId, startsAt: "2030-01-01", endsAt: "2030-01-15" });
    const c5 = await c.cycles.create({ repoId: p.repoId, number: 5, name: "Five", startsAt: "2030-02-01", endsAt: "2030-02-15" });
    const c6 = await c.cycles.create({ repoId: p.repoId, startsAt: "2030-03-01", endsAt: "2030-03-15" });
    expect([c1.number, c5.number, c6.number]).toEqual([1, 5, 6]);
    expect(await codeOf(c.cycles.create({ repoId: p.repoId, number: 5, startsAt: "2030-01-01", endsAt: "2030-01-02" }))).toBe("CONFLICT");
    expect(await codeOf(c.cycles.create({ repoId: p.repoId, startsAt: "2030-01-02", endsAt: "2030-01-01" }))).toBe("BAD_REQUEST");
    expect(await codeOf(c.cycles.create({ repoId: p.repoId, startsAt: "soon", endsAt: "2030-01-01" }))).toBe("BAD_REQUEST");
    expect((await p.as.reader.cycles.list({ repoId: p.repoId })).map((x) => x.number)).toEqual([1, 5, 6]);
    expect(await codeOf(p.as.stranger.cycles.list({ repoId: p.repoId }))).toBe("NOT_FOUND");
  });
});

describe("activity log", () => {
  it("getActivity newest first with limit; getRepoActivity across issues; every spec action recorded", async () => {
    const acts = await w.as.reader.issues.getRepoActivity({ repoId: r, limit: 200 });
    expect(acts.length).toBeGreaterThan(5);
    expect(Number(acts[0].id)).toBeGreaterThan(Number(acts[1].id));
    expect(acts[0]).toEqual({
      id: expect.any(String),
      issueNumber: expect.any(Number),
      action: expect.any(String),
      field: expect.anything(),
      oldValue: acts[0].oldValue,
      newValue: acts[0].newValue,
      actor: expect.objectContaining({ id: expect.any(String), username: expect.any(String) }),
      createdAt: expect.stringMatching(/Z$/),
    });
    const i = await w.as.owner.issues.create({ repoId: r, title: "log" });
    await w.as.owner.issues.updatePriority({ repoId: r, number: i.number, priority: "high" });
    await w.as.owner.issues.updatePriority({ repoId: r, number: i.number, priority: "low" });
    const mine = await w.as.reader.issues.getActivity({ repoId: r, number: i.number, limit: 2 });
    expect(mine.map((a) => a.newValue)).toEqual(["low", "high"]);
    expect(await codeOf(w.as.reader.issues.getActivity({ repoId: r, number: i.number, limit: 0 }))).toBe("BAD_REQUEST");
    // every action from the spec's list appears in this repository's log (written by the tests above)
    const all = new Set((await w.as.reader.issues.getRepoActivity({ repoId: r, limit: 200 })).map((a) => a.action));
    for (const action of ["created", "priority_changed", "labeled", "unlabeled", "commented"]) expect(all).toContain(action);
  });
});

describe("every spec activity action", () => {
  it("is written by its operation on one issue, with the actor", async () => {
    const x = await issueWorld();
    const c = x.as.owner;
    const repoId = x.repoId;
    const label = await c.issues.createLabel({ repoId, name: "l", color: "#010203" });
    const parent = await c.issues.create({ repoId, title: "parent" });
    const other = await c.issues.create({ repoId, title: "other" });
    const i = await c.issues.create({ repoId, title: "subject" });
    const n = { repoId, number: i.number };
    await c.issues.updateStatus({ ...n, status: "in_progress" });
    await c.issues.updatePriority({ ...n, priority: "high" });
    await c.issues.update({ issueId: i.id, assigneeId: x.writer.id });
    await c.issues.update({ issueId: i.id, assigneeId: null });
    await c.issues.addLabel({ ...n, labelId: label.id });
    await c.issues.removeLabel({ ...n, labelId: label.id });
    await c.issues.setDueDate({ ...n, dueDate: "2030-01-01" });
    await c.issues.clearDueDate(n);
    await c.issues.setEstimate({ ...n, estimate: 3 });
    await c.issues.setParent({ ...n, parentNumber: parent.number });
    await c.issues.removeParent(n);
    await c.issues.addRelation({ repoId, sourceNumber: i.number, targetNumber: other.number, type: "blocks" });
    await c.issues.removeRelation({ repoId, sourceNumber: i.number, targetNumber: other.number, type: "blocks" });
    await c.issues.addComment({ ...n, body: "hello" });
    const log = await x.as.reader.issues.getActivity({ ...n, limit: 200 });
    const spec = [
      "created",
      "status_changed",
      "priority_changed",
      "assigned",
      "unassigned",
      "labeled",
      "unlabeled",
      "due_date_set",
      "due_date_cleared",
      "estimate_set",
      "parent_set",
      "parent_removed",
      "relation_added",
      "relation_removed",
      "commented",
    ];
    expect([...new Set(log.map((a) => a.action))].sort()).toEqual([...spec].sort());
    expect(log.map((a) => a.action).reverse()).toEqual(spec);
    expect(log.every((a) => a.actor?.id === x.owner.id && a.issueNumber === i.number)).toBe(true);
    const repoLog = await x.as.reader.issues.getRepoActivity({ repoId, limit: 3 });
    expect(repoLog[0]).toEqual(log[0]);
  });

  it("concurrent duplicate label adds never fail with a server error", async () => {
    const x = await issueWorld();
    const label = await x.as.owner.issues.createLabel({ repoId: x.repoId, name: "race", color: "#010203" });
    const i = await x.as.owner.issues.create({ repoId: x.repoId, title: "race" });
    const codes = await Promise.all(
      Array.from({ length: 10 }, () => codeOf(x.as.owner.issues.addLabel({ repoId: x.repoId, number: i.number, labelId: label.id }))),
    );
    expect(codes.every((code) => code === "OK" || code === "CONFLICT")).toBe(true);
    expect((await x.as.owner.issues.get({ repoId: x.repoId, number: i.number })).labels).toHaveLength(1);
    const acts = await x.as.owner.issues.getActivity({ repoId: x.repoId, number: i.number });
    expect(acts.filter((a) => a.action === "labeled")).toHaveLength(1);
  });
});
