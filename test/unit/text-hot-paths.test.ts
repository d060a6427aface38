/**
 * The regex and tokenizer paths fed by user text stay about linear on pathological input
 * (docs/security.md "Hardening II, item 1"): the search indexer's identifier splitter and
 * chunker (pushed files), the local review rules (added diff lines), the issue query parser (the
 * search box). Each input is run at two sizes 4× apart; a quadratic path takes ~16× longer on
 * the larger (before: `splitIdentifier` of 40,000 capitals 1.9 s, `debugStatement` of
 * "debugger" + 40,000 spaces + "x" 2.5 s); the check allows 8× plus 50 ms, the least CPU time of three runs (CPU time of this process, so a busy machine's other processes do not count).
 */
import { describe, expect, it } from "vitest";
import { debugStatement, secretOn, todoMarker } from "@/server/ai/review-rules";
import { indexText, queryWords, splitIdentifier } from "@/server/services/search/tokens";
import { chunkFile } from "@/server/services/search/chunk";
import { parseIssueQuery, searchPhrases } from "@/lib/issues/search-query";

/** The least CPU time (ms, user + system of this process) of three runs: other processes on a loaded machine do not count. */
async function bestMs(run: () => unknown): Promise<number> {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t = process.cpuUsage();
    await run();
    const used = process.cpuUsage(t);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const CASES: Record<string, (n: number) => unknown> = {
  "splitIdentifier: a run of capitals": (n) => splitIdentifier("A".repeat(n)),
  "splitIdentifier: aA aA …": (n) => splitIdentifier("aA".repeat(n)),
  "indexText: one long identifier of capitals": (n) => indexText(`x ${"A".repeat(n)}B y`),
  "queryWords: many words": (n) => queryWords("ab ".repeat(n)),
  "debugStatement: debugger + spaces + x": (n) => debugStatement("a.ts", "debugger" + " ".repeat(n) + "x"),
  "debugStatement: console.log + spaces": (n) => debugStatement("a.ts", "console.log" + " ".repeat(n) + "x"),
  "debugStatement: python spaces": (n) => debugStatement("a.py", " ".repeat(n) + "x"),
  "secretOn: key armour words": (n) => secretOn("-----BEGIN " + "A ".repeat(n) + "X"),
  "secretOn: token prefixes": (n) => secretOn("svc_ghp_AIza xoxb-".repeat(n)),
  "todoMarker: a long word": (n) => todoMarker("TODOa".repeat(n)),
  "parseIssueQuery: label:a,a,a…": (n) => parseIssueQuery("label:" + "a,".repeat(n)),
  'parseIssueQuery: a:" a:" …': (n) => parseIssueQuery('a:"'.repeat(n)),
  'searchPhrases: "a "a …': (n) => searchPhrases('"a '.repeat(n)),
  "chunkFile: comment-closing lines": (n) => chunkFile("a.txt", Array.from({ length: 50 }, () => "*/" + " ".repeat(n) + "x").join("\n")),
  "chunkFile: star lines": (n) => chunkFile("a.txt", Array.from({ length: 50 }, () => " *".repeat(n)).join("\n")),
};

describe("text hot paths on pathological input", () => {
  for (const [name, run] of Object.entries(CASES)) {
    it(`${name}: about linear in the size`, async () => {
      await run(1_000); // warm up
      const small = await bestMs(() => run(10_000));
      const large = await bestMs(() => run(40_000));
      expect(large).toBeLessThan(8 * small + 50);
    });
  }

  it("splitIdentifier and the debugger rule keep their answers", () => {
    expect(splitIdentifier("HTTPServerError")).toEqual(["http", "server", "error"]);
    expect(splitIdentifier("parseURLQuery2String")).toEqual(["parse", "url", "query", "2", "string"]);
    expect(splitIdentifier("ABC")).toEqual(["abc"]);
    expect(debugStatement("a.ts", "  debugger ;  ")).toBe("a `debugger` statement");
    expect(debugStatement("a.ts", "debugger")).toBe("a `debugger` statement");
    expect(debugStatement("a.ts", "debugger x")).toBeNull();
  });
});
