/** Pure helpers of the stacks page and the pull request list row (components/pulls/stack-model.ts, model.ts). */
import { describe, expect, it } from "vitest";
import { addableBranches, branchBelow, moveBranch, stackAnchor, stacksUrl } from "@/components/pulls/stack-model";
import { commentCountLabel, reviewDecisionText } from "@/components/pulls/model";

describe("stack helpers", () => {
  it("moves a branch one place up or down, clamped at the ends", () => {
    const list = ["a", "b", "c"];
    expect(moveBranch(list, 0, 1)).toEqual(["b", "a", "c"]);
    expect(moveBranch(list, 2, -1)).toEqual(["a", "c", "b"]);
    expect(moveBranch(list, 2, 1)).toBe(list);
    expect(moveBranch(list, 0, -1)).toBe(list);
    expect(moveBranch(list, 5, 1)).toBe(list);
    expect(list).toEqual(["a", "b", "c"]);
  });

  it("offers branches not in the list, not the base, not held by another stack", () => {
    expect(addableBranches(["main", "s1", "s2", "s3", "other"], "main", ["s1"], new Set(["other"]))).toEqual(["s2", "s3"]);
  });

  it("knows the branch under a position and the stacks page's urls", () => {
    const stack = {
      baseBranch: "main",
      branches: [
        { branchName: "s1", position: 0 },
        { branchName: "s2", position: 1 },
      ],
    };
    expect(branchBelow(stack, 0)).toBe("main");
    expect(branchBelow(stack, 1)).toBe("s1");
    expect(stacksUrl("o w", "r")).toBe("/o%20w/r/pulls/stacks");
    expect(stacksUrl("o", "r", "id1")).toBe(`/o/r/pulls/stacks#${stackAnchor("id1")}`);
  });
});

describe("list row slots", () => {
  it("shows nothing for absent data and never a made-up zero", () => {
    expect(commentCountLabel(undefined)).toBeNull();
    expect(commentCountLabel(null)).toBeNull();
    expect(commentCountLabel(0)).toBeNull();
    expect(commentCountLabel(1)).toBe("1 comment");
    expect(commentCountLabel(12)).toBe("12 comments");
    expect(reviewDecisionText(undefined)).toBeNull();
    expect(reviewDecisionText("approved")).toBe("Approved");
    expect(reviewDecisionText("changes_requested")).toBe("Changes requested");
    expect(reviewDecisionText("review_required")).toBe("Review required");
  });
});
