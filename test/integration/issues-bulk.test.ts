/**
 * issues.bulkUpdate (docs/issues.md "Bulk edit"): one change to many issues in one transaction,
 * each issue with its own activity, all or nothing; write permission; private repositories NOT_FOUND.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
let r: string;
const NO_ID = "00000000-0000-4000-8000-000000000000";
beforeAll(async () => {
  w = await issueWorld();
  r = w.repoId;
});

const activity = (number: number) => w.as.owner.issues.getActivity({ repoId: r, number, limit: 50 });
const create = async (n: number) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await w.as.owner.issues.create({ repoId: r, title: `bulk ${i}` }));
  return out.map((i) => i.number);
};

describe("issues.bulkUpdate", () => {
  it("changes every issue in one call, with one activity entry per issue and field", async () => {
    const numbers = await create(3);
    const bug = await w.as.owner.issues.createLabel({ repoId: r, name: "bulk-bug", color: "#d73a4a" });
    const project = await w.as.owner.projects.create({ repoId: r, name: "Bulk" });
    const cycle = await w.as.owner.cycles.create({ repoId: r, startsAt: "2030-01-01", endsAt: "2030-01-15" });
    const before = await Promise.all(numbers.map(activity));

    const out = await w.as.writer.issues.bulkUpdate({
      repoId: r,
      numbers: [numbers[2], numbers[0], numbers[1], numbers[0]],
      patch: { priority: "high", addLabels: [bug.id], projectId: project.id, cycleId: cycle.id, assigneeId: w.writer.id },
    });
    expect(out.map((i) => i.number)).toEqual(numbers);
    for (const i of out) {
      expect(i).toMatchObject({ priority: "high", projectId: project.id, cycleId: cycle.id, assigneeId: w.writer.id });
      expect(i.labels.map((l) => l.name)).toEqual(["bulk-bug"]);
    }
    for (const [k, n] of numbers.entries()) {
      const fresh = (await activity(n)).slice(0, (await activity(n)).length - before[k].length);
      expect(fresh.map((a) => a.action).sort()).toEqual(["assigned", "cycle_set", "labeled", "priority_changed", "project_set"]);
      expect(fresh.every((a) => a.actor?.username === w.writer.username)).toBe(true);
    }

    // close, then reopen, then remove the label and clear project and cycle
    const closed = await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { state: "closed" } });
    expect(closed.map((i) => [i.state, i.status])).toEqual(numbers.map(() => ["closed", "done"]));
    const reopened = await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { state: "open" } });
    expect(reopened.every((i) => i.state === "open")).toBe(true);
    const cleared = await w.as.writer.issues.bulkUpdate({
      repoId: r,
      numbers,
      patch: { removeLabels: [bug.id], projectId: null, cycleId: null, status: "in_progress", estimate: 3, dueDate: "2030-02-01" },
    });
    for (const i of cleared)
      expect(i).toMatchObject({ labels: [], projectId: null, cycleId: null, status: "in_progress", estimate: 3, dueDate: "2030-02-01" });
    // unchanged fields write nothing: the same patch again adds no activity
    const counts = await Promise.all(numbers.map(async (n) => (await activity(n)).length));
    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { status: "in_progress", estimate: 3 } });
    expect(await Promise.all(numbers.map(async (n) => (await activity(n)).length))).toEqual(counts);
  });

  it("records one project or cycle entry per issue that moved, none for an issue already there", async () => {
    const numbers = await create(3);
    const launch = await w.as.owner.projects.create({ repoId: r, name: "Launch" });
    const later = await w.as.owner.projects.create({ repoId: r, name: "Later" });
    const cycle = await w.as.owner.cycles.create({ repoId: r, name: "Polish", startsAt: "2031-01-01", endsAt: "2031-01-15" });
    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [numbers[0]], patch: { projectId: launch.id } });
    const before = await Promise.all(numbers.map(async (n) => (await activity(n)).length));

    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { projectId: launch.id } });
    const fresh = await Promise.all(numbers.map(async (n, k) => (await activity(n)).slice(0, -before[k] || undefined)));
    expect(fresh[0]).toEqual([]); // already in Launch
    for (const list of fresh.slice(1)) {
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ action: "project_set", field: "project", oldValue: null, newValue: "Launch" });
      expect(list[0].actor?.username).toBe(w.writer.username);
    }

    // a move names both projects; a removal the old one; one entry per issue each time
    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { projectId: later.id, cycleId: cycle.id } });
    for (const n of numbers) {
      const [a, b] = await activity(n);
      expect([a, b].map((e) => [e.action, e.oldValue, e.newValue]).sort()).toEqual([
        ["cycle_set", null, `Cycle ${cycle.number} · Polish`],
        ["project_set", "Launch", "Later"],
      ]);
    }
    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { projectId: null } });
    for (const n of numbers) expect((await activity(n))[0]).toMatchObject({ action: "project_set", oldValue: "Later", newValue: null });
    const counts = await Promise.all(numbers.map(async (n) => (await activity(n)).length));
    await w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { projectId: null, cycleId: cycle.id } });
    expect(await Promise.all(numbers.map(async (n) => (await activity(n)).length))).toEqual(counts);
  });

  it("records the sidebar's and the plan pages' moves (projects/cycles.addIssue, removeIssue)", async () => {
    const [n] = await create(1);
    const project = await w.as.owner.projects.create({ repoId: r, name: "Sidebar" });
    const first = await w.as.owner.cycles.create({ repoId: r, startsAt: "2032-01-01", endsAt: "2032-01-15" });
    const second = await w.as.owner.cycles.create({ repoId: r, startsAt: "2032-01-16", endsAt: "2032-01-31" });
    const count = async () => (await activity(n)).length;
    const start = await count();

    await w.as.writer.projects.addIssue({ repoId: r, projectId: project.id, number: n });
    expect((await activity(n))[0]).toMatchObject({ action: "project_set", oldValue: null, newValue: "Sidebar" });
    await w.as.writer.projects.addIssue({ repoId: r, projectId: project.id, number: n }); // already there
    await w.as.writer.cycles.removeIssue({ repoId: r, cycleId: first.id, number: n }); // not in it
    expect(await count()).toBe(start + 1);

    await w.as.writer.cycles.addIssue({ repoId: r, cycleId: first.id, number: n });
    await w.as.writer.cycles.addIssue({ repoId: r, cycleId: second.id, number: n });
    expect((await activity(n))[0]).toMatchObject({
      action: "cycle_set",
      field: "cycle",
      oldValue: `Cycle ${first.number}`,
      newValue: `Cycle ${second.number}`,
    });
    await w.as.writer.cycles.removeIssue({ repoId: r, cycleId: first.id, number: n }); // in another one
    await w.as.writer.cycles.removeIssue({ repoId: r, cycleId: second.id, number: n });
    await w.as.writer.projects.removeIssue({ repoId: r, projectId: project.id, number: n });
    const log = await activity(n);
    expect(log.length).toBe(start + 5);
    expect(log.slice(0, 2).map((a) => [a.action, a.oldValue, a.newValue])).toEqual([
      ["project_set", "Sidebar", null],
      ["cycle_set", `Cycle ${second.number}`, null],
    ]);
    expect(await w.as.owner.issues.get({ repoId: r, number: n })).toMatchObject({ projectId: null, cycleId: null });
  });

  it("writes nothing when one issue of the batch is refused", async () => {
    const numbers = await create(2);
    const before = await Promise.all(numbers.map(activity));
    const missing = 999_999;
    const call = w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [...numbers, missing], patch: { priority: "urgent" } });
    expect(await messageOf(call)).toBe(`issue #${missing} not found`);
    // a label cap hit on the second issue rolls back the first
    const labels = [];
    for (let i = 0; i < 50; i++) labels.push(await w.as.owner.issues.createLabel({ repoId: r, name: `cap-${i}`, color: "#123456" }));
    for (const l of labels) await w.as.owner.issues.addLabel({ repoId: r, number: numbers[1], labelId: l.id });
    const extra = await w.as.owner.issues.createLabel({ repoId: r, name: "cap-extra", color: "#123456" });
    const beforeCap = await Promise.all(numbers.map(activity));
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers, patch: { priority: "urgent", addLabels: [extra.id] } }))).toBe(
      "BAD_REQUEST",
    );
    const after = await w.as.owner.issues.list({ repoId: r, numbers });
    expect(after.map((i) => i.priority)).toEqual(["none", "none"]);
    expect(await Promise.all(numbers.map(activity))).toEqual(beforeCap);
    expect(before[0]).toEqual(beforeCap[0]);
  });

  it("refuses unknown labels, projects and cycles, and bad input", async () => {
    const [n] = await create(1);
    const elsewhere = await issueWorld();
    const foreign = await elsewhere.as.owner.projects.create({ repoId: elsewhere.repoId, name: "Foreign" });
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [n], patch: { addLabels: [NO_ID] } }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [n], patch: { projectId: foreign.id } }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [n], patch: { cycleId: NO_ID } }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [n], patch: {} }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [], patch: { priority: "low" } }))).toBe("BAD_REQUEST");
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: many, patch: { priority: "low" } }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.bulkUpdate({ repoId: r, numbers: [n], patch: { status: "todo", state: "closed" } }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("needs write permission; a private repository is not found for strangers", async () => {
    const [n] = await create(1);
    const patch = { priority: "low" as const };
    expect(await codeOf(w.as.reader.issues.bulkUpdate({ repoId: r, numbers: [n], patch }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.issues.bulkUpdate({ repoId: r, numbers: [n], patch }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.anon.issues.bulkUpdate({ repoId: r, numbers: [n], patch }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.owner.issues.bulkUpdate({ repoId: r, numbers: [n], patch }))).toBe("OK");
  });
});
