/**
 * The git argument guard (userArg), ref/branch name validation against the real
 * `git check-ref-format` (git-check-ref-format(1)), user and repository name rules, and the
 * small pure helpers of the smart HTTP handler.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import os from "node:os";
import fc from "fast-check";
import { AppError } from "@/server/errors";
import { userArg } from "@/server/git/exec";
import { isValidBranchName, isValidRefName, branchNameProblem } from "@/server/git/refs";
import { repoNameProblem, usernameProblem } from "@/lib/names";
import { pktLine, protocolVersion, FLUSH_PKT } from "@/server/git/pkt-line";

/** What the real git says (run outside any repository, no config). */
function gitCheckRefFormat(args: string[]): boolean {
  const r = spawnSync("git", ["check-ref-format", ...args], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: "1", GIT_CEILING_DIRECTORIES: os.tmpdir(), LANG: "C" } as Record<
      string,
      string | undefined
    > as NodeJS.ProcessEnv,
  });
  return r.status === 0;
}

describe("userArg: user input never becomes a git option", () => {
  it("refuses a leading dash, empty values and control characters with BAD_REQUEST", () => {
    for (const bad of ["-x", "--upload-pack=touch /tmp/pwned", "--output=/etc/passwd", "-", "--", "", "a\0b", "main\n--force", "a\rb"]) {
      let error: unknown;
      try {
        userArg(bad, "ref");
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(bad)).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BAD_REQUEST");
      expect((error as AppError).message).toMatch(/^ref /);
    }
  });

  it("returns ordinary values unchanged", () => {
    for (const ok of [
      "main",
      "feature/x-1",
      "refs/heads/main",
      "a-b",
      "v1.0^{commit}",
      "dir with space/ファイル.md",
      "HEAD~3",
      "/abs/path/repo.git",
    ]) {
      expect(userArg(ok)).toBe(ok);
    }
  });

  it("never lets a dash-leading string through (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const v = "-" + s;
        expect(() => userArg(v)).toThrow(AppError);
      }),
    );
  });
});

describe("ref and branch names follow git check-ref-format", () => {
  const valid = ["main", "feature/x", "a/-x", "release-1.0", "héllo", "a@b", "a{b}", "a.b", "HEAD/x", "refs/heads/main", "x".repeat(255)];
  const invalid = [
    "",
    "@",
    "a/.b",
    ".a",
    "a..b",
    "a@{b",
    "@{-1}",
    "foo.lock",
    "a/b.lock/c",
    "x/",
    "/x",
    "x.",
    "a//b",
    "a b",
    "a~b",
    "a^b",
    "a:b",
    "a?b",
    "a*b",
    "a[b",
    "a\\b",
    "a\tb",
    "a\x7fb",
    "x".repeat(256),
  ];

  it("accepts and refuses the documented cases", () => {
    for (const n of valid) expect(isValidRefName(n), n).toBe(true);
    for (const n of invalid) expect(isValidRefName(n), n).toBe(false);
  });

  it("branch names additionally refuse a leading dash and HEAD", () => {
    expect(isValidBranchName("main")).toBe(true);
    expect(isValidBranchName("-x")).toBe(false);
    expect(isValidBranchName("HEAD")).toBe(false);
    expect(isValidRefName("HEAD")).toBe(true);
    expect(branchNameProblem("a..b")).toMatch(/not a valid branch name/);
    expect(branchNameProblem("ok/branch")).toBeNull();
  });

  it("agrees with the real git on the table", () => {
    for (const n of [...valid, ...invalid].filter((n) => n && n.length <= 255)) {
      expect(isValidRefName(n), `ref ${JSON.stringify(n)}`).toBe(gitCheckRefFormat(["--allow-onelevel", n]));
      // --branch also accepts "@" (it means HEAD there); svc never names a branch "@"
      if (n !== "@") expect(isValidBranchName(n), `branch ${JSON.stringify(n)}`).toBe(gitCheckRefFormat(["--branch", n]));
    }
  });

  it("agrees with the real git on generated names (property)", () => {
    const alphabet = fc.constantFrom(..."ab/.-@{}~^:?*[\\ lock\té".split(""), "..", ".lock", "@{", "//");
    fc.assert(
      fc.property(
        fc.array(alphabet, { minLength: 1, maxLength: 12 }).map((a) => a.join("")),
        (name) => {
          fc.pre(!name.startsWith("-") && name.length <= 255);
          expect(isValidRefName(name), JSON.stringify(name)).toBe(gitCheckRefFormat(["--allow-onelevel", name]));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("user and repository names", () => {
  it("usernames: 1–39 letters, digits or single inner hyphens; reserved words refused", () => {
    for (const ok of ["a", "alice", "Alice-Smith", "x1-y2-z3", "a".repeat(39)]) expect(usernameProblem(ok), ok).toBeNull();
    for (const bad of ["", "-alice", "alice-", "al--ice", "al_ice", "al.ice", "a".repeat(40), "ali ce", "älice", "a/b"]) {
      expect(usernameProblem(bad), bad).toMatch(/username must be/);
    }
    for (const reserved of ["api", "settings", "Trpc", "new"]) expect(usernameProblem(reserved)).toMatch(/reserved/);
  });

  it("repositories: 1–100 of letters, digits, . - _; not starting with . or -, not ending in .git", () => {
    for (const ok of ["svc", "my-repo", "my_repo", "repo.js", "_private", "A1", "x".repeat(100)])
      expect(repoNameProblem(ok), ok).toBeNull();
    for (const bad of ["", ".hidden", "-dash", "a b", "a/b", "..", ".", "x".repeat(101), "répo", "a:b"])
      expect(repoNameProblem(bad), bad).not.toBeNull();
    expect(repoNameProblem("project.git")).toMatch(/\.git/);
    expect(repoNameProblem("PROJECT.GIT")).toMatch(/\.git/);
    expect(repoNameProblem("feed.atom")).toMatch(/atom/);
  });
});

describe("smart HTTP helpers", () => {
  it("frames pkt-lines with a 4-hex-digit length that counts itself (byte length, not characters)", () => {
    expect(pktLine("# service=git-upload-pack\n").toString()).toBe("001e# service=git-upload-pack\n");
    expect(pktLine("é").toString("latin1").slice(0, 4)).toBe("0006");
    expect(FLUSH_PKT.toString()).toBe("0000");
  });

  it("reads the highest version=N of a Git-Protocol value", () => {
    expect(protocolVersion(undefined)).toBe(0);
    expect(protocolVersion("version=2")).toBe(2);
    expect(protocolVersion("version=1:version=2")).toBe(2);
    expect(protocolVersion("object-format=sha1:version=1")).toBe(1);
    expect(protocolVersion("version=x")).toBe(0);
  });
});
