/** Branch tips read from the ref files (server/git/ref-files.ts) agree with git for loose, packed and missing refs; closing keywords (after-merge.ts). */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { branchTips, branchTipsViaGit } from "@/server/git/ref-files";
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
