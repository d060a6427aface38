/**
 * The path rule for every path svc writes into a tree (server/git/verify-path.ts): git's
 * verify_path with core.protectHFS and core.protectNTFS on, for regular files. Each case is also
 * given to the real `git update-index` with both settings on, so the port is checked against git
 * itself; the agent's path rule (normaliseAgentPath) refuses every path refused here; and the
 * tree writer every svc writer goes through (writeTreeWithChanges) refuses them too.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verifyPath } from "@/server/git/verify-path";
import { normaliseAgentPath } from "@/server/services/agent/paths";
import { writeTreeWithChanges } from "@/server/git/edit-files";
import { AppError } from "@/server/errors";

const ACCEPTED = [
  "README.md",
  "a/b/c.txt",
  ".gitignore",
  ".gitmodules", // refused by git for symbolic links only; svc writes regular files
  ".github/workflows/ci.yml",
  ".gitx/y",
  "git/x",
  "git~2/x",
  "a.git/x",
  "x.git",
  "..a/b",
  "...",
  "a/.git-blame-ignore-revs",
  "d\u200cocs/x.md", // an ignorable code point away from ".git" is only a name
  "\u00e9t\u00e9.txt",
];

/** Refused by svc and by git (protectHFS + protectNTFS). */
const REFUSED = [
  ".git/config",
  ".GIT/config",
  "src/.GiT/hooks/pre-commit",
  ".git",
  ".g\u200cit/hooks/x",
  ".g\u200cit/hooks/pre-commit",
  ".\u200dgit/x",
  ".git\u200e/x",
  "\ufeff.git/x",
  ".G\u202aI\u206fT/config",
  "a/.g\u200fit",
  ".git./x",
  ".git ./x",
  "a/.git . . /x",
  "git~1/config",
  "GIT~1/config",
  "git~1. /x",
  ".git::$INDEX_ALLOCATION/x",
  ".git:stream",
  "Git~1:stream/x",
  "a\\.git\\x",
  "a\\git~1\\config",
  "a//b",
  "a/",
  "./a",
  "a/./b",
  "a/../b",
  "..",
  "/etc/passwd",
];

/** Refused by svc beyond what git checks on Linux: NUL (cannot reach git), the empty path, a drive letter (git checks it on Windows). */
const REFUSED_SVC_ONLY = ["", "a\0b", "C:/x.txt", "c:x"];

const repo = mkdtempSync(path.join(os.tmpdir(), "verify-path-"));
execFileSync("git", ["init", "-q", repo]);
const blob = execFileSync("git", ["-C", repo, "hash-object", "-w", "--stdin"], { input: "x\n" }).toString().trim();
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** Whether git itself stores `p` as a regular file with protectHFS and protectNTFS on. */
function gitAccepts(p: string): boolean {
  const r = spawnSync(
    "git",
    [
      "-C",
      repo,
      "-c",
      "core.protectHFS=true",
      "-c",
      "core.protectNTFS=true",
      "update-index",
      "--add",
      "--cacheinfo",
      `100644,${blob},${p}`,
    ],
    { encoding: "utf8" },
  );
  return r.status === 0;
}

describe("verifyPath", () => {
  it.each(ACCEPTED)("accepts %j, as git does", (p) => {
    expect(verifyPath(p)).toBeNull();
    expect(gitAccepts(p)).toBe(true);
  });

  it.each(REFUSED)("refuses %j, as git does", (p) => {
    expect(verifyPath(p)).toEqual(expect.any(String));
    expect(gitAccepts(p)).toBe(false);
  });

  it.each(REFUSED_SVC_ONLY)("refuses %j", (p) => {
    expect(verifyPath(p)).toEqual(expect.any(String));
  });

  it("says why", () => {
    expect(verifyPath(".g\u200cit/hooks/x")).toContain(".git");
    expect(verifyPath("git~1/config")).toContain(".git");
    expect(verifyPath("a//b")).toContain("empty component");
    expect(verifyPath("a/../b")).toContain('".."');
    expect(verifyPath("/x")).toContain("absolute");
  });
});

describe("the agent's path rule uses it", () => {
  // the agent normalises "a/./b" and "a/../b" first; every other refused path stays refused
  const normalisable = new Set(["./a", "a/./b", "a/../b", "a//b"]);
  it.each([...REFUSED, ...REFUSED_SVC_ONLY].filter((p) => !normalisable.has(p)))("refuses %j", (p) => {
    expect(() => normaliseAgentPath(p)).toThrow();
  });

  it("refuses an HFS+ spelling of .git with the reason", () => {
    expect(() => normaliseAgentPath(".g\u200cit/hooks/pre-commit")).toThrow(/\.git/);
  });
});

describe("writeTreeWithChanges (agent approvals, suggestions, conflict resolutions)", () => {
  it("refuses a path git on Linux would store, before writing anything", async () => {
    execFileSync("git", ["-C", repo, "read-tree", "--empty"]);
    const empty = execFileSync("git", ["-C", repo, "write-tree"]).toString().trim();
    const gitDir = path.join(repo, ".git");
    const ok = await writeTreeWithChanges(gitDir, empty, [{ path: "a/b.txt", mode: "100644", content: Buffer.from("b\n") }]);
    expect(execFileSync("git", ["-C", repo, "ls-tree", "-r", "--name-only", ok]).toString()).toBe("a/b.txt\n");
    for (const bad of [".g\u200cit/hooks/pre-commit", "git~1/config", ".git::$INDEX_ALLOCATION/x"]) {
      const err = await writeTreeWithChanges(gitDir, empty, [{ path: bad, mode: "100644", content: Buffer.from("x\n") }]).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("BAD_REQUEST");
      expect((err as AppError).message).toContain(".git");
    }
  });
});
