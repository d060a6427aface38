/**
 * server/git/merge-batch.ts `checkMerges` on a real repository: for a batch of pull request heads
 * (clean, conflicting, already merged, unrelated history, a missing commit) each outcome is
 * exactly what `checkMerge` answers for that pair alone, in input order — through
 * `merge-tree --stdin` where git has it, and through the bounded pool where it does not (git
 * 2.39 refuses `--stdin`: forcing it exercises the fallback for the merges git did not answer).
 */
import { describe, expect, it } from "vitest";
import { checkMerge, MergeError } from "@/server/git/merge";
import { checkMerges, type MergePair } from "@/server/git/merge-batch";
import { bareCopy, commitFiles, git, initWork, rev } from "./merge-fixtures";

function fixture() {
  const work = initWork({ "shared.txt": "one\ntwo\nthree\n", "a.txt": "a\n" });
  const heads: string[] = [];
  for (let i = 0; i < 3; i++) {
    git(work, ["checkout", "-q", "-b", `clean${i}`, "main"]);
    heads.push(commitFiles(work, { [`clean${i}.txt`]: `${i}\n` }, `clean ${i}`));
    git(work, ["checkout", "-q", "-b", `conflict${i}`, "main"]);
    heads.push(commitFiles(work, { "shared.txt": `one\nTWO ${i}\nthree\n` }, `conflict ${i}`));
  }
  git(work, ["checkout", "-q", "main"]);
  const old = rev(work, "main");
  const tip = commitFiles(work, { "shared.txt": "one\ntwo (main)\nthree\n" }, "main moves");
  git(work, ["checkout", "-q", "--orphan", "unrelated"]);
  const unrelated = commitFiles(work, { "z.txt": "z\n" }, "unrelated root");
  git(work, ["checkout", "-q", "main"]);
  return { bare: bareCopy(work), tip, heads, old, unrelated };
}

async function alone(gitDir: string, p: MergePair) {
  return checkMerge(gitDir, p.targetTip, p.head).catch((e: Error) => e);
}

describe("checkMerges", () => {
  it("answers every pair as checkMerge alone would, in order, with or without merge-tree --stdin", async () => {
    const { bare, tip, heads, old, unrelated } = fixture();
    const pairs: MergePair[] = [
      ...heads.map((head) => ({ targetTip: tip, head })),
      { targetTip: tip, head: old }, // already in main: nothing to merge
      { targetTip: tip, head: unrelated }, // no common history (git's --stdin stops the batch here)
      { targetTip: tip, head: heads[0] },
      { targetTip: tip, head: "f".repeat(40) }, // missing commit
      { targetTip: tip, head: "not-a-sha" },
    ];
    const expected = await Promise.all(pairs.slice(0, -1).map((p) => alone(bare, p)));
    for (const stdin of [undefined, true, false]) {
      const got = await checkMerges(bare, pairs, { stdin, concurrency: 3 });
      expect(got).toHaveLength(pairs.length);
      expect(got.slice(0, -1)).toEqual(expected);
      expect(got.at(-1)).toBeInstanceOf(MergeError);
    }
    // the fixture is what it claims: three clean, three conflicting in shared.txt
    expect(expected.slice(0, 6).map((c) => (c instanceof Error ? c.message : c.conflicts))).toEqual([
      [],
      ["shared.txt"],
      [],
      ["shared.txt"],
      [],
      ["shared.txt"],
    ]);
    expect(expected[6]).toMatchObject({ aheadBy: 0, behindBy: 1 });
    expect(expected[7]).toBeInstanceOf(MergeError);
    expect(expected[9]).toBeInstanceOf(MergeError);
    expect(await checkMerges(bare, [])).toEqual([]);
  });

  it("leaves no object in the repository: the batch's merges are written into an object quarantine", async () => {
    const { bare, tip, heads } = fixture();
    const loose = () => git(bare, ["count-objects", "-v"]).match(/^count: (\d+)$/m)![1];
    const before = loose();
    for (const stdin of [true, false]) {
      const got = await checkMerges(
        bare,
        heads.map((head) => ({ targetTip: tip, head })),
        { stdin },
      );
      expect(got.filter((c) => !(c instanceof Error) && c.conflicts.length > 0)).toHaveLength(3);
    }
    expect(loose()).toBe(before);
  });
});
