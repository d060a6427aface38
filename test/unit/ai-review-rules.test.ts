/**
 * The local engine's AI review rules (server/ai/review-rules.ts) and the model review's grounding
 * (server/ai/review-model.ts): each rule on added lines only, the thresholds, the caps, the state.
 */
import { describe, expect, it } from "vitest";
import {
  LARGE_BINARY_BYTES,
  LARGE_PR_FILES,
  LARGE_PR_LINES,
  MAX_PER_FILE_RULE,
  debugStatement,
  isConflictMarker,
  isTestPath,
  reviewLocally,
  secretOn,
  todoMarker,
  type ReviewFile,
} from "@/server/ai/review-rules";
import { diffPrompt, groundFindings } from "@/server/ai/review-model";

/** A modified file adding `lines` (numbered from `from`). */
function file(path: string, lines: string[], extra: Partial<ReviewFile> = {}): ReviewFile {
  return {
    path,
    status: "modified",
    isBinary: false,
    additions: lines.length,
    deletions: 0,
    added: lines.map((text, i) => ({ line: i + 1, text })),
    ...extra,
  };
}
const review = (...files: ReviewFile[]) => reviewLocally({ files, totalFiles: files.length });
// built at run time so that this file holds no secret shapes itself
const svcToken = ["svc", "abcdEFGH", "0123456789abcdefghijABCDEFGHIJ0123"].join("_");
const aws = "AKIA" + "Z7QW3ER5TY2UI9OP";
const armour = "-".repeat(5) + "BEGIN RSA PRIVATE KEY" + "-".repeat(5);

describe("debug statements", () => {
  it("flags console.log, debugger, print, dbg!, var_dump, binding.pry, System.out.println per language", () => {
    expect(debugStatement("a.ts", "  console.log(x);")).toBe("console logging");
    expect(debugStatement("a.jsx", "debugger;")).toBe("a `debugger` statement");
    expect(debugStatement("a.py", "    print(value)")).toBe("a `print()` call");
    expect(debugStatement("a.py", "breakpoint()")).toBe("a debugger breakpoint");
    expect(debugStatement("a.rs", "let y = dbg!(x);")).toBe("a `dbg!` macro");
    expect(debugStatement("a.php", "var_dump($x);")).toBe("a dump call");
    expect(debugStatement("a.rb", "binding.pry")).toBe("a debugger breakpoint");
    expect(debugStatement("A.java", 'System.out.println("x");')).toBe("printing to the console");
  });
  it("ignores comments, other languages, command-line scripts and look-alikes", () => {
    expect(debugStatement("a.ts", "// console.log(x)")).toBeNull();
    expect(debugStatement("a.md", "console.log(x)")).toBeNull();
    expect(debugStatement("scripts/build.ts", "console.log('built')")).toBeNull();
    expect(debugStatement("a.ts", "logger.info(x)")).toBeNull();
    expect(debugStatement("a.py", "self.print_report()")).toBeNull();
  });
  it("a warning on the added line; a removed console.log (not among the added lines) gives nothing", () => {
    const r = review(file("src/a.ts", ["const a = 1;", "console.log(a);"]));
    expect(r.findings).toEqual([expect.objectContaining({ path: "src/a.ts", line: 2, severity: "warning", rule: "debug" })]);
    expect(r.state).toBe("commented");
    const removed = review({ ...file("src/a.ts", []), deletions: 1 });
    expect(removed.findings).toEqual([]);
  });
});

describe("TODO / FIXME", () => {
  it("flags added markers as info", () => {
    expect(todoMarker("// TODO: later")).toBe("TODO");
    expect(todoMarker("# FIXME broken")).toBe("FIXME");
    expect(todoMarker("const todos = [];")).toBeNull();
    expect(review(file("a.go", ["// FIXME: handle err"])).findings).toEqual([
      expect.objectContaining({ line: 1, severity: "info", rule: "todo" }),
    ]);
  });
});

describe("secrets", () => {
  it("recognises token and key shapes and never quotes them", () => {
    expect(secretOn(`const t = "${svcToken}"`)).toBe("an svc personal access token");
    expect(secretOn(`aws_access_key_id = ${aws}`)).toBe("an AWS access key id");
    expect(secretOn("AKIAIOSFODNN7EXAMPLE")).toBeNull(); // AWS's documented placeholder
    expect(secretOn("AIza" + "SyA1234567890abcdefghijklmnopqrstuv")).toBe("a Google API key");
    expect(secretOn("xox" + "b-123456789012-abcdefghij")).toBe("a Slack token");
    expect(secretOn("gh" + "p_" + "a".repeat(36))).toBe("a GitHub token");
    expect(secretOn(armour, ["MIIEpAIBAAKCAQEA75sF1bq2QXy5Wk0bN0mT9Xv1Z3a8Qk9wz1pLx7b2cE4dF6gH"])).toBe("a private key");
    expect(secretOn(`if (pem.startsWith("${armour}")) parse(pem)`)).toBeNull(); // the armour alone
  });
  it("an error finding and changes_requested; the message does not contain the secret", () => {
    const r = review(file("config.ts", [`export const token = "${svcToken}";`]));
    expect(r.state).toBe("changes_requested");
    expect(r.findings[0]).toMatchObject({ path: "config.ts", line: 1, severity: "error", rule: "secret" });
    expect(JSON.stringify(r)).not.toContain(svcToken);
  });
});

describe("conflict markers", () => {
  it("flags <<<<<<< and >>>>>>> at the start of an added line as errors", () => {
    expect(isConflictMarker("<<<<<<< HEAD")).toBe(true);
    expect(isConflictMarker(">>>>>>> topic")).toBe(true);
    expect(isConflictMarker("a <<<<<<< b")).toBe(false);
    const r = review(file("a.txt", ["<<<<<<< HEAD", "one", "=======", "two", ">>>>>>> topic"]));
    expect(r.findings.map((f) => [f.line, f.rule, f.severity])).toEqual([
      [1, "conflict", "error"],
      [5, "conflict", "error"],
    ]);
    expect(r.state).toBe("changes_requested");
  });
});

describe("files and totals", () => {
  it("flags a binary of LARGE_BINARY_BYTES or more, not a smaller one nor a deleted one", () => {
    const big = file("assets/video.bin", [], { isBinary: true, status: "added", size: LARGE_BINARY_BYTES });
    expect(review(big).findings).toEqual([
      expect.objectContaining({ path: "assets/video.bin", line: null, severity: "warning", rule: "binary" }),
    ]);
    expect(review({ ...big, size: LARGE_BINARY_BYTES - 1 }).findings).toEqual([]);
    expect(review({ ...big, status: "deleted" }).findings).toEqual([]);
  });
  it("source changed without tests: code lines and no test file; a touched test file silences it", () => {
    const code = file(
      "src/lib.ts",
      Array.from({ length: 12 }, (_, i) => `export const v${i} = ${i};`),
    );
    expect(review(code).findings).toEqual([expect.objectContaining({ path: null, line: null, rule: "tests", severity: "info" })]);
    expect(review(code, file("src/lib.test.ts", ["it('works', () => {});"])).findings).toEqual([]);
    expect(
      review(
        file(
          "README.md",
          Array.from({ length: 30 }, () => "text"),
        ),
      ).findings,
    ).toEqual([]);
    expect(isTestPath("pkg/thing_test.go")).toBe(true);
    expect(isTestPath("tests/test_api.py")).toBe(true);
    expect(isTestPath("src/contest.ts")).toBe(false);
  });
  it("very large: more than LARGE_PR_FILES files or LARGE_PR_LINES changed lines, lock files not counted", () => {
    const many = Array.from({ length: LARGE_PR_FILES + 1 }, (_, i) => file(`docs/f${i}.md`, ["x"]));
    expect(review(...many).findings.map((f) => f.rule)).toEqual(["size"]);
    expect(review(file("docs/a.md", [], { additions: LARGE_PR_LINES + 1 })).findings.map((f) => f.rule)).toEqual(["size"]);
    expect(review(file("package-lock.json", [], { additions: 50_000 })).findings).toEqual([]);
  });
});

describe("caps, order and body", () => {
  it("keeps MAX_PER_FILE_RULE findings per file and rule, counts all, orders errors first", () => {
    const logs = Array.from({ length: 9 }, (_, i) => `console.log(${i});`);
    const r = review(file("src/a.spec.ts", logs), file("src/b.ts", [`const k = "${aws}";`]));
    expect(r.findings.filter((f) => f.rule === "debug")).toHaveLength(MAX_PER_FILE_RULE);
    expect(r.counts).toMatchObject({ debug: 9, secret: 1 });
    expect(r.findings[0]!.rule).toBe("secret");
    expect(r.body).toContain("9 × debug statements");
    expect(r.body).toContain("Changes requested");
  });
  it("nothing to flag: commented with a plain summary", () => {
    const r = review(file("src/a.test.ts", ["expect(1).toBe(1);"]));
    expect(r).toMatchObject({ findings: [], state: "commented" });
    expect(r.body).toMatch(/found nothing to flag/);
  });
});

describe("model grounding", () => {
  const added = new Map([["src/a.ts", new Set([3, 4])]]);
  it("keeps findings on an added line of a changed file, drops the rest", () => {
    const { findings, dropped } = groundFindings(
      [
        { path: "src/a.ts", line: 3, severity: "warning", message: "null check missing" },
        { path: "src/a.ts", line: 9, severity: "error", message: "not an added line" },
        { path: "src/other.ts", line: 3, severity: "error", message: "not a changed file" },
        { path: "src/a.ts", line: 3, severity: "warning", message: "null check missing" },
      ],
      added,
    );
    expect(findings).toEqual([{ path: "src/a.ts", line: 3, severity: "warning", message: "null check missing", rule: "model" }]);
    expect(dropped).toBe(3);
  });
  it("the prompt numbers the new side and marks added lines", () => {
    const text = diffPrompt([
      {
        newPath: "src/a.ts",
        status: "modified",
        isBinary: false,
        hunks: [
          {
            oldStart: 1,
            oldLines: 2,
            newStart: 1,
            newLines: 2,
            header: "",
            lines: [
              { type: "context", content: "a" },
              { type: "delete", content: "b" },
              { type: "add", content: "c" },
            ],
          },
        ],
      },
    ]);
    expect(text).toContain("### src/a.ts (modified)");
    expect(text).toContain("    1| a");
    expect(text).toContain("-    | b");
    expect(text).toContain("+   2| c");
  });
});
