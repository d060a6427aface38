/**
 * Git LFS files on every diff surface (docs/lfs.md "In the browser"): repos.commit,
 * repos.compare, their hunk pages, pulls.getDiffPage, pulls.getDiffFiles and the interdiff between
 * two revisions (pulls.compareRevisions and its pages, a replay included) show a changed pointer
 * file as its objects' content diff (text), a size change (binary), or the pointer diff when the
 * repository does not reference the objects — the same as pulls.getDiff. Real git, real database.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { setPatchCacheLimits } from "@/server/git/diff-patch-cache";
import { updatePullsAfterPush } from "@/server/services/pulls/after-push";
import { repoGitDir } from "@/server/git/paths";
import { gitText } from "@/server/git/exec";
import type { DiffFile } from "@/server/git/diff-types";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { commitBlobs, hashBytes } from "../big-blob";
import { storeObject } from "../lfs-objects";

let owner: Profile;
let repoId: string;
let pullId: string;
let headSha: string;
let baseSha: string;
let otherId: string;
let gitDir: string;
/** Writes `content` as an LFS object referenced by `repos` and its pointer as a blob; returns the blob id. */
const blob = async (content: Buffer | string, repos: string[]) => hashBytes(gitDir, await storeObject(content, repos));

const TEXT_V1 = "alpha\nbeta\ngamma\n";
const TEXT_V2 = "alpha\nBETA\ngamma\ndelta\nepsilon\n";
const PNG_V1 = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(40, 0)]);
const PNG_V2 = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(90, 1)]);
const TEXT_V3 = "alpha\nBETA\ngamma\ndelta\nEPSILON\n";
const PNG_V3 = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(120, 0)]);

type Lfs = DiffFile["lfs"];
type Listed = { newPath: string; additions: number; deletions: number; lfs?: Lfs };
type Paged = { index: number; newPath: string; hunks: { lines: string[] }[]; lfs?: Lfs };

beforeAll(async () => {
  owner = await makeUser("lfsdiff");
  const caller = await callerFor(actorOf(owner));
  repoId = (await caller.repos.create({ name: "surfaces", isPrivate: false })).id;
  otherId = (await caller.repos.create({ name: "hidden", isPrivate: true })).id;
  gitDir = repoGitDir(owner.username, "surfaces");
  const base = await commitBlobs(gitDir, "main", {
    "code.txt": await blob(TEXT_V1, [repoId]),
    "logo.png": await blob(PNG_V1, [repoId]),
    "plain.txt": await hashBytes(gitDir, "one\n"),
    "secret.txt": await blob("secret one\n", [otherId]), // referenced only by the private repository
  });
  baseSha = base;
  await gitText(["update-ref", "refs/heads/feature", base], { gitDir });
  headSha = await commitBlobs(gitDir, "feature", {
    "code.txt": await blob(TEXT_V2, [repoId]),
    "logo.png": await blob(PNG_V2, [repoId]),
    "plain.txt": await hashBytes(gitDir, "two\n"),
    "secret.txt": await blob("secret two, longer\n", [otherId]),
  });
  const pr = await caller.pulls.create({ repoId, title: "bump", sourceBranch: "feature", targetBranch: "main", headSha, baseSha: base });
  pullId = pr.id;
}, 60_000);

/** Checks a file list (whole diff or file list) shows the objects, not the pointers. */
function expectListed(files: Listed[]) {
  const by = (p: string) => files.find((f) => f.newPath === p)!;
  expect(by("code.txt")).toMatchObject({ additions: 3, deletions: 1, lfs: { content: true, old: { size: TEXT_V1.length } } });
  expect(by("logo.png")).toMatchObject({ additions: 0, deletions: 0, lfs: { content: false, new: { size: PNG_V2.length, stored: true } } });
  // not referenced by this repository: the pointer's counts (oid and size lines), marked not stored
  expect(by("secret.txt")).toMatchObject({ additions: 2, deletions: 2, lfs: { content: false, old: { stored: false } } });
  expect(by("plain.txt").lfs).toBeUndefined();
}

/** Checks pages' files show the objects' lines (text), none (binary), or the pointer (not referenced). */
function expectPaged(files: Paged[]) {
  const lines = (p: string) => files.find((f) => f.newPath === p)!.hunks.flatMap((h) => h.lines);
  expect(lines("code.txt").filter((l) => l[0] === "+" || l[0] === "-")).toEqual(["-beta", "+BETA", "+delta", "+epsilon"]);
  expect(files.find((f) => f.newPath === "code.txt")!.lfs).toMatchObject({ content: true });
  expect(lines("logo.png")).toEqual([]);
  expect(files.find((f) => f.newPath === "logo.png")!.lfs).toMatchObject({ content: false });
  expect(lines("secret.txt").some((l) => l.startsWith("+oid sha256:"))).toBe(true);
  expect(lines("secret.txt").join("\n")).not.toContain("secret two");
  expect(lines("plain.txt")).toEqual(["-one", "+two"]);
}

/** Every file of a diff read page by page, one file per page (so later pages run git on their own files). */
async function allPages(page: (cursor: string) => Promise<{ files: Paged[]; nextCursor: string | null }>): Promise<Paged[]> {
  const out: Paged[] = [];
  for (let cursor: string | null = "0"; cursor !== null;) {
    const p = await page(cursor);
    out.push(...p.files);
    cursor = p.nextCursor;
  }
  return out;
}

afterEach(() => setPatchCacheLimits());

describe("LFS files on every diff surface", () => {
  it("pulls.getDiffFiles counts the objects' lines, and totals follow", async () => {
    const caller = await callerFor(actorOf(owner));
    const list = await caller.pulls.getDiffFiles({ prId: pullId });
    expectListed(list.files);
    expect(list.totalAdditions).toBe(3 + 0 + 1 + 2);
    expect(list.totalDeletions).toBe(1 + 0 + 1 + 2);
    const diff = await caller.pulls.getDiff({ prId: pullId });
    expectListed(diff.files);
    expect([diff.totalAdditions, diff.totalDeletions]).toEqual([list.totalAdditions, list.totalDeletions]);
  });

  it("pulls.getDiffPage pages the objects' content diff", async () => {
    const caller = await callerFor(actorOf(owner));
    const first = await caller.pulls.getDiffPage({ prId: pullId });
    expectPaged(first.files);
    expectPaged(await allPages((cursor) => caller.pulls.getDiffPage({ prId: pullId, cursor, limit: 1 })));
    // pages with the patch cache off (git runs for them)
    setPatchCacheLimits({ maxBytes: 0 });
    expectPaged(await allPages((cursor) => caller.repos.compareDiffPage({ repoId, base: "main", head: "feature", cursor, limit: 2 })));
  });

  it("repos.commit and repos.commitDiffPage show the objects", async () => {
    const caller = await callerFor(null);
    const commit = await caller.repos.commit({ repoId, sha: headSha });
    expectListed(commit.diff.files);
    const code = commit.diff.files.find((f) => f.newPath === "code.txt")!;
    expect(
      code.hunks
        .flatMap((h) => h.lines)
        .filter((l) => l.type === "add")
        .map((l) => l.content),
    ).toEqual(["BETA", "delta", "epsilon"]);
    expectPaged(await allPages((cursor) => caller.repos.commitDiffPage({ repoId, sha: headSha, cursor, limit: 1 })));
  });

  it("repos.compare and repos.compareDiffPage show the objects", async () => {
    const caller = await callerFor(null);
    const compared = await caller.repos.compare({ repoId, base: "main", head: "feature" });
    expectListed(compared.diff.files);
    expect(compared.diff.totalAdditions).toBe(6);
    expectPaged(await allPages((cursor) => caller.repos.compareDiffPage({ repoId, base: "main", head: "feature", cursor, limit: 1 })));
    // a `paths` answer (not every file) keeps git's totals and still shows the file as its object
    const one = await caller.repos.compare({ repoId, base: "main", head: "feature", paths: ["code.txt"] });
    expect(one.diff.files).toHaveLength(1);
    expect(one.diff.files[0]).toMatchObject({ additions: 3, deletions: 1, lfs: { content: true } });
  });

  it("pulls.compareRevisions and its pages show the objects' interdiff, across a replay onto a moved base", async () => {
    const caller = await callerFor(actorOf(owner));
    // a pull request of its own (the other tests' branches stay put): revision 1 is `feature`'s head onto `trunk`
    await gitText(["update-ref", "refs/heads/trunk", baseSha], { gitDir });
    await gitText(["update-ref", "refs/heads/revised", headSha], { gitDir });
    const pr = await caller.pulls.create({ repoId, title: "revised", sourceBranch: "revised", targetBranch: "trunk", headSha, baseSha });
    // trunk moves (a new file), and the change is rebased onto it with code.txt and logo.png changed again: revision 2
    const unchanged = {
      "plain.txt": await hashBytes(gitDir, "two\n"),
      "secret.txt": await blob("secret two, longer\n", []),
      "other.txt": await hashBytes(gitDir, "upstream\n"),
    };
    const trunk = await commitBlobs(gitDir, "trunk", {
      "code.txt": await blob(TEXT_V1, []),
      "logo.png": await blob(PNG_V1, []),
      "plain.txt": await hashBytes(gitDir, "one\n"),
      "secret.txt": await blob("secret one\n", []),
      "other.txt": unchanged["other.txt"],
    });
    await gitText(["update-ref", "refs/heads/revised", trunk], { gitDir });
    const revised = await commitBlobs(gitDir, "revised", {
      ...unchanged,
      "code.txt": await blob(TEXT_V3, [repoId]),
      "logo.png": await blob(PNG_V3, [repoId]),
    });
    await updatePullsAfterPush(await getDb(), repoId, gitDir, [
      { ref: "refs/heads/trunk", oldSha: baseSha, newSha: trunk },
      { ref: "refs/heads/revised", oldSha: headSha, newSha: revised },
    ]);
    expect((await caller.pulls.revisions({ prId: pr.id })).map((r) => r.number)).toEqual([1, 2]);

    const inter = await caller.pulls.compareRevisions({ prId: pr.id, from: 1, to: 2 });
    expect(inter).toMatchObject({ replayed: true, rebaseConflicted: false, empty: false });
    expect(inter.files.map((f) => f.newPath).sort()).toEqual(["code.txt", "logo.png"]);
    const code = inter.files.find((f) => f.newPath === "code.txt")!;
    expect(code).toMatchObject({
      additions: 1,
      deletions: 1,
      lfs: { content: true, old: { size: TEXT_V2.length }, new: { size: TEXT_V3.length } },
    });
    const changed = (lines: { type: string; content: string }[]) => lines.filter((l) => l.type !== "context").map((l) => l.content);
    expect(changed(code.hunks.flatMap((h) => h.lines))).toEqual(["epsilon", "EPSILON"]);
    const logo = inter.files.find((f) => f.newPath === "logo.png")!;
    expect(logo).toMatchObject({
      additions: 0,
      deletions: 0,
      hunks: [],
      lfs: { content: false, new: { size: PNG_V3.length, stored: true } },
    });
    expect([inter.totalAdditions, inter.totalDeletions]).toEqual([1, 1]);

    const paged = await allPages((cursor) => caller.pulls.compareRevisionsPage({ prId: pr.id, from: 1, to: 2, cursor, limit: 1 }));
    const pagedCode = paged.find((f) => f.newPath === "code.txt")!;
    expect(pagedCode.lfs).toMatchObject({ content: true });
    expect(pagedCode.hunks.flatMap((h) => h.lines).filter((l) => l[0] === "+" || l[0] === "-")).toEqual(["-epsilon", "+EPSILON"]);
    expect(paged.find((f) => f.newPath === "logo.png")).toMatchObject({ hunks: [], lfs: { content: false } });
    // the objects of this repository only: after they are unlinked the interdiff shows the pointers again
    await (await getDb()).lfsRepoObject.deleteMany({ where: { repoId, oid: code.lfs!.new!.oid } });
    const pointers = await caller.pulls.compareRevisions({ prId: pr.id, from: 1, to: 2, paths: ["code.txt"] });
    expect(pointers.files[0]).toMatchObject({ lfs: { content: false, new: { stored: false } } });
    expect(changed(pointers.files[0]!.hunks.flatMap((h) => h.lines)).some((l) => l.startsWith("oid sha256:"))).toBe(true);
  });
});
