/** scripts/test-steps.mjs: how `npm test` counts vitest and Playwright results and runs steps side by side. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { playwrightCounts, runSteps, slowestLines, vitestCounts } from "@/scripts/test-steps.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-test-steps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const json = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe("vitestCounts", () => {
  const report = {
    numTotalTests: 5,
    numPassedTests: 3,
    numFailedTests: 2,
    testResults: [
      { name: "/repo/test/unit/a.test.ts", startTime: 1000, endTime: 1500 },
      {
        name: "/repo/test/integration/b.test.ts",
        startTime: 1000,
        endTime: 4000,
        status: "failed",
        assertionResults: [
          { status: "passed", fullName: "b works" },
          {
            status: "failed",
            fullName: "b > reads",
            failureMessages: ["\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at b.test.ts:9"],
          },
        ],
      },
      {
        name: "/repo/test/integration/c.test.ts",
        startTime: 1000,
        endTime: 1100,
        status: "failed",
        message: "\nCannot find module x",
        assertionResults: [],
      },
    ],
  };

  it("counts passed and failed tests; file times come from the file-times reporter when it wrote them", () => {
    const times = json("times.json", [
      { file: "/repo/test/unit/a.test.ts", ms: 700 },
      { file: "/repo/test/integration/b.test.ts", ms: 9000 },
    ]);
    expect(vitestCounts(json("v.json", report), times, "/repo")).toEqual({
      passed: 3,
      failed: 2,
      files: [
        { file: "test/unit/a.test.ts", ms: 700 },
        { file: "test/integration/b.test.ts", ms: 9000 },
      ],
      failures: [
        "test/integration/b.test.ts > b > reads: AssertionError: expected 1 to be 2",
        "test/integration/c.test.ts: Cannot find module x",
      ],
    });
  });

  it("falls back to the report's spans, and counts a run without tests or without a report as 1 failed", () => {
    expect(vitestCounts(json("v.json", report), path.join(dir, "none.json"), "/repo").files).toEqual([
      { file: "test/unit/a.test.ts", ms: 500 },
      { file: "test/integration/b.test.ts", ms: 3000 },
      { file: "test/integration/c.test.ts", ms: 100 },
    ]);
    const empty = { numTotalTests: 0, numPassedTests: 0, numFailedTests: 0, testResults: [] };
    expect(vitestCounts(json("e.json", empty), "", "/repo")).toMatchObject({ passed: 0, failed: 1 });
    expect(vitestCounts(path.join(dir, "missing.json"), "", "/repo")).toMatchObject({ passed: 0, failed: 1, files: [] });
  });
});

describe("playwrightCounts", () => {
  const result = (duration: number) => ({ duration });
  const report = (stats: object) => ({
    stats,
    suites: [
      {
        file: "a.spec.ts",
        specs: [
          {
            title: "retried",
            line: 7,
            tests: [
              { status: "flaky", results: [{ duration: 1000, error: { message: "Error: read ECONNRESET\nCall log:" } }, result(1500)] },
            ],
          },
        ],
        suites: [{ specs: [{ title: "fine", line: 20, tests: [{ status: "expected", results: [result(500)] }] }] }],
      },
      { file: "b.spec.ts", specs: [{ title: "broken", line: 3, tests: [{ status: "unexpected", results: [result(200)] }] }] },
    ],
  });

  it("counts flaky tests (passed on a retry) as failed and sums each file's attempts, nested suites too", () => {
    expect(playwrightCounts(json("p.json", report({ expected: 4, unexpected: 1, flaky: 2, skipped: 1 })), "e2e")).toEqual({
      passed: 4,
      failed: 3,
      files: [
        { file: "e2e/a.spec.ts", ms: 3000 },
        { file: "e2e/b.spec.ts", ms: 200 },
      ],
      failures: ["e2e/a.spec.ts:7 › retried (flaky: passed on a retry): Error: read ECONNRESET", "e2e/b.spec.ts:3 › broken (failed)"],
    });
  });

  it("counts a run where nothing passed, or without a report, as 1 more failed", () => {
    expect(playwrightCounts(json("p.json", report({ expected: 0, unexpected: 2, flaky: 0 })), "e2e")).toMatchObject({
      passed: 0,
      failed: 3,
    });
    expect(playwrightCounts(path.join(dir, "missing.json"), "e2e")).toMatchObject({ passed: 0, failed: 1, files: [] });
  });
});

it("slowestLines lists the n slowest rows, slowest first", () => {
  const rows = [5, 1, 9, 3].map((s, i) => ({ run: i % 2 ? "playwright" : "vitest (SQLite)", file: `f${i}`, ms: s * 1000 }));
  expect(slowestLines(rows, 2)).toEqual(["   9.0 s  vitest (SQLite)  f2", "   5.0 s  vitest (SQLite)  f0"]);
});

it("runSteps side by side prefixes every line with its step's tag and reports each exit", async () => {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const node = (label: string, tag: string, code: string) => ({
      label,
      tag,
      cmd: process.execPath,
      args: ["-e", code],
      cwd: dir,
      env: process.env,
    });
    const results = await runSteps(
      [node("one", "A", 'process.stdout.write("a1\\na2\\npartial")'), node("two", "B", 'console.log("b1"); process.exit(3)')],
      true,
    );
    expect(results.map((r) => r.ok)).toEqual([true, false]);
  } finally {
    write.mockRestore();
    log.mockRestore();
    error.mockRestore();
  }
  const lines = out.join("").split("\n").filter(Boolean).sort();
  expect(lines).toEqual(["[A] a1", "[A] a2", "[A] partial", "[B] b1"]);
});
