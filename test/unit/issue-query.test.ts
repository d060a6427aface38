/** parseIssueQuery / formatIssueQuery / searchPhrases (lib/issues/search-query.ts; docs/issues.md "Search"). */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { emptyFilters, formatIssueQuery, fts5Match, parseIssueQuery, searchPhrases, websearchText } from "@/lib/issues/search-query";

describe("parseIssueQuery", () => {
  it("reads GitHub-style qualifiers and free text", () => {
    const r = parseIssueQuery(
      'is:open label:bug label:"good first issue",ui assignee:@me author:Alice priority:high status:"In Progress" project:"Q3 launch" cycle:3 sort:updated-desc crash on start',
    );
    expect(r.errors).toEqual([]);
    expect(r.text).toBe("crash on start");
    expect(r.filters).toEqual({
      ...emptyFilters(),
      state: "open",
      labels: [["bug"], ["good first issue", "ui"]],
      assignees: ["@me"],
      authors: ["Alice"],
      priorities: ["high"],
      statuses: ["in_progress"],
      projects: ["Q3 launch"],
      cycles: [3],
      sort: "updated-desc",
    });
  });

  it("no:, due:, is:closed, aliases and repeated single-valued qualifiers", () => {
    const r = parseIssueQuery(
      "is:issue is:closed no:assignee no:labels due:overdue sort:oldest priority:urgent,low status:todo status:done assignee:@bob",
    );
    expect(r.errors).toEqual([]);
    expect(r.filters).toMatchObject({
      state: "closed",
      no: ["assignee", "label"],
      due: "overdue",
      sort: "created-asc",
      priorities: ["urgent", "low"],
      statuses: ["todo", "done"],
      assignees: ["bob"],
    });
  });

  it("keeps unknown qualifiers and phrases as text; reports bad values of known ones", () => {
    expect(parseIssueQuery('foo:bar "exact phrase" baz').text).toBe('foo:bar "exact phrase" baz');
    const bad = parseIssueQuery("priority:huge cycle:x sort:sideways is:merged no:thing due:later label: word");
    expect(bad.errors).toHaveLength(6);
    expect(bad.errors[0]).toMatch(/^priority:huge — priority is one of urgent/);
    expect(bad.errors.join("\n")).toMatch(/cycle:x — a cycle is a number/);
    expect(bad.text).toBe("label: word"); // "label:" with nothing after is a word
    expect(parseIssueQuery("-label:bug -foo:x").errors).toEqual(["-label:bug — excluding (-label:) is not supported yet"]);
  });

  it("handles unterminated quotes, empty and odd input without throwing", () => {
    expect(parseIssueQuery('label:"never closed').filters.labels).toEqual([["never closed"]]);
    expect(parseIssueQuery('"open phrase').text).toBe('"open phrase');
    expect(parseIssueQuery("")).toEqual({ filters: emptyFilters(), text: "", errors: [] });
    expect(parseIssueQuery(undefined).errors).toEqual([]);
    expect(parseIssueQuery(42).errors).toEqual(["the query must be text"]);
    expect(parseIssueQuery("label:" + Array.from({ length: 60 }, (_, i) => `l${i}`).join(",")).errors).toEqual([
      "at most 50 qualifier values",
    ]);
  });

  it("never throws, and format → parse gives back the filters (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (q) => {
        const r = parseIssueQuery(q);
        const again = parseIssueQuery(formatIssueQuery(r.filters, ""));
        expect(again.filters).toEqual({
          ...r.filters,
          labels: r.filters.labels
            .map((g) => g.map((l) => l.replace(/"/g, "")))
            .map((g) => g.filter(Boolean))
            .filter((g) => g.length),
          projects: r.filters.projects.map((p) => p.replace(/"/g, "")).filter(Boolean),
          assignees: again.filters.assignees,
          authors: again.filters.authors,
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe("formatIssueQuery", () => {
  it("writes the canonical text, quoting values with spaces or commas", () => {
    expect(formatIssueQuery({ state: "open", labels: [["good first issue", "bug"]], assignees: ["@me"], sort: "priority" }, "crash")).toBe(
      'is:open label:"good first issue",bug assignee:@me sort:priority crash',
    );
    expect(formatIssueQuery({})).toBe("");
  });
});

describe("full-text phrases are never FTS syntax", () => {
  it("keeps only words, quoted", () => {
    expect(searchPhrases('crash "out of memory" -x NEAR(a b) * ^c:d')).toEqual([
      ["crash"],
      ["out", "of", "memory"],
      ["x"],
      ["near"],
      ["a"],
      ["b"],
      ["c"],
      ["d"],
    ]);
    expect(searchPhrases('*** " " - ()')).toEqual([]);
    expect(searchPhrases("Ünïcödé 日本語 emoji🙂")).toEqual([["ünïcödé"], ["日本語"], ["emoji"]]);
    expect(fts5Match([["a"], ["b", "c"]])).toBe('"a" AND "b c"');
    expect(websearchText([["a"], ["or"], ["b", "c"]])).toBe('"a" "or" "b c"');
  });
});
