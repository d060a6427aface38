/**
 * The code vocabulary of the lexical engine (server/services/search/vocabulary.ts; docs/ai.md
 * "Query vocabulary"): people's words bring the words code uses as alternatives, once each, never
 * replacing or repeating the query's own words.
 */
import { describe, expect, it } from "vitest";
import {
  ALTERNATIVE_COVERAGE,
  ALTERNATIVE_RANK_WEIGHT,
  CODE_VOCABULARY,
  codeWordsFor,
  expandWords,
} from "@/server/services/search/vocabulary";
import { isStopWord, queryWords } from "@/server/services/search/tokens";

describe("code vocabulary", () => {
  it("maps people's words to code's words", () => {
    for (const w of ["highest", "largest", "greatest", "biggest", "maximum"]) expect(codeWordsFor(w)).toContain("max");
    for (const w of ["lowest", "smallest", "least", "minimum"]) expect(codeWordsFor(w)).toContain("min");
    expect(codeWordsFor("overlap")).toEqual(expect.arrayContaining(["intersect", "intersects"]));
    expect(codeWordsFor("erase")).toEqual(expect.arrayContaining(["delete", "del", "remove", "rm"]));
    expect(codeWordsFor("compare")).toEqual(["cmp"]); // never the word itself
    expect(codeWordsFor("contained")).toContain("subset");
    expect(codeWordsFor("asynchronously")).toEqual(["async"]);
  });

  it("leaves code words and unknown words alone (one direction: people → code)", () => {
    expect(codeWordsFor("max")).toEqual([]);
    expect(codeWordsFor("quokka")).toEqual([]);
    expect(expandWords(["parse", "query", "url"])).toEqual([]);
  });

  it("expands a query's words once each, skipping words the query already has", () => {
    expect(expandWords(queryWords("find the highest version in a list"))).toEqual([{ word: "max", of: "highest" }]);
    // "remove" and "delete" share a row: their alternatives come once, the query's own words not at all
    const both = expandWords(["remove", "delete", "key"]);
    expect(both.map((e) => e.word).sort()).toEqual(["del", "rm"]);
    expect(both.every((e) => e.of === "remove")).toBe(true);
    // two words with the same alternative: it stands for the first
    expect(expandWords(["largest", "highest"])).toEqual([{ word: "max", of: "largest" }]);
  });

  it("offers only lowercase single words that are not stop words, never outweighing the query's words", () => {
    for (const [people, code] of CODE_VOCABULARY) {
      for (const w of people.split(" ")) expect(w).toMatch(/^[a-z]+$/);
      for (const c of code.split(" ")) {
        expect(c).toMatch(/^[a-z0-9]+$/);
        expect(isStopWord(c)).toBe(false);
      }
    }
    expect(ALTERNATIVE_RANK_WEIGHT).toBeGreaterThan(0);
    expect(ALTERNATIVE_RANK_WEIGHT).toBeLessThan(1);
    expect(ALTERNATIVE_COVERAGE).toBeLessThanOrEqual(1);
  });
});
