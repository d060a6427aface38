/** issues.list `labels` and `numbers` filters and issues.counts (extensions for the list page; docs/issues.md). */
import { describe, expect, it } from "vitest";
import { codeOf, issueWorld } from "./issues-fixtures";

describe("issues.list labels filter and issues.counts", () => {
  it("filter by label names (any of, case-insensitive) and count per state under the same filters", async () => {
    const w = await issueWorld();
    const { owner } = w.as;
    const repoId = w.repoId;
    await owner.issues.createLabel({ repoId, name: "Bug", color: "#d73a4a" });
    await owner.issues.createLabel({ repoId, name: "docs", color: "#0075ca" });
    const a = await owner.issues.create({ repoId, title: "a", labels: ["bug"], priority: "high" });
    const b = await owner.issues.create({ repoId, title: "b", labels: ["docs"] });
    const c = await owner.issues.create({ repoId, title: "c", labels: ["Bug", "docs"], priority: "high" });
    await owner.issues.create({ repoId, title: "d" });
    await owner.issues.close({ repoId, number: c.number });

    const numbers = async (input: Record<string, unknown>) => (await owner.issues.list({ repoId, ...input })).map((i) => i.number);
    expect(await numbers({ labels: ["BUG"] })).toEqual([c.number, a.number]);
    expect(await numbers({ labels: ["bug"], state: "open" })).toEqual([a.number]);
    expect(await numbers({ labels: ["bug", "docs"], state: "open" })).toEqual([b.number, a.number]);
    expect(await numbers({ labels: ["nope"] })).toEqual([]);
    // numbers: only those issues, any state, one query
    expect(await numbers({ numbers: [a.number, c.number, 999] })).toEqual([c.number, a.number]);
    expect(await numbers({ numbers: [] })).toEqual([]);
    expect(await codeOf(owner.issues.list({ repoId, numbers: [0] }))).toBe("BAD_REQUEST");

    expect(await owner.issues.counts({ repoId })).toEqual({ open: 3, closed: 1 });
    expect(await owner.issues.counts({ repoId, labels: ["bug"] })).toEqual({ open: 1, closed: 1 });
    expect(await owner.issues.counts({ repoId, priority: "high" })).toEqual({ open: 1, closed: 1 });
    expect(await owner.issues.counts({ repoId, labels: ["docs"], priority: "none" })).toEqual({ open: 1, closed: 0 });
    // overdue implies open
    expect(await owner.issues.counts({ repoId, overdue: true })).toEqual({ open: 0, closed: 0 });
    // readers may count; strangers of a private repository get NOT_FOUND; bad input is BAD_REQUEST
    expect(await w.as.reader.issues.counts({ repoId })).toEqual({ open: 3, closed: 1 });
    expect(await codeOf(w.as.stranger.issues.counts({ repoId }))).toBe("NOT_FOUND");
    expect(await codeOf(owner.issues.counts({ repoId, labels: "bug" as never }))).toBe("BAD_REQUEST");
  });
});
