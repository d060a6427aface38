import { describe, expect, it } from "vitest";
import {
  parseRange,
  pushRange,
  rangeHref,
  rangeOfValue,
  rangeOptions,
  rangeValue,
  initialPair,
  revisionChoices,
  revisionOfSha,
} from "@/components/pulls/revision-range";

const revs = [
  { number: 1, headSha: "aaa" },
  { number: 2, headSha: "bbb" },
  { number: 3, headSha: "ccc" },
];

describe("revisionOfSha", () => {
  it("finds the revision of a head, the newest when a head comes back, and null for none", () => {
    expect(revisionOfSha(revs, "bbb")).toBe(2);
    expect(revisionOfSha([...revs, { number: 4, headSha: "aaa" }], "aaa")).toBe(4);
    expect(revisionOfSha([...revs, { number: 4, headSha: "aaa" }], "aaa", 4)).toBe(1);
    expect(revisionOfSha(revs, "zzz")).toBeNull();
  });
});

describe("parseRange", () => {
  it("reads two distinct revisions the pull request has", () => {
    expect(parseRange({ from: "1", to: "3" }, revs)).toEqual({ from: 1, to: 3 });
    expect(parseRange({ from: "3", to: "1" }, revs)).toEqual({ from: 3, to: 1 });
  });
  it("ignores missing, equal, unknown or malformed ends", () => {
    expect(parseRange({}, revs)).toBeNull();
    expect(parseRange({ from: "2", to: "2" }, revs)).toBeNull();
    expect(parseRange({ from: "1", to: "9" }, revs)).toBeNull();
    expect(parseRange({ from: "1x", to: "2" }, revs)).toBeNull();
    expect(parseRange({ from: ["1", "2"], to: "3" }, revs)).toBeNull();
  });
});

describe("revisionChoices and initialPair", () => {
  it("labels each revision with its short head", () => {
    const long = [{ number: 1, headSha: "0123456789abcdef" }];
    expect(revisionChoices(long)).toEqual([{ value: "1", label: "Revision 1 (0123456)" }]);
  });
  it("starts from the range shown, else since your review, else the two newest", () => {
    expect(initialPair(revs, { from: 3, to: 1 }, { from: 2, to: 3 })).toEqual({ from: 3, to: 1 });
    expect(initialPair(revs, null, { from: 1, to: 3 })).toEqual({ from: 1, to: 3 });
    expect(initialPair(revs, null, null)).toEqual({ from: 2, to: 3 });
    expect(initialPair(revs.slice(0, 1), null, null)).toBeNull();
  });
});

describe("pushRange", () => {
  it("maps a force-push's before and after to revisions", () => {
    expect(pushRange(revs, "bbb", "ccc")).toEqual({ from: 2, to: 3 });
    expect(pushRange(revs, "zzz", "ccc")).toBeNull();
    expect(pushRange(revs, "bbb", "zzz")).toBeNull();
    expect(pushRange(revs, undefined, "ccc")).toBeNull();
  });
});

describe("rangeOptions", () => {
  it("lists all changes, since your review, then each consecutive pair once", () => {
    expect(rangeOptions(revs, { from: 2, to: 3 }, null)).toEqual([
      { value: "all", label: "All changes" },
      { value: "2-3", label: "Changes since your last review (revision 2 → 3)" },
      { value: "1-2", label: "Revision 1 → 2" },
    ]);
  });
  it("adds a linked range that is no listed option", () => {
    expect(rangeOptions(revs, null, { from: 1, to: 3 }).map((o) => o.value)).toEqual(["all", "1-2", "2-3", "1-3"]);
  });
  it("round-trips values and builds addresses", () => {
    expect(rangeOfValue(rangeValue({ from: 1, to: 3 }))).toEqual({ from: 1, to: 3 });
    expect(rangeOfValue("all")).toBeNull();
    expect(rangeHref("/o/r/pulls/1/files", { from: 1, to: 2 })).toBe("/o/r/pulls/1/files?from=1&to=2");
    expect(rangeHref("/o/r/pulls/1/files", null)).toBe("/o/r/pulls/1/files");
  });
});
