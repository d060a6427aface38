/** Branch protection's pure parts: patterns and their specificity (pattern.ts), merge requirements (requirements.ts). */
import { describe, expect, it } from "vitest";
import { compareSpecificity, matchesPattern, patternProblem, ruleForBranch } from "@/server/services/branch-protection/pattern";
import { evaluateRequirements, type RequirementReview } from "@/server/services/branch-protection/requirements";
import { ownersOf, parseCodeOwners, unapprovedOwnedPaths } from "@/server/services/branch-protection/codeowners";

describe("patterns", () => {
  it("match globs: * within a path segment, ** across, ? one character; exact names exactly", () => {
    expect(matchesPattern("main", "main")).toBe(true);
    expect(matchesPattern("main", "main2")).toBe(false);
    expect(matchesPattern("release/*", "release/1.0")).toBe(true);
    expect(matchesPattern("release/*", "release/1/x")).toBe(false);
    expect(matchesPattern("release/**", "release/1/x")).toBe(true);
    expect(matchesPattern("*", "feature")).toBe(true);
    expect(matchesPattern("*", "a/b")).toBe(false);
    expect(matchesPattern("v?", "v1")).toBe(true);
    expect(matchesPattern("v?", "v10")).toBe(false);
    expect(matchesPattern("a.b", "axb")).toBe(false); // regex characters are literal
  });

  it("the most specific pattern wins: exact name, then longer literal prefix, more literals, fewer wildcards", () => {
    const rules = ["*", "**", "release/*", "release/v1*", "release/v1.0", "re*"].map((pattern) => ({ pattern }));
    expect(ruleForBranch(rules, "release/v1.0")?.pattern).toBe("release/v1.0");
    expect(ruleForBranch(rules, "release/v1.1")?.pattern).toBe("release/v1*");
    expect(ruleForBranch(rules, "release/v2")?.pattern).toBe("release/*");
    expect(ruleForBranch(rules, "main")?.pattern).toBe("*");
    expect(ruleForBranch(rules, "a/b")?.pattern).toBe("**");
    expect(ruleForBranch([{ pattern: "x*" }], "main")).toBeNull();
    expect(compareSpecificity("a*b*", "a*b")).toBeGreaterThan(0); // same prefix and literals: fewer wildcards first
    // the order of the rows does not matter
    expect(ruleForBranch([...rules].reverse(), "release/v1.1")?.pattern).toBe("release/v1*");
  });

  it("refuses unusable patterns", () => {
    expect(patternProblem("")).toMatch(/empty/);
    expect(patternProblem("refs/heads/main")).toMatch(/without refs\/heads/);
    expect(patternProblem("a b")).toMatch(/cannot contain/);
    expect(patternProblem("[ab]")).toMatch(/cannot contain/);
    expect(patternProblem("release/*")).toBeNull();
  });
});

describe("merge requirements", () => {
  const t = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
  const review = (authorId: string, state: string, m: number, dismissed = false): RequirementReview => ({
    authorId,
    username: authorId,
    state,
    createdAt: t(m),
    dismissedAt: dismissed ? t(m + 1) : null,
  });
  const base = { authorId: "author", statuses: [], behindBy: 0, targetBranch: "main" };
  const rule = { requiredApprovals: 2, requiredStatusChecks: [], requireUpToDate: false };

  it("counts the latest verdict per reviewer, never the author's, never dismissed ones", () => {
    const reqs = evaluateRequirements({
      ...base,
      rule,
      reviews: [
        review("alice", "approved", 1),
        review("alice", "approved", 2), // the same reviewer twice counts once
        review("author", "approved", 3),
        review("bob", "approved", 4, true),
        review("carol", "commented", 5),
      ],
    });
    expect(reqs).toEqual([{ kind: "approvals", satisfied: false, message: "1 more approving review required" }]);
    expect(evaluateRequirements({ ...base, rule, reviews: [] })[0].message).toBe("2 approving reviews required");
    const two = evaluateRequirements({ ...base, rule, reviews: [review("alice", "approved", 1), review("bob", "approved", 2)] });
    expect(two).toEqual([{ kind: "approvals", satisfied: true, message: "2 approving reviews (2 required)" }]);
  });

  it("a request for changes blocks until its author approves or it is dismissed", () => {
    const none = { ...rule, requiredApprovals: 0 };
    expect(evaluateRequirements({ ...base, rule: none, reviews: [review("alice", "changes_requested", 1)] })).toEqual([
      { kind: "approvals", satisfied: false, message: "Changes requested by alice", context: "alice" },
    ]);
    const later = [review("alice", "changes_requested", 1), review("alice", "commented", 2), review("alice", "approved", 3)];
    expect(evaluateRequirements({ ...base, rule: none, reviews: later })).toEqual([]);
    expect(evaluateRequirements({ ...base, rule: none, reviews: [review("alice", "changes_requested", 1, true)] })).toEqual([]);
  });

  it("status contexts need success; up to date needs behindBy 0", () => {
    const reqs = evaluateRequirements({
      ...base,
      behindBy: 3,
      rule: { requiredApprovals: 0, requiredStatusChecks: ["ci/build", "ci/test", "lint"], requireUpToDate: true },
      reviews: [],
      statuses: [
        { context: "ci/build", state: "success" },
        { context: "ci/test", state: "pending" },
      ],
    });
    expect(reqs.map((r) => [r.kind, r.context ?? null, r.satisfied])).toEqual([
      ["status", "ci/build", true],
      ["status", "ci/test", false],
      ["status", "lint", false],
      ["upToDate", null, false],
    ]);
    expect(reqs[2].message).toBe("lint: expected, waiting for its status to be reported");
    expect(reqs[3].message).toBe("the branch is 3 commits behind main: update it first");
  });
});

describe("CODEOWNERS", () => {
  const rules = parseCodeOwners(
    [
      "# comment",
      "*       @Global",
      "*.js    @js-owner  # trailing comment",
      "/build/logs/ @logs",
      "docs/*  @docs",
      "apps/   @apps",
      "/unowned/x.txt",
      "@org/team-only.md @org/team",
      "/teams/ @Acme/Core-Devs @bob x@example.com",
    ].join("\n"),
  );

  it("matches as GitHub does; the last matching line wins; a line without owners unowns", () => {
    expect(ownersOf(rules, "README.md")).toEqual(["global"]);
    expect(ownersOf(rules, "src/a/b.js")).toEqual(["js-owner"]);
    expect(ownersOf(rules, "build/logs/x/y.log")).toEqual(["logs"]);
    expect(ownersOf(rules, "sub/build/logs/y.log")).toEqual(["global"]); // anchored
    expect(ownersOf(rules, "docs/a.md")).toEqual(["docs"]);
    expect(ownersOf(rules, "docs/x/b.md")).toEqual(["global"]); // docs/* is one level
    expect(ownersOf(rules, "x/apps/y/z.txt")).toEqual(["apps"]); // apps/ at any depth
    expect(ownersOf(rules, "unowned/x.txt")).toEqual([]);
  });

  it("keeps @org/team owners as org/slug, lower-cased; email owners are skipped", () => {
    expect(ownersOf(rules, "@org/team-only.md")).toEqual(["org/team"]);
    expect(ownersOf(rules, "teams/a.ts")).toEqual(["acme/core-devs", "bob"]);
    // a team owner's approval: the approvers' teams join the usernames
    expect(unapprovedOwnedPaths(rules, ["teams/a.ts"], new Set(["alice", "acme/core-devs"]))).toEqual([]);
    expect(unapprovedOwnedPaths(rules, ["teams/a.ts"], new Set(["alice"]))).toEqual([
      { path: "teams/a.ts", owners: ["acme/core-devs", "bob"] },
    ]);
  });

  it("each owned path needs one of its owners' approval", () => {
    const paths = ["a.js", "README.md", "unowned/x.txt"];
    expect(unapprovedOwnedPaths(rules, paths, new Set(["js-owner"]))).toEqual([{ path: "README.md", owners: ["global"] }]);
    expect(unapprovedOwnedPaths(rules, paths, new Set(["js-owner", "global"]))).toEqual([]);
    const reqs = evaluateRequirements({
      authorId: "a",
      reviews: [],
      statuses: [],
      behindBy: 0,
      targetBranch: "main",
      rule: { requiredApprovals: 0, requiredStatusChecks: [], requireUpToDate: false, requireCodeOwnerReview: true },
      codeOwners: unapprovedOwnedPaths(rules, paths, new Set()),
    });
    expect(reqs).toEqual([
      { kind: "codeOwners", satisfied: false, message: "Code owner review required from @js-owner, @global (2 files)" },
    ]);
  });
});
