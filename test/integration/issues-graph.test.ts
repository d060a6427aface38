/**
 * Issue tracker, part 2: sub-issues (parents, cycles, progress) and relations (blocks, relates_to,
 * duplicates, markAsDuplicate) through the real router, with their activity entries.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let w: IssueWorld;
let r: string;
beforeAll(async () => {
  w = await issueWorld();
  r = w.repoId;
});
const mk = (title: string) => w.as.owner.issues.create({ repoId: r, title });
const last = async (number: number) => (await w.as.owner.issues.getActivity({ repoId: r, number, limit: 1 }))[0];

describe("sub-issues", () => {
  it("sets and removes parents, refuses self and cycles, reports progress", async () => {
    const epic = await mk("epic");
    const a = await mk("a");
    const b = await mk("b");
    const set = await w.as.writer.issues.setParent({ repoId: r, number: a.number, parentNumber: epic.number });
    expect(set.parentNumber).toBe(epic.number);
    expect(await last(a.number)).toMatchObject({ action: "parent_set", field: "parent", oldValue: null, newValue: String(epic.number) });
    const sub = await w.as.writer.issues.createSubIssue({ repoId: r, parentNumber: epic.number, title: "c", body: "cb", priority: "low" });
    expect(sub).toMatchObject({ parentNumber: epic.number, priority: "low", body: "cb" });
    expect(await last(sub.number)).toMatchObject({ action: "parent_set", newValue: String(epic.number) });
    await w.as.writer.issues.setParent({ repoId: r, number: b.number, parentNumber: a.number });
    // cycle: epic → a → b; making b the parent of epic closes a loop
    expect(await codeOf(w.as.writer.issues.setParent({ repoId: r, number: epic.number, parentNumber: b.number }))).toBe("BAD_REQUEST");
    expect(await messageOf(w.as.writer.issues.setParent({ repoId: r, number: epic.number, parentNumber: b.number }))).toMatch(/cycle/);
    expect(await codeOf(w.as.writer.issues.setParent({ repoId: r, number: a.number, parentNumber: a.number }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.issues.setParent({ repoId: r, number: a.number, parentNumber: 99999 }))).toBe("NOT_FOUND");

    expect((await w.as.reader.issues.getSubIssues({ repoId: r, number: epic.number })).map((i) => i.number)).toEqual([
      a.number,
      sub.number,
    ]);
    expect(await w.as.reader.issues.getSubIssueProgress({ repoId: r, number: epic.number })).toEqual({
      total: 2,
      completed: 0,
      percentage: 0,
    });
    await w.as.owner.issues.close({ repoId: r, number: sub.number });
    expect(await w.as.reader.issues.getSubIssueProgress({ repoId: r, number: epic.number })).toEqual({
      total: 2,
      completed: 1,
      percentage: 50,
    });
    const epicView = await w.as.reader.issues.get({ repoId: r, number: epic.number });
    expect(epicView).toMatchObject({ subIssueCount: 2, subIssueProgress: 50 });
    const listed = (await w.as.reader.issues.list({ repoId: r })).find((i) => i.number === epic.number)!;
    expect(listed).toMatchObject({ subIssueCount: 2, subIssueProgress: 50 });
    expect(await w.as.reader.issues.getSubIssueProgress({ repoId: r, number: b.number })).toEqual({
      total: 0,
      completed: 0,
      percentage: 0,
    });

    const removed = await w.as.writer.issues.removeParent({ repoId: r, number: a.number });
    expect(removed.parentNumber).toBeNull();
    expect(await last(a.number)).toMatchObject({ action: "parent_removed", oldValue: String(epic.number) });
    expect(await codeOf(w.as.reader.issues.removeParent({ repoId: r, number: b.number }))).toBe("FORBIDDEN");
  });
});

describe("relations", () => {
  it("adds, lists, refuses self and duplicate relations, removes", async () => {
    const x = await mk("x");
    const y = await mk("y");
    const z = await mk("z");
    const rel = await w.as.writer.issues.addRelation({ repoId: r, sourceNumber: x.number, targetNumber: y.number, type: "blocks" });
    expect(rel.blocking).toEqual([y.number]);
    expect(await last(x.number)).toMatchObject({ action: "relation_added", field: "blocks", newValue: String(y.number) });
    // the target's timeline shows it too, from its side (both timelines)
    expect(await last(y.number)).toMatchObject({ action: "relation_added", field: "blocked_by", newValue: String(x.number) });
    await w.as.writer.issues.addRelation({ repoId: r, sourceNumber: x.number, targetNumber: z.number, type: "relates_to" });
    await w.as.writer.issues.addRelation({ repoId: r, sourceNumber: z.number, targetNumber: y.number, type: "duplicates" });
    expect(
      await codeOf(w.as.writer.issues.addRelation({ repoId: r, sourceNumber: x.number, targetNumber: x.number, type: "relates_to" })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(w.as.writer.issues.addRelation({ repoId: r, sourceNumber: x.number, targetNumber: y.number, type: "blocks" })),
    ).toBe("CONFLICT");
    expect(
      await codeOf(w.as.writer.issues.addRelation({ repoId: r, sourceNumber: z.number, targetNumber: x.number, type: "relates_to" })),
    ).toBe("CONFLICT");
    expect(
      await codeOf(w.as.writer.issues.addRelation({ repoId: r, sourceNumber: y.number, targetNumber: x.number, type: "blocks" })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(w.as.writer.issues.addRelation({ repoId: r, sourceNumber: x.number, targetNumber: y.number, type: "parent" as never })),
    ).toBe("BAD_REQUEST");

    expect(await w.as.reader.issues.getRelations({ repoId: r, number: y.number })).toEqual({
      blocking: [],
      blockedBy: [x.number],
      related: [],
      duplicates: [],
      duplicatedBy: [z.number],
    });
    expect(await w.as.reader.issues.getRelations({ repoId: r, number: z.number })).toEqual({
      blocking: [],
      blockedBy: [],
      related: [x.number],
      duplicates: [y.number],
      duplicatedBy: [],
    });
    expect(await w.as.reader.issues.getRelations({ repoId: r, number: x.number })).toEqual({
      blocking: [y.number],
      blockedBy: [],
      related: [z.number],
      duplicates: [],
      duplicatedBy: [],
    });
    expect((await w.as.reader.issues.get({ repoId: r, number: x.number })).relations.related).toEqual([z.number]);

    expect(await w.as.reader.issues.isBlocked({ repoId: r, number: y.number })).toEqual({ blocked: true, blockedBy: [x.number] });
    await w.as.owner.issues.close({ repoId: r, number: x.number });
    expect(await w.as.reader.issues.isBlocked({ repoId: r, number: y.number })).toEqual({ blocked: false, blockedBy: [] });

    // relates_to removes in either direction
    const after = await w.as.writer.issues.removeRelation({
      repoId: r,
      sourceNumber: z.number,
      targetNumber: x.number,
      type: "relates_to",
    });
    expect(after.related).toEqual([]);
    expect(await last(z.number)).toMatchObject({ action: "relation_removed", field: "relates_to", oldValue: String(x.number) });
    expect(await last(x.number)).toMatchObject({ action: "relation_removed", field: "relates_to", oldValue: String(z.number) });
    expect(
      await codeOf(w.as.writer.issues.removeRelation({ repoId: r, sourceNumber: z.number, targetNumber: x.number, type: "relates_to" })),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(w.as.reader.issues.addRelation({ repoId: r, sourceNumber: z.number, targetNumber: x.number, type: "blocks" })),
    ).toBe("FORBIDDEN");
  });

  it("markAsDuplicate adds the relation and closes with canceled", async () => {
    const canonical = await mk("canonical");
    const dup = await mk("dup");
    const marked = await w.as.writer.issues.markAsDuplicate({ repoId: r, duplicateNumber: dup.number, canonicalNumber: canonical.number });
    expect(marked).toMatchObject({ number: dup.number, state: "closed", status: "canceled" });
    expect(marked.closedAt).not.toBeNull();
    expect((await w.as.reader.issues.getRelations({ repoId: r, number: canonical.number })).duplicatedBy).toEqual([dup.number]);
    const acts = await w.as.owner.issues.getActivity({ repoId: r, number: dup.number, limit: 3 });
    expect(acts.map((a) => a.action)).toEqual(["status_changed", "status_changed", "relation_added"]);
    expect(await last(canonical.number)).toMatchObject({ action: "relation_added", field: "duplicated_by", newValue: String(dup.number) });
    expect(await codeOf(w.as.writer.issues.markAsDuplicate({ repoId: r, duplicateNumber: dup.number, canonicalNumber: dup.number }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(w.as.writer.issues.markAsDuplicate({ repoId: r, duplicateNumber: canonical.number, canonicalNumber: dup.number })),
    ).toBe("CONFLICT");
  });
});
