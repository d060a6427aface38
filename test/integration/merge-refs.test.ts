/**
 * Branch tips and "has any branch" read from the ref files (server/git/ref-files.ts) agree with
 * git for loose, packed and missing refs; closing keywords (after-merge.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { branchTips, branchTipsViaGit } from "@/server/git/ref-files";
import { initBareRepository, isEmptyRepository } from "@/server/git/repository";
import { parseClosingRefs } from "@/server/services/pulls/after-merge";
import { squashMessage } from "@/server/services/pulls/merge";
import { bareCopy, commitFiles, git, initWork } from "./merge-fixtures";

describe("branchTips", () => {
  it("reads loose and packed refs like git for-each-ref; missing and invalid names are absent", async () => {
    const work = initWork({ "a.txt": "a\n" });
    git(work, ["branch", "nested/deep"]);
    git(work, ["branch", "packed"]);
    const bare = bareCopy(work);
    git(bare, ["pack-refs", "--all"]);
    git(work, ["checkout", "-q", "-b", "loose"]);
    const loose = commitFiles(work, { "b.txt": "b\n" }, "b");
    git(work, ["push", "-q", bare, "loose", "packed:refs/heads/packed2"]);
    git(bare, ["update-ref", "refs/heads/packed", loose]); // loose file now overrides the packed line
    const names = ["main", "nested/deep", "packed", "packed2", "loose", "missing", "nested", "../HEAD", "-x"];
    const tips = await branchTips(bare, names);
    expect(Object.fromEntries(tips)).toEqual(
      Object.fromEntries(
        await branchTipsViaGit(
          bare,
          names.filter((n) => !n.startsWith("-") && !n.includes("..")),
        ),
      ),
    );
    expect(tips.get("packed")).toBe(loose);
    expect(tips.has("missing") || tips.has("nested") || tips.has("../HEAD")).toBe(false);
    // a symbolic ref falls back to git
    writeFileSync(path.join(bare, "refs", "heads", "sym"), "ref: refs/heads/main\n");
    expect((await branchTips(bare, ["sym"])).get("sym")).toBe(tips.get("main"));
  });
});

describe("isEmptyRepository (hasBranch)", () => {
  it("answers as git for-each-ref does for an empty repository, loose, packed and nested branches, and lock files", async () => {
    const forEachRef = (dir: string) => git(dir, ["for-each-ref", "--count=1", "--format=%(objectname)", "refs/heads/"]).trim() === "";
    const work = initWork({ "a.txt": "a\n" });
    const bare = bareCopy(work);
    expect(await isEmptyRepository(bare)).toBe(false);
    git(bare, ["pack-refs", "--all"]); // no loose file left: the packed-refs line answers
    expect(await isEmptyRepository(bare)).toBe(forEachRef(bare));
    expect(await isEmptyRepository(bare)).toBe(false);

    const empty = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-empty-")), "e.git");
    await initBareRepository(empty, "main");
    expect(await isEmptyRepository(empty)).toBe(true);
    writeFileSync(path.join(empty, "refs", "heads", "main.lock"), `${"a".repeat(40)}\n`); // a ref update in flight
    expect(await isEmptyRepository(empty)).toBe(forEachRef(empty));
    expect(await isEmptyRepository(empty)).toBe(true);
    git(work, ["push", "-q", empty, "main:refs/heads/nested/deep"]);
    expect(await isEmptyRepository(empty)).toBe(false);
    // a symbolic ref is left to git
    rmSync(path.join(empty, "refs", "heads", "nested"), { recursive: true });
    writeFileSync(path.join(empty, "refs", "heads", "sym"), "ref: refs/heads/nothing\n");
    expect(await isEmptyRepository(empty)).toBe(forEachRef(empty));
  });

  it("reads the ref files without starting git (a folder git refuses as a repository still answers)", async () => {
    // only a ref store: git for-each-ref fails here ("not a git repository"), the ref files answer
    const dir = mkdtempSync(path.join(os.tmpdir(), "svc-refs-only-"));
    mkdirSync(path.join(dir, "refs", "heads"), { recursive: true });
    writeFileSync(path.join(dir, "refs", "heads", "main"), `${"b".repeat(40)}\n`);
    expect(await isEmptyRepository(dir)).toBe(false);
    // without a refs/heads folder the question goes to git, which fails as before
    await expect(isEmptyRepository(path.join(dir, "missing"))).rejects.toThrow(/for-each-ref/);
  });
});

describe("closing keywords", () => {
  it("finds GitHub's keywords with #N and owner/name#N, once each, and nothing else", () => {
    expect(
      parseClosingRefs([
        "Fixes #1, closes #2 and resolved: #3",
        "fix #1",
        "Closes acme/tools#7; see #4; prefixes #5; closes#6",
        "RESOLVES Acme/Tools#7",
      ]),
    ).toEqual([
      { repo: null, number: 1 },
      { repo: null, number: 2 },
      { repo: null, number: 3 },
      { repo: { owner: "acme", name: "tools" }, number: 7 },
    ]);
  });

  it("squash message lists the commits and credits other authors once", () => {
    const c = (author: string, authorEmail: string, message: string) => ({
      sha: "0".repeat(40),
      author,
      authorEmail,
      message,
      date: "2020-01-01T00:00:00.000Z",
    });
    expect(
      squashMessage("Title", 4, [c("Pat", "pat@x", "one\n\nbody"), c("Bob", "bob@x", "two"), c("Bob", "bob@x", "three")], {
        name: "Pat",
        email: "pat@x",
      }),
    ).toBe("Title (#4)\n\n* one\n* two\n* three\n\nCo-authored-by: Bob <bob@x>");
  });
});
