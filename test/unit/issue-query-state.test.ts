/** The issue list's query state (components/issues/query-state.ts). */
import { describe, expect, it } from "vitest";
import {
  clearedQuery,
  emptyKind,
  hasQueryFilters,
  legacyQuery,
  listHref,
  menuValues,
  normalizeQuery,
  queryOfView,
  viewFromQuery,
  withMenuValues,
  withSort,
  withState,
} from "@/components/issues/query-state";

describe("menus and tabs rewrite the query, keeping the rest", () => {
  it("sets, adds and removes menu values; free text stays", () => {
    const q = 'is:open label:bug crash "on start"';
    expect(menuValues(q, "labels")).toEqual(["bug"]);
    expect(withMenuValues(q, "labels", ["bug", "good first issue"])).toBe('is:open label:bug,"good first issue" crash "on start"');
    expect(withMenuValues(q, "labels", [])).toBe('is:open crash "on start"');
    expect(withMenuValues(q, "labels", [], true)).toBe('is:open no:label crash "on start"');
    expect(withMenuValues("no:assignee", "assignees", ["@me"])).toBe("assignee:@me");
    expect(withMenuValues("is:open", "statuses", ["todo", "in_progress"])).toBe("is:open status:todo,in_progress");
    expect(menuValues("priority:high priority:low", "priorities")).toEqual(["high", "low"]);
    expect(withState("is:open label:bug", "closed")).toBe("is:closed label:bug");
    expect(withState("is:open", undefined)).toBe("");
    expect(withSort("is:open", "priority")).toBe("is:open sort:priority");
    expect(withSort("is:open sort:priority", "created-desc")).toBe("is:open");
  });

  it("knows when there is something to clear and what the empty state is", () => {
    expect(hasQueryFilters("is:open sort:priority")).toBe(false);
    expect(hasQueryFilters("is:open crash")).toBe(true);
    expect(clearedQuery("is:closed label:bug crash")).toBe("is:closed");
    expect(clearedQuery("label:bug")).toBe("");
    expect(emptyKind("is:open", 0)).toBe("no-issues");
    expect(emptyKind("is:closed", 3)).toBe("no-closed");
    expect(emptyKind("is:open", 3)).toBe("no-open");
    expect(emptyKind("is:closed label:x", 3)).toBe("no-match");
  });

  it("old URL filters become a query", () => {
    expect(legacyQuery({})).toBeNull();
    expect(legacyQuery({ label: "bug", priority: "low" })).toBe("is:open priority:low label:bug");
    expect(legacyQuery({ status: "done" })).toBe("is:closed status:done");
    expect(legacyQuery({ state: "closed", assignee: "me", due: "due_soon" })).toBe("is:closed assignee:@me due:soon");
    expect(legacyQuery({ label: "good first issue" })).toBe('is:open label:"good first issue"');
  });

  it("builds list URLs", () => {
    expect(listHref("/a/b/issues", {})).toBe("/a/b/issues");
    expect(listHref("/a/b/issues", { q: "is:open label:bug", view: "v1", page: 2 })).toBe(
      "/a/b/issues?view=v1&q=is%3Aopen+label%3Abug&page=2",
    );
  });
});

describe("saved views and queries", () => {
  it("a view's query: its q, or its spec filters as qualifiers", () => {
    expect(queryOfView({ filters: { q: "label:bug crash" }, sort: { field: "priority", direction: "asc" } }, null)).toBe(
      "label:bug sort:priority crash",
    );
    expect(
      queryOfView(
        {
          filters: { status: ["todo"], priority: ["high"], labels: ["a", "b c"], assignee: ["u1", "u2"], dueDate: "no_date" },
          sort: { field: "updatedAt", direction: "desc" },
        },
        "u1",
      ),
    ).toBe('status:todo priority:high label:a,"b c" assignee:@me,u2 no:due sort:updated-desc');
    expect(queryOfView({ filters: {}, sort: null }, null)).toBe("");
  });
  it("a query as view filters: q plus what the spec's fields express", () => {
    expect(viewFromQuery("is:open status:todo label:bug due:overdue sort:due-asc crash")).toEqual({
      filters: { q: "is:open status:todo label:bug due:overdue sort:due-asc crash", status: ["todo"], labels: ["bug"], dueDate: "overdue" },
      sort: { field: "dueDate", direction: "asc" },
    });
    expect(viewFromQuery("label:a label:b no:due").filters).toEqual({ q: "label:a label:b no:due", dueDate: "no_date" });
    expect(viewFromQuery("").sort).toBeNull();
  });
  it("normalizes queries to compare them", () => {
    expect(normalizeQuery("crash   label:bug  is:open")).toBe(normalizeQuery("is:open label:bug crash"));
  });
});
