/**
 * The local engine's writing helpers (docs/ai.md "Pull request descriptions", "Squash messages"):
 * conventional-commit parsing, categories from types, paths and verbs, pull request descriptions
 * per style (conventional and plain histories, breaking changes, what the author wrote kept) and
 * squash messages (styles, co-authors deduplicated, the pull request's author left out).
 */
import { describe, expect, it } from "vitest";
import { branchWords, categorize, categoryOfPath, dominantScope, dominantType, parseCommitMessage } from "@/server/ai/local/conventional";
import { localPRDescription, type DescriptionInput } from "@/server/ai/local/pr-description";
import { coAuthorsOf, localSquashMessage, parseAuthor } from "@/server/ai/local/squash";

const sha = (n: number) => n.toString(16).padStart(40, "a");

describe("parseCommitMessage", () => {
  it("reads type, scope, bang and subject; plain messages keep their first line", () => {
    expect(parseCommitMessage("feat(api): add pagination to list endpoints\n\nLong text.")).toMatchObject({
      type: "feat",
      scope: "api",
      breaking: false,
      subject: "add pagination to list endpoints",
      body: "Long text.",
    });
    expect(parseCommitMessage("Fix crash when the list is empty")).toMatchObject({
      type: null,
      scope: null,
      subject: "Fix crash when the list is empty",
    });
    // an unknown word before a colon is not a type
    expect(parseCommitMessage("Note: this is not conventional").type).toBeNull();
    expect(parseCommitMessage("FEAT: shout").type).toBe("feat");
  });

  it("finds breaking changes from '!' and BREAKING CHANGE footers (multi-line, ending at the next token)", () => {
    expect(parseCommitMessage("refactor(auth)!: drop the v1 token format")).toMatchObject({
      breaking: true,
      breakingNotes: ["drop the v1 token format"],
    });
    const footer = parseCommitMessage(
      "feat: new config loader\n\nBody.\n\nBREAKING CHANGE: `config.json` is no longer read;\nuse `svc.toml` instead.\nReviewed-by: Z\nRefs #12",
    );
    expect(footer.breaking).toBe(true);
    expect(footer.breakingNotes).toEqual(["`config.json` is no longer read; use `svc.toml` instead."]);
    expect(parseCommitMessage("fix: x\n\nBREAKING-CHANGE: y").breakingNotes).toEqual(["y"]);
  });

  it("marks merges and fixups", () => {
    expect(parseCommitMessage("Merge branch 'main' into topic").isMerge).toBe(true);
    expect(parseCommitMessage("fixup! feat: add x").isFixup).toBe(true);
  });
});

describe("categories", () => {
  it("come from the conventional type first, then paths, then the subject's verb, else chore", () => {
    expect(categorize(parseCommitMessage("perf: faster diff"))).toBe("refactor");
    expect(categorize(parseCommitMessage("fix: typo in README"), ["README.md"])).toBe("fix");
    expect(categorize(parseCommitMessage("Fix typo"), ["docs/guide.md", "README.md"])).toBe("docs");
    expect(categorize(parseCommitMessage("More cases"), ["src/app.test.ts", "test/unit/x.ts"])).toBe("test");
    expect(categorize(parseCommitMessage("Bump deps"), ["package.json", "package-lock.json"])).toBe("chore");
    expect(categorize(parseCommitMessage("Add search box"), ["src/search.tsx"])).toBe("feature");
    expect(categorize(parseCommitMessage("Handle empty input"), ["src/a.ts"])).toBe("fix");
    expect(categorize(parseCommitMessage("Rename helpers"), ["src/a.ts"])).toBe("refactor");
    expect(categorize(parseCommitMessage("Tweak things"), ["src/a.ts"])).toBe("chore");
    expect(categoryOfPath(".github/workflows/ci.yml")).toBe("chore");
    expect(categoryOfPath("tests/fixtures/readme.md")).toBe("test");
  });

  it("pick the dominant type and scope", () => {
    expect(dominantType(["fix", "docs", "feat", "fix"])).toBe("feat");
    expect(dominantType(["chore", "test"])).toBe("test");
    expect(dominantScope(["api", "api", null])).toBe("api");
    expect(dominantScope(["api", "ui"])).toBeNull();
    expect(branchWords("feature/user-search")).toBe("user search");
    expect(branchWords("patch-1")).toBeNull();
  });
});

function facts(messages: string[], extra: Partial<DescriptionInput> = {}): DescriptionInput {
  return {
    sourceBranch: "feature/paged-lists",
    targetBranch: "main",
    commits: messages.map((message, i) => ({ sha: sha(i + 1), message, paths: [] })),
    files: [
      { path: "server/api/list.ts", additions: 120, deletions: 10 },
      { path: "server/api/page.ts", additions: 40, deletions: 0 },
      { path: "docs/api.md", additions: 12, deletions: 2 },
    ],
    ...extra,
  };
}

describe("localPRDescription", () => {
  const history = [
    "feat(api): add cursor pagination to list endpoints",
    "fix(api): keep the order stable across pages",
    "docs: describe the cursor parameter",
    "test(api): cover empty pages",
    "fixup! feat(api): add cursor pagination to list endpoints",
    "Merge branch 'main' into feature/paged-lists",
  ];

  it("one commit: its subject is the title", () => {
    const d = localPRDescription(facts(["Greet the user by name\n\nFixes #3"]));
    expect(d.title).toBe("Greet the user by name");
    expect(d.changes).toEqual([{ category: "fix", description: "Greet the user by name" }]);
    expect(localPRDescription(facts(["fix(ui): align the avatar"])).title).toBe("fix(ui): align the avatar");
  });

  it("a conventional history: the most significant type and its scope; grouped changes; summary with counts and area", () => {
    const d = localPRDescription(facts(history));
    expect(d.title).toBe("feat(api): add cursor pagination to list endpoints");
    expect(d.changes.map((c) => c.category)).toEqual(["feature", "fix", "docs", "test"]);
    expect(d.changes[0]!.description).toBe("api: Add cursor pagination to list endpoints");
    expect(d.breakingChanges).toEqual([]);
    expect(d.summary).toContain("1 feature, 1 fix, 1 documentation change and 1 test change");
    expect(d.summary).toContain("6 commits, 3 files changed, +172 −12");
    expect(d.summary).toContain("mostly in server/api");
    expect(d.body).toContain("## Summary");
    expect(d.body).toContain("### Features\n\n- api: Add cursor pagination to list endpoints (aaaaaaa)");
    expect(d.body).toContain("### Bug fixes");
    expect(d.body).toContain("## Files");
    expect(d.body).not.toContain("fixup!");
    expect(d.body).not.toContain("Merge branch");
  });

  it("several commits of the dominant type take the branch's words", () => {
    const d = localPRDescription(facts(["feat(api): add cursors", "feat(api): add page size", "chore: bump"]));
    expect(d.title).toBe("feat(api): paged lists");
  });

  it("a plain history: the branch's words, categories from paths and verbs", () => {
    const d = localPRDescription({
      ...facts(["Add paging to lists", "Fix off-by-one in page count", "Update the guide"]),
      commits: [
        { sha: sha(1), message: "Add paging to lists", paths: ["server/api/list.ts"] },
        { sha: sha(2), message: "Fix off-by-one in page count", paths: ["server/api/page.ts"] },
        { sha: sha(3), message: "Update the guide", paths: ["docs/api.md"] },
      ],
    });
    expect(d.title).toBe("Paged lists");
    expect(d.changes.map((c) => c.category)).toEqual(["feature", "fix", "docs"]);
    // the conventional style makes a conventional title of a plain history
    expect(localPRDescription({ ...facts(["Add paging to lists"]), style: "conventional" }).title).toBe("feat: add paging to lists");
  });

  it("breaking changes from '!' and footers, flagged in the title and body", () => {
    const d = localPRDescription(
      facts(["feat(api)!: remove offset paging", "fix: y\n\nBREAKING CHANGE: page tokens expire after an hour"]),
    );
    expect(d.title).toBe("feat(api)!: remove offset paging");
    expect(d.breakingChanges).toEqual(["api: remove offset paging", "page tokens expire after an hour"]);
    expect(d.body).toContain("## Breaking changes");
    expect(d.summary).toContain("breaking changes");
  });

  it("honours the styles: concise bullets, detailed sections, conventional changelog", () => {
    const concise = localPRDescription({ ...facts(history), style: "concise" });
    expect(concise.body).not.toContain("##");
    expect(concise.body.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(4);
    const conventional = localPRDescription({ ...facts(history), style: "conventional" });
    expect(conventional.body).toContain("### Features\n\n- **api:** add cursor pagination to list endpoints (aaaaaaa)");
    expect(conventional.body).not.toContain("## Files");
    const detailed = localPRDescription({ ...facts(history), style: "detailed" });
    expect(detailed.body).toContain("## Files\n\n- `server/api/list.ts` (+120 −10)");
  });

  it("keeps what the author wrote: the title (unless conventional style needs one), the body first", () => {
    const d = localPRDescription({
      ...facts(history),
      existingTitle: "Paging for every list",
      existingBody: "Closes #12. Please review the cursor format.",
    });
    expect(d.title).toBe("Paging for every list");
    expect(d.body.startsWith("Closes #12. Please review the cursor format.\n\n---\n\n## Summary")).toBe(true);
    // asking again with that body does not repeat the generated part
    expect(localPRDescription({ ...facts(history), existingBody: d.body }).body).toBe(d.body);
    expect(localPRDescription({ ...facts(history), existingTitle: "Paging", style: "conventional" }).title).toMatch(/^feat\(api\): /);
    expect(localPRDescription({ ...facts(history), existingTitle: "fix: paging", style: "conventional" }).title).toBe("fix: paging");
    expect(localPRDescription({ ...facts(history), existingTitle: "   " }).title).toMatch(/^feat/);
  });

  it("notes commits it did not read", () => {
    const d = localPRDescription({ ...facts(["feat: a"]), totalCommits: 140 });
    expect(d.summary).toContain("140 commits");
    expect(d.body).toContain("…and 139 more commits not read");
  });
});

describe("localSquashMessage", () => {
  const commits = [
    { sha: sha(1), message: "feat(api): add cursors", author: "Ada Lovelace <ada@example.com>" },
    { sha: sha(2), message: "fix(api): stable order", author: "Grace Hopper <grace@example.com>" },
    { sha: sha(3), message: "test: cover pages", author: "GRACE HOPPER <Grace@Example.com>" },
    { sha: sha(4), message: "docs: cursors", author: "Linus <linus@example.com>" },
    { sha: sha(5), message: "Merge branch 'main'", author: "Ada Lovelace <ada@example.com>" },
    { sha: sha(6), message: "chore: tidy", author: "Nameless" },
  ];

  it("conventional: a type(scope) title, the commit list, co-authors deduplicated without the pull request's author", () => {
    const s = localSquashMessage({
      commits,
      style: "conventional",
      prTitle: "Cursor pagination",
      prAuthor: { name: "Ada Lovelace", email: "ada@example.com" },
      prNumber: 7,
    });
    expect(s.title).toBe("feat(api): cursor pagination (#7)");
    expect(s.coAuthors).toEqual(["Grace Hopper <grace@example.com>", "Linus <linus@example.com>"]);
    expect(s.body).toBe(
      [
        "* feat(api): add cursors",
        "* fix(api): stable order",
        "* test: cover pages",
        "* docs: cursors",
        "* chore: tidy",
        "",
        "Co-authored-by: Grace Hopper <grace@example.com>",
        "Co-authored-by: Linus <linus@example.com>",
      ].join("\n"),
    );
    expect(s.message).toBe(`${s.title}\n\n${s.body}`);
  });

  it("simple: the pull request title without a type prefix; default pr author is the first commit's", () => {
    const s = localSquashMessage({ commits, style: "simple", prTitle: "feat(api): cursor pagination" });
    expect(s.title).toBe("Cursor pagination");
    expect(s.coAuthors).not.toContain("Ada Lovelace <ada@example.com>");
    expect(localSquashMessage({ commits: [commits[1]!], style: "simple" }).title).toBe("Stable order");
  });

  it("defaults to conventional for a conventional title or history, simple otherwise; keeps a conventional title; breaking footers", () => {
    expect(localSquashMessage({ commits, prTitle: "fix: paging" }).title).toBe("fix: paging");
    const plain = [
      { sha: sha(1), message: "Add a thing", author: "A <a@x.io>" },
      { sha: sha(2), message: "Fix it", author: "B <b@x.io>" },
    ];
    expect(localSquashMessage({ commits: plain }).title).toBe("Add a thing");
    const br = localSquashMessage({
      commits: [{ sha: sha(1), message: "feat!: drop v1\n\nBREAKING CHANGE: v1 tokens refused", author: "A <a@x.io>" }],
    });
    expect(br.title).toBe("feat!: drop v1");
    expect(br.body).toContain("BREAKING CHANGE: v1 tokens refused");
  });

  it("parses author strings and dedupes co-authors by email", () => {
    expect(parseAuthor("Ada <ada@x.io>")).toEqual({ name: "Ada", email: "ada@x.io" });
    expect(parseAuthor("just a name")).toEqual({ name: "just a name", email: null });
    expect(
      coAuthorsOf(
        [
          { sha: "a", message: "x", author: "A <a@x.io>" },
          { sha: "b", message: "y", author: "A2 <A@X.io>" },
        ],
        null,
      ),
    ).toEqual(["A <a@x.io>"]);
  });
});

describe("prompt bounds and the merge box's input", () => {
  it("promptDiff keeps whole files within the budget and names or counts the rest", async () => {
    const { promptDiff } = await import("@/server/services/ai/generate-pr-description");
    const file = (p: string, n: number) => ({
      oldPath: p,
      newPath: p,
      status: "modified" as const,
      additions: n,
      deletions: 0,
      isBinary: false,
      isSubmodule: false,
      truncated: false,
      oldMode: "100644",
      newMode: "100644",
      oldSha: null,
      newSha: null,
      hunks: [
        {
          oldStart: 1,
          oldLines: 0,
          newStart: 1,
          newLines: n,
          header: "",
          lines: Array.from({ length: n }, (_, i) => ({ type: "add" as const, content: `line ${i} ${"x".repeat(500)}` })),
        },
      ],
    });
    const text = promptDiff(
      {
        diff: {
          files: [file("a.ts", 3), file("big.ts", 400), file("c.ts", 1)],
          totalFiles: 5,
          totalAdditions: 404,
          totalDeletions: 0,
          truncated: false,
        },
      },
      4_000,
    );
    expect(text.length).toBeLessThan(4_200);
    expect(text).toContain("--- a.ts (modified, +3 −0)");
    expect(text).toContain("--- big.ts (modified, +400 −0) [hunks left out]");
    expect(text).toContain("+line 0 ");
    expect(text).toContain("more changed files not shown]");
    // lines are cut at 300 characters
    expect(text.split("\n").every((l) => l.length <= 301 || l.startsWith("---"))).toBe(true);
  });

  it("squashCommitsInput sends authors as Name <email>", async () => {
    const { squashCommitsInput } = await import("@/components/pulls/merge-message");
    expect(
      squashCommitsInput([
        { sha: "abc1234", message: "x", author: "Ada", authorEmail: "ada@x.io" },
        { sha: "abc1235", message: "y", author: "Bob", authorEmail: "" },
      ]),
    ).toEqual([
      { sha: "abc1234", message: "x", author: "Ada <ada@x.io>" },
      { sha: "abc1235", message: "y", author: "Bob" },
    ]);
  });
});
