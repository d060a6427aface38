/** The agent page's reading of a proposed change's unified diff (components/agent/parse-diff.ts) and the Agent tab (repo-tabs). */
import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "@/components/agent/parse-diff";
import { tabOf } from "@/components/code/repo-tabs";

describe("parseUnifiedDiff", () => {
  it("reads a modify: hunks, line types, counts, no-newline marker", () => {
    const f = parseUnifiedDiff(
      [
        "diff --git a/src/a.ts b/src/a.ts",
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -1,3 +1,4 @@ function x",
        " one",
        "-two",
        "+TWO",
        "+2.5",
        " three",
        "\\ No newline at end of file",
        "",
      ].join("\n"),
      "src/a.ts",
    );
    expect(f.status).toBe("modified");
    expect(f.additions).toBe(2);
    expect(f.deletions).toBe(1);
    expect(f.hunks).toHaveLength(1);
    expect(f.hunks[0]).toMatchObject({ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, header: "function x" });
    expect(f.hunks[0]!.lines.map((l) => `${l.type}:${l.content}`)).toEqual([
      "context:one",
      "delete:two",
      "add:TWO",
      "add:2.5",
      "context:three",
    ]);
    expect(f.hunks[0]!.lines.at(-1)!.noNewlineAtEnd).toBe(true);
  });

  it("reads a create, a delete, a binary file and a truncated diff", () => {
    const created = parseUnifiedDiff(
      ["diff --git a/n.md b/n.md", "new file mode 100644", "--- /dev/null", "+++ b/n.md", "@@ -0,0 +1 @@", "+# N", ""].join("\n"),
      "n.md",
    );
    expect(created).toMatchObject({ status: "added", oldMode: null, additions: 1 });
    expect(created.hunks[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 });
    const deleted = parseUnifiedDiff(
      ["diff --git a/o b/o", "deleted file mode 100644", "--- a/o", "+++ /dev/null", "@@ -1 +0,0 @@", "-x", ""].join("\n"),
      "o",
    );
    expect(deleted).toMatchObject({ status: "deleted", newMode: null, deletions: 1 });
    expect(parseUnifiedDiff("diff --git a/i b/i\ndeleted file mode 100644\nBinary files a/i and /dev/null differ\n", "i").isBinary).toBe(
      true,
    );
    const cut = parseUnifiedDiff(
      ["--- a/b", "+++ b/b", "@@ -1 +1 @@", "-a", "+b", "\\ diff truncated at 262144 bytes", ""].join("\n"),
      "b",
    );
    expect(cut.truncated).toBe(true);
    expect(cut.hunks[0]!.lines).toHaveLength(2);
  });

  it("a header-only diff (no change to the content) has no hunks", () => {
    expect(parseUnifiedDiff("diff --git a/x b/x\n--- a/x\n+++ b/x\n", "x").hunks).toEqual([]);
  });
});

describe("repository tabs", () => {
  it("the agent page belongs to the Agent tab", () => {
    expect(tabOf("agent")).toBe("agent");
    expect(tabOf("search")).toBe("search");
  });
});
