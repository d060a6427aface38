/**
 * Git LFS objects from a fork (docs/lfs.md "Forks"): a contributor's object uploaded to their fork
 * only is shown in the pull request into the parent (pulls.getDiff, getDiffFiles, getDiffPage and
 * the interdiff between revisions read the source's rows too), and merging the pull request links
 * it to the parent, so the parent's batch API answers a download for it — merge commit, squash,
 * rebase and auto-merge alike. An object the fork never linked is not linked by the merge; a
 * squash links only what its tree holds.
 * Real git, real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { gitText } from "@/server/git/exec";
import { parseLfsPointer } from "@/lib/lfs-pointer";
import { planBatch } from "@/server/services/lfs/plan-batch";
import { linkMergedLfsObjects, mergedLfsOids } from "@/server/services/lfs/link-merged-objects";
import { inTransaction } from "@/server/db/transaction";
import { runAutoMerge } from "@/server/services/pulls/run-auto-merge";
import { updatePullsAfterPush } from "@/server/services/pulls/after-push";
import { commitBlobs, hashBytes } from "../big-blob";
import { storeObject } from "../lfs-objects";
import { member, type Member } from "./pulls-fixtures";

let alice: Member, bob: Member;
let app: { id: string; name: string };
let fork: { id: string; name: string };
let appDir: string;
let forkDir: string;
let hiddenId: string;
let base: string;

const target = { baseHref: "http://svc.test/x/y.git/info/lfs", header: {}, expiresIn: 60 };

/** The oid of a pointer text. */
const oidOf = (pointer: string) => parseLfsPointer(pointer)!.oid;

/** What the parent's batch API answers for a download of `pointer`'s object: "download" or the error code. */
async function parentDownload(pointer: string): Promise<string | number> {
  const p = parseLfsPointer(pointer)!;
  const [out] = await planBatch(await getDb(), app.id, "download", [{ oid: p.oid, size: p.size }], target);
  return out.actions?.download ? "download" : out.error!.code;
}

/**
 * A branch `name` of the fork from the parent's main with `files` (name → content) added in one
 * commit; `lfs` names stored as LFS objects referenced by `repos` (default: the fork only). Then
 * the pull request into the parent's main. Returns the pull request id and the pointers by name.
 */
async function forkPull(name: string, files: Record<string, string>, lfs: Record<string, string[]> = {}) {
  await gitText(["update-ref", `refs/heads/${name}`, base], { gitDir: forkDir });
  const pointers: Record<string, string> = {};
  const blobs: Record<string, string> = { "README.md": await hashBytes(forkDir, "app\n") };
  for (const [file, content] of Object.entries(files)) {
    if (file in lfs || file.endsWith(".bin")) {
      pointers[file] = await storeObject(content, lfs[file] ?? [fork.id]);
      blobs[file] = await hashBytes(forkDir, pointers[file]);
    } else blobs[file] = await hashBytes(forkDir, content);
  }
  const headSha = await commitBlobs(forkDir, name, blobs);
  const pr = await bob.as.pulls.create({
    repoId: app.id,
    sourceRepoId: fork.id,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha,
    baseSha: base,
  });
  return { prId: pr.id, pointers, headSha };
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([member("lfa"), member("lfb")]);
  app = await alice.as.repos.create({ name: `app${Math.random().toString(36).slice(2, 8)}` });
  appDir = repoGitDir(alice.user.username, app.name);
  base = await commitBlobs(appDir, "main", { "README.md": await hashBytes(appDir, "app\n") });
  hiddenId = (await alice.as.repos.create({ name: `hid${Math.random().toString(36).slice(2, 8)}`, isPrivate: true })).id;
  fork = await bob.as.repos.fork({ repoId: app.id });
  forkDir = repoGitDir(bob.user.username, fork.name);
}, 60_000);

describe("LFS objects of a pull request from a fork", () => {
  it("shows the fork's object in the pull request's diff, and a merge commit links it to the parent", async () => {
    const { prId, pointers } = await forkPull(
      "merge-commit",
      { "data.bin": "merge commit object\n", "other.bin": "uploaded elsewhere\n" },
      { "other.bin": [hiddenId] },
    );
    expect(await parentDownload(pointers["data.bin"])).toBe(404);
    // (a) the diff surfaces read the fork's rows: the object, stored, with its content diff
    const shown = { lfs: { content: true, new: { oid: oidOf(pointers["data.bin"]), stored: true } }, additions: 1 };
    const notShown = { lfs: { content: false, new: { stored: false } } };
    const diff = await alice.as.pulls.getDiff({ prId });
    const by = (files: { newPath: string }[], p: string) => files.find((f) => f.newPath === p);
    expect(by(diff.files, "data.bin")).toMatchObject(shown);
    expect(by(diff.files, "other.bin")).toMatchObject(notShown);
    const list = await alice.as.pulls.getDiffFiles({ prId });
    expect(by(list.files, "data.bin")).toMatchObject(shown);
    expect(by(list.files, "other.bin")).toMatchObject(notShown);
    const page = await alice.as.pulls.getDiffPage({ prId });
    const paged = page.files.find((f) => f.newPath === "data.bin")!;
    expect(paged.lfs).toMatchObject({ content: true });
    expect(paged.hunks.flatMap((h) => h.lines)).toEqual(["+merge commit object"]);
    // (b) merged: the parent serves the fork's object; never one the fork did not link
    await alice.as.pulls.merge({ prId, strategy: "merge" });
    expect(await parentDownload(pointers["data.bin"])).toBe("download");
    expect(await parentDownload(pointers["other.bin"])).toBe(404);
    base = (await gitText(["rev-parse", "refs/heads/main"], { gitDir: appDir })).trim();
  });

  it("links the object on a squash merge", async () => {
    const { prId, pointers } = await forkPull("squash", { "squash.bin": "squash object\n" });
    expect(await parentDownload(pointers["squash.bin"])).toBe(404);
    const merged = await alice.as.pulls.merge({ prId, strategy: "squash" });
    expect(merged.mergeStrategy).toBe("squash");
    expect(await parentDownload(pointers["squash.bin"])).toBe("download");
    base = merged.mergeSha;
  });

  it("links the object on a rebase merge", async () => {
    const { prId, pointers } = await forkPull("rebase", { "rebase.bin": "rebase object\n" });
    const merged = await alice.as.pulls.merge({ prId, strategy: "rebase" });
    expect(await parentDownload(pointers["rebase.bin"])).toBe("download");
    base = merged.mergeSha;
  });

  it("links the object when auto-merge merges the pull request", async () => {
    const { prId, pointers } = await forkPull("auto", { "auto.bin": "auto-merge object\n" });
    const db = await getDb();
    await db.pullRequest.update({ where: { id: prId }, data: { autoMergeStrategy: "squash", autoMergeById: alice.user.id } });
    expect(await runAutoMerge(db, prId)).toBe("merged");
    expect(await parentDownload(pointers["auto.bin"])).toBe("download");
    base = (await gitText(["rev-parse", "refs/heads/main"], { gitDir: appDir })).trim();
  });

  it("shows the fork's objects in the interdiff between two revisions", async () => {
    const { prId, headSha } = await forkPull("revs", { "r.bin": "revision one\n" });
    const next = await commitBlobs(forkDir, "revs", {
      "README.md": await hashBytes(forkDir, "app\n"),
      "r.bin": await hashBytes(forkDir, await storeObject("revision two\n", [fork.id])),
    });
    await updatePullsAfterPush(await getDb(), fork.id, forkDir, [{ ref: "refs/heads/revs", oldSha: headSha, newSha: next }]);
    const inter = await alice.as.pulls.compareRevisions({ prId, from: 1, to: 2 });
    expect(inter.files.find((f) => f.newPath === "r.bin")).toMatchObject({
      additions: 1,
      deletions: 1,
      lfs: { content: true, old: { stored: true }, new: { stored: true } },
    });
    const page = await alice.as.pulls.compareRevisionsPage({ prId, from: 1, to: 2 });
    const lines = page.files.find((f) => f.newPath === "r.bin")!.hunks.flatMap((h) => h.lines);
    expect(lines).toEqual(["-revision one", "+revision two"]);
  });

  it("finds only the pointers the merge brings, and links idempotently", async () => {
    // two commits: an object added, then replaced: the range holds both, the squash's tree only the second
    await gitText(["update-ref", "refs/heads/two", base], { gitDir: forkDir });
    const first = await storeObject("first version\n", [fork.id]);
    const second = await storeObject("second version\n", [fork.id]);
    const readme = await hashBytes(forkDir, "app\n");
    await commitBlobs(forkDir, "two", { "README.md": readme, "v.bin": await hashBytes(forkDir, first) });
    const head = await commitBlobs(forkDir, "two", { "README.md": readme, "v.bin": await hashBytes(forkDir, second) });
    expect((await mergedLfsOids(forkDir, head, base)).sort()).toEqual([oidOf(first), oidOf(second)].sort());
    const tree = (await gitText(["rev-parse", `${head}^{tree}`], { gitDir: forkDir })).trim();
    const squash = (await gitText(["commit-tree", tree, "-p", base, "-m", "squash"], { gitDir: forkDir })).trim();
    expect(await mergedLfsOids(forkDir, squash, base)).toEqual([oidOf(second)]);
    expect(await mergedLfsOids(forkDir, base, base)).toEqual([]);
    const db = await getDb();
    expect(await inTransaction(db, (tx) => linkMergedLfsObjects(tx, app.id, fork.id, [oidOf(second)]))).toBe(1);
    expect(await inTransaction(db, (tx) => linkMergedLfsObjects(tx, app.id, fork.id, [oidOf(second), oidOf(first)]))).toBe(1);
    expect(await inTransaction(db, (tx) => linkMergedLfsObjects(tx, app.id, fork.id, [oidOf(second), oidOf(first)]))).toBe(0);
    // the same repository: nothing
    expect(await inTransaction(db, (tx) => linkMergedLfsObjects(tx, fork.id, fork.id, [oidOf(first)]))).toBe(0);
  });
});
