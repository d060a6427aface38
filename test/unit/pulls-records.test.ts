/** Pure parts of the pull request records (docs/pulls.md "Records and timeline"): the list statement and ref names. */
import { describe, expect, it } from "vitest";
import { pullsListSql } from "@/server/services/pulls/list-pull-requests";
import { pullHeadRef } from "@/server/git/pull-refs";
import { toPullView } from "@/server/services/pulls/view";

describe("pullsListSql", () => {
  it("binds every value and pages inside the id subquery, newest first", () => {
    const pg = pullsListSql("postgresql", "r1", { state: "open", authorId: "u1", limit: 20, offset: 40 });
    expect(pg.params).toEqual(["r1", "open", "u1"]);
    expect(pg.text).toContain(`p."state" = $2 AND p."authorId" = $3 ORDER BY p."number" DESC LIMIT 20 OFFSET 40`);
    expect(pg.text).toContain("json_agg");
    const lite = pullsListSql("sqlite", "r1", { limit: 20, offset: 0 });
    expect(lite.params).toEqual(["r1"]);
    expect(lite.text).toContain("json_group_array");
    expect(lite.text).not.toContain("$1");
  });
});

describe("pullHeadRef", () => {
  it("is refs/pull/<n>/head for positive integers only", () => {
    expect(pullHeadRef(12)).toBe("refs/pull/12/head");
    expect(() => pullHeadRef(0)).toThrow();
    expect(() => pullHeadRef(1.5)).toThrow();
  });
});

describe("toPullView", () => {
  it("gives the spec's shape with ISO dates and nulls", () => {
    const d = new Date("2026-01-02T03:04:05.000Z");
    const v = toPullView({
      id: "p",
      number: 3,
      title: "t",
      body: null,
      state: "open",
      sourceBranch: "a",
      targetBranch: "main",
      headSha: "h",
      baseSha: "b",
      authorId: null,
      author: null,
      labels: [{ label: { id: "l", name: "bug", color: "#fff" } }],
      isDraft: false,
      createdAt: d,
      updatedAt: d,
      mergedAt: null,
      closedAt: null,
    });
    expect(v).toEqual({
      id: "p",
      number: 3,
      title: "t",
      body: null,
      state: "open",
      sourceBranch: "a",
      targetBranch: "main",
      headSha: "h",
      baseSha: "b",
      authorId: null,
      author: null,
      labels: [{ id: "l", name: "bug", color: "#fff" }],
      isDraft: false,
      createdAt: "2026-01-02T03:04:05.000Z",
      updatedAt: "2026-01-02T03:04:05.000Z",
      mergedAt: null,
      closedAt: null,
    });
  });
});
