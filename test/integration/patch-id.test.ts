/**
 * patchIdOf (server/git/patch-id.ts; docs/pulls.md "Revisions") on a real repository: the same
 * added and removed lines have the same patch id after a rebase onto a base that moved them and
 * changed the lines right next to them (context lines do not count); another change of a line
 * gives another id; an empty diff and ids that are not object ids give null.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { patchIdOf } from "@/server/git/patch-id";
import { commitFiles, git, initWork, rev } from "./merge-fixtures";

const numbered = (edits: Record<number, string> = {}, before: Record<number, string> = {}) =>
  Array.from({ length: 20 }, (_, i) => [before[i + 1], edits[i + 1] ?? `line ${i + 1}`].filter((x) => x !== undefined).join("\n")).join(
    "\n",
  ) + "\n";

describe("patchIdOf", () => {
  it("ignores line numbers and the context next to the change; changes of the changed lines count", async () => {
    const work = initWork({ "a.txt": numbered() });
    const gitDir = path.join(work, ".git");
    const base = rev(work, "main");
    git(work, ["checkout", "-q", "-b", "feat"]);
    commitFiles(work, { "a.txt": numbered({ 10: "ten (feature)" }) }, "feature");
    const head = rev(work, "feat");
    // upstream: a line on top (everything moves) and one two lines below it (inside the change's context)
    git(work, ["checkout", "-q", "main"]);
    commitFiles(work, { "a.txt": numbered({ 12: "twelve (main)" }, { 1: "top" }) }, "upstream");
    const newBase = rev(work, "main");
    git(work, ["checkout", "-q", "-b", "rebased", head]);
    git(work, ["rebase", "-q", "main"]);
    const rebased = rev(work, "rebased");
    const id = await patchIdOf(gitDir, base, head);
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(await patchIdOf(gitDir, newBase, rebased)).toBe(id);
    commitFiles(work, { "a.txt": numbered({ 10: "ten (amended)", 12: "twelve (main)" }, { 1: "top" }) }, "amend");
    expect(await patchIdOf(gitDir, newBase, rev(work, "rebased"))).not.toBe(id);
    expect(await patchIdOf(gitDir, head, head)).toBeNull();
    expect(await patchIdOf(gitDir, "main", head)).toBeNull();
  });
});
