/**
 * The vitest "shared" project runs many test files in one process (vitest.config.ts): a file that
 * replaces modules, changes the process's environment or sets or reads module-level state (test
 * limits, cache statistics, process-wide counters) would leak into, or read, the files around it.
 * Such files must be listed in ISOLATED; this test finds them by their source.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED } from "@/vitest.config";

const root = path.resolve(import.meta.dirname, "../..");
const LEAKS = new RegExp(
  [
    // the environment and the module graph
    /process\.env\.[A-Z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env/.source,
    /vi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\(/.source,
    // module-level state: limits set for a test, resets, caches' statistics, process-wide counters
    /\bset[A-Z]\w*(Limits|Budget)\(|\breset[A-Z]\w*\(|\b\w+Stats\(|\bgitProcessCounts\b/.source,
  ].join("|"),
);

/** Every *.test.ts under `dir` (relative to the project root). */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe("vitest isolation list", () => {
  it("lists every test file that mocks modules, writes process.env or touches module-level state", () => {
    const files = [...testFiles("test/unit"), ...testFiles("test/integration"), ...testFiles("server"), ...testFiles("cli")];
    expect(files.length).toBeGreaterThan(100);
    const leaking = files.filter((f) => LEAKS.test(readFileSync(path.join(root, f), "utf8"))).sort();
    expect(leaking.filter((f) => !ISOLATED.includes(f))).toEqual([]);
  });

  it("names only files that exist", () => {
    const all = new Set([...testFiles("test"), ...testFiles("server"), ...testFiles("cli")]);
    expect(ISOLATED.filter((f) => !all.has(f))).toEqual([]);
  });
});
