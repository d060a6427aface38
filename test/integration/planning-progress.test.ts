/**
 * Projects and cycles pages' data (docs/ui.md "Pages"): projects.list and cycles.list carry exact
 * issue counts {total, open, done, canceled} from one GROUP BY query, cycles.list the timing
 * (upcoming / current / past), projects.get one project. Authorization follows the repository.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "@/server/services/users/profile";
import { cycleTiming } from "@/server/services/cycles/cycles";
import { actorOf, callerFor, makeUser } from "../helpers";
import { outcome } from "../procedures";

let owner: Profile;
let stranger: Profile;
let repoId: string;
let privateRepoId: string;
let launch: { id: string };
let empty: { id: string };

const day = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  owner = await makeUser("plan");
  stranger = await makeUser("planx");
  const o = await callerFor(actorOf(owner));
  repoId = (await o.repos.create({ name: "planning" })).id;
  privateRepoId = (await o.repos.create({ name: "planning-secret", isPrivate: true })).id;
  launch = await o.projects.create({ repoId, name: "Launch" });
  empty = await o.projects.create({ repoId, name: "archive" });
  await o.projects.create({ repoId: privateRepoId, name: "Hidden" });
  const now = Date.now();
  await o.cycles.create({ repoId, name: "Past", startsAt: iso(now - 30 * day), endsAt: iso(now - 16 * day) });
  await o.cycles.create({ repoId, name: "Now", startsAt: iso(now - 2 * day), endsAt: iso(now + 12 * day) });
  await o.cycles.create({ repoId, name: "Next", startsAt: iso(now + 13 * day), endsAt: iso(now + 27 * day) });
  // Launch / cycle 2: 5 issues — 2 done, 1 canceled, 2 open (one in progress); one issue outside any project
  const made = [];
  for (const title of ["a", "b", "c", "d", "e"]) made.push(await o.issues.create({ repoId, title, project: "Launch", cycle: 2 }));
  await o.issues.updateStatus({ repoId, number: made[0].number, status: "done" });
  await o.issues.updateStatus({ repoId, number: made[1].number, status: "done" });
  await o.issues.updateStatus({ repoId, number: made[2].number, status: "canceled" });
  await o.issues.updateStatus({ repoId, number: made[3].number, status: "in_progress" });
  await o.issues.create({ repoId, title: "loose" });
  await o.issues.create({ repoId, title: "next cycle", cycle: 3 });
}, 60_000);

describe("projects.list / projects.get", () => {
  it("counts each project's issues exactly, and gives zero counts to an empty project", async () => {
    const rows = await (await callerFor(actorOf(stranger))).projects.list({ repoId });
    expect(rows.map((p) => [p.name, p.issues])).toEqual([
      ["archive", { total: 0, open: 0, done: 0, canceled: 0 }],
      ["Launch", { total: 5, open: 2, done: 2, canceled: 1 }],
    ]);
  });

  it("gets one project with its counts; another repository's project or an unknown id is NOT_FOUND", async () => {
    const anon = await callerFor(null);
    expect(await anon.projects.get({ repoId, projectId: launch.id })).toMatchObject({
      id: launch.id,
      name: "Launch",
      issues: { total: 5, done: 2 },
    });
    expect(await anon.projects.get({ repoId, projectId: empty.id })).toMatchObject({ issues: { total: 0 } });
    const o = await callerFor(actorOf(owner));
    const [hidden] = await o.projects.list({ repoId: privateRepoId });
    await expect(o.projects.get({ repoId, projectId: hidden.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "project not found",
    });
    await expect(o.projects.get({ repoId, projectId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await outcome(o, "projects.get", { repoId, projectId: "nope" })).toBe("BAD_REQUEST");
  });

  it("hides a private repository's projects from strangers and anonymous callers", async () => {
    const o = await callerFor(actorOf(owner));
    const [hidden] = await o.projects.list({ repoId: privateRepoId });
    for (const actor of [null, actorOf(stranger)]) {
      expect(await outcome(await callerFor(actor), "projects.list", { repoId: privateRepoId })).toBe("NOT_FOUND");
      expect(await outcome(await callerFor(actor), "projects.get", { repoId: privateRepoId, projectId: hidden.id })).toBe("NOT_FOUND");
    }
  });
});

describe("cycles.list", () => {
  it("counts each cycle's issues and says which one is current", async () => {
    const rows = await (await callerFor(null)).cycles.list({ repoId });
    expect(rows.map((c) => [c.number, c.name, c.timing, c.issues])).toEqual([
      [1, "Past", "past", { total: 0, open: 0, done: 0, canceled: 0 }],
      [2, "Now", "current", { total: 5, open: 2, done: 2, canceled: 1 }],
      [3, "Next", "upcoming", { total: 1, open: 1, done: 0, canceled: 0 }],
    ]);
  });

  it("timing: the start and end instants count as current", () => {
    const c = { startsAt: new Date("2030-01-01T00:00:00Z"), endsAt: new Date("2030-01-14T23:59:59.999Z") };
    expect(cycleTiming(c, c.startsAt.getTime() - 1)).toBe("upcoming");
    expect(cycleTiming(c, c.startsAt.getTime())).toBe("current");
    expect(cycleTiming(c, c.endsAt.getTime())).toBe("current");
    expect(cycleTiming(c, c.endsAt.getTime() + 1)).toBe("past");
  });
});

describe("projects.addIssue / removeIssue and cycles.addIssue / removeIssue", () => {
  it("moves an issue into a project and a cycle and out again; the counts follow", async () => {
    const o = await callerFor(actorOf(owner));
    const issue = await o.issues.create({ repoId, title: "plan me" });
    expect(await o.projects.addIssue({ repoId, projectId: empty.id, number: issue.number })).toMatchObject({
      number: issue.number,
      projectId: empty.id,
    });
    expect((await o.projects.get({ repoId, projectId: empty.id })).issues).toEqual({ total: 1, open: 1, done: 0, canceled: 0 });
    // adding it to another project moves it
    await o.projects.addIssue({ repoId, projectId: launch.id, number: issue.number });
    expect((await o.projects.get({ repoId, projectId: empty.id })).issues.total).toBe(0);
    expect((await o.projects.get({ repoId, projectId: launch.id })).issues.total).toBe(6);
    // removing from a project it is not in changes nothing
    expect(await o.projects.removeIssue({ repoId, projectId: empty.id, number: issue.number })).toMatchObject({ projectId: launch.id });
    expect(await o.projects.removeIssue({ repoId, projectId: launch.id, number: issue.number })).toMatchObject({ projectId: null });

    const [, now] = await o.cycles.list({ repoId });
    expect(await o.cycles.addIssue({ repoId, cycleId: now.id, number: issue.number })).toMatchObject({ cycleId: now.id });
    expect((await o.cycles.list({ repoId }))[1].issues.total).toBe(6);
    expect(await o.cycles.removeIssue({ repoId, cycleId: now.id, number: issue.number })).toMatchObject({ cycleId: null });
    expect((await o.cycles.list({ repoId }))[1].issues.total).toBe(5);
  });

  it("refuses another repository's project or cycle, unknown issues, readers and anonymous callers", async () => {
    const o = await callerFor(actorOf(owner));
    const [hidden] = await o.projects.list({ repoId: privateRepoId });
    const issue = await o.issues.create({ repoId, title: "guarded" });
    await expect(o.projects.addIssue({ repoId, projectId: hidden.id, number: issue.number })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "project not found",
    });
    await expect(o.projects.addIssue({ repoId, projectId: launch.id, number: 9999 })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "issue #9999 not found",
    });
    const [cycle] = await o.cycles.list({ repoId });
    await expect(o.cycles.addIssue({ repoId, cycleId: launch.id, number: issue.number })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "cycle not found",
    });
    // a stranger reads this public repository but cannot plan in it; anonymous callers must sign in
    expect(
      await outcome(await callerFor(actorOf(stranger)), "projects.addIssue", { repoId, projectId: launch.id, number: issue.number }),
    ).toBe("FORBIDDEN");
    expect(await outcome(await callerFor(actorOf(stranger)), "cycles.addIssue", { repoId, cycleId: cycle.id, number: issue.number })).toBe(
      "FORBIDDEN",
    );
    expect(await outcome(await callerFor(null), "cycles.removeIssue", { repoId, cycleId: cycle.id, number: issue.number })).toBe(
      "UNAUTHORIZED",
    );
    expect(
      await outcome(await callerFor(actorOf(owner, ["repo:read"])), "projects.removeIssue", {
        repoId,
        projectId: launch.id,
        number: issue.number,
      }),
    ).toBe("FORBIDDEN");
    expect((await o.issues.get({ repoId, number: issue.number })).projectId).toBeNull();
  });
});
