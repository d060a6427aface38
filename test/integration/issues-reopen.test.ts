/**
 * issues.reopen returns an issue to the status it had before it was closed (docs/issues.md
 * "Statuses, categories and state"), not always
 * to backlog; the move is in the activity log. Through the real router (callerFor).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { issueWorld, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
beforeAll(async () => {
  w = await issueWorld();
});

const reopen = (number: number) => w.as.writer.issues.reopen({ repoId: w.repoId, number });
const statusLog = async (number: number) =>
  (await w.as.owner.issues.getActivity({ repoId: w.repoId, number, limit: 200 }))
    .filter((a) => a.action === "status_changed")
    .map((a) => `${a.field}:${a.oldValue}->${a.newValue}`);

describe("issues.reopen", () => {
  it("returns a closed issue to the status it had before close, and records the move", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "review then close", status: "in_review" });
    await w.as.writer.issues.close({ repoId: w.repoId, number: i.number });
    const reopened = await reopen(i.number);
    expect(reopened).toMatchObject({ state: "open", status: "in_review", closedAt: null });
    expect((await statusLog(i.number)).slice(0, 2)).toEqual(["state:closed->open", "status:done->in_review"]);
    // already open: unchanged, nothing recorded
    expect(await reopen(i.number)).toMatchObject({ state: "open", status: "in_review" });
    expect(await statusLog(i.number)).toHaveLength(4);
  });

  it("skips closed → closed moves: todo → done → canceled reopens to todo", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "done then canceled", status: "todo" });
    await w.as.owner.issues.updateStatus({ repoId: w.repoId, number: i.number, status: "done" });
    await w.as.owner.issues.updateStatus({ repoId: w.repoId, number: i.number, status: "canceled" });
    expect(await reopen(i.number)).toMatchObject({ state: "open", status: "todo" });
  });

  it("uses the latest closing: todo → done → reopen → in_progress → canceled reopens to in_progress", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "closed twice", status: "todo" });
    await w.as.writer.issues.close({ repoId: w.repoId, number: i.number });
    expect(await reopen(i.number)).toMatchObject({ status: "todo" });
    await w.as.owner.issues.updateStatus({ repoId: w.repoId, number: i.number, status: "in_progress" });
    await w.as.owner.issues.updateStatus({ repoId: w.repoId, number: i.number, status: "canceled" });
    expect(await reopen(i.number)).toMatchObject({ state: "open", status: "in_progress" });
  });

  it("a rejected triage issue reopens to triage", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "triage me", status: "triage" });
    await w.as.owner.issues.rejectTriage({ repoId: w.repoId, number: i.number, reason: "not now" });
    expect(await reopen(i.number)).toMatchObject({ state: "open", status: "triage" });
  });

  it("an issue created closed (no earlier status) reopens to backlog", async () => {
    const i = await w.as.owner.issues.create({ repoId: w.repoId, title: "born done", status: "done" });
    expect(i).toMatchObject({ state: "closed" });
    expect(await reopen(i.number)).toMatchObject({ state: "open", status: "backlog" });
    expect((await statusLog(i.number)).slice(0, 2)).toEqual(["state:closed->open", "status:done->backlog"]);
  });
});
