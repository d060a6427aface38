/**
 * repos.files (the file finder) and repos.tags (the branch switcher's Tags tab; docs/ui.md "Code
 * view"): real bare repositories built with git plumbing, called through the tRPC caller with the
 * real authorization. Private repositories answer NOT_FOUND to strangers and anonymous callers; the
 * path listing stops at its cap (50,000 paths) and says so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { gitText } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { MAX_LISTED_PATHS, listPaths } from "@/server/git/listing";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { hashBytes } from "../big-blob";

let owner: Profile;
let stranger: Profile;

/**
 * Commits `files` (path → content; nested paths allowed) onto `branch` through a temporary index
 * (git-update-index(1) --index-info, git-write-tree(1)). Returns the commit sha.
 */
async function commitTree(gitDir: string, branch: string, files: Record<string, string>, message = "fixture"): Promise<string> {
  const env = { GIT_INDEX_FILE: `${gitDir}/fixture-index-${Math.random().toString(36).slice(2)}` };
  const shas = new Map<string, string>();
  let listing = "";
  for (const [path, content] of Object.entries(files)) {
    if (!shas.has(content)) shas.set(content, await hashBytes(gitDir, content));
    listing += `100644 ${shas.get(content)}\t${path}\n`;
  }
  await gitText(["update-index", "--add", "--index-info"], { gitDir, env, input: listing });
  const tree = (await gitText(["write-tree"], { gitDir, env })).trim();
  const parent = (await gitText(["for-each-ref", "--format=%(objectname)", `refs/heads/${branch}`], { gitDir })).trim();
  const commit = (await gitText(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], { gitDir })).trim();
  await gitText(["update-ref", `refs/heads/${branch}`, commit], { gitDir });
  return commit;
}

async function makeRepo(name: string, isPrivate: boolean) {
  const repo = await (await callerFor(actorOf(owner))).repos.create({ name, isPrivate });
  return { ...repo, gitDir: repoGitDir(owner.username, name) };
}

beforeAll(async () => {
  owner = await makeUser("lister");
  stranger = await makeUser("stranger");
});

describe("repos.files", () => {
  it("lists every file path at a ref, nested ones included, and follows the ref", async () => {
    const repo = await makeRepo("finder", false);
    await commitTree(repo.gitDir, "main", {
      "README.md": "# hi\n",
      "src/lib/math.ts": "export const x = 1;\n",
      "src/index.ts": "x\n",
      "docs/a b.md": "space\n",
      "é.txt": "utf8\n",
    });
    const first = (await gitText(["rev-parse", "refs/heads/main"], { gitDir: repo.gitDir })).trim();
    await commitTree(repo.gitDir, "main", { "README.md": "# hi\n", "new/file.txt": "n\n" });
    const caller = await callerFor(actorOf(stranger));
    const now = await caller.repos.files({ repoId: repo.id });
    expect(now).toMatchObject({ ref: "main", truncated: false });
    expect(now.paths.sort()).toEqual(["README.md", "new/file.txt"]);
    const then = await caller.repos.files({ repoId: repo.id, ref: first });
    expect(then.sha).toBe(first);
    expect(then.paths.sort()).toEqual(["README.md", "docs/a b.md", "src/index.ts", "src/lib/math.ts", "é.txt"]);
    await expect(caller.repos.files({ repoId: repo.id, ref: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.repos.files({ repoId: repo.id, ref: "--output=/tmp/x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("answers NOT_FOUND for a private repository to strangers and anonymous callers, and lists it for the owner", async () => {
    const repo = await makeRepo("hidden", true);
    await commitTree(repo.gitDir, "main", { "secret.txt": "s\n" });
    await expect((await callerFor(actorOf(stranger))).repos.files({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).repos.files({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await callerFor(actorOf(owner))).repos.files({ repoId: repo.id })).paths).toEqual(["secret.txt"]);
  });

  it("stops at 50,000 paths and reports truncated", async () => {
    const repo = await makeRepo("huge", false);
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_LISTED_PATHS; i += 1) files[`d${i % 100}/f${i}.txt`] = "same\n";
    await commitTree(repo.gitDir, "main", files);
    const listing = await (await callerFor(actorOf(owner))).repos.files({ repoId: repo.id });
    expect(listing.truncated).toBe(true);
    expect(listing.paths).toHaveLength(MAX_LISTED_PATHS);
    expect(new Set(listing.paths).size).toBe(MAX_LISTED_PATHS);
    // exactly the cap is not truncated; a byte cap also stops the listing
    const sha = (await gitText(["rev-parse", "refs/heads/main"], { gitDir: repo.gitDir })).trim();
    expect(await listPaths(repo.gitDir, sha, { maxPaths: MAX_LISTED_PATHS + 1 })).toMatchObject({ truncated: false });
    const byBytes = await listPaths(repo.gitDir, sha, { maxBytes: 100_000 });
    expect(byBytes.truncated).toBe(true);
    expect(byBytes.paths.length).toBeLessThan(MAX_LISTED_PATHS);
  });

  it("an empty repository has no ref: NOT_FOUND", async () => {
    const repo = await makeRepo("blank", false);
    await expect((await callerFor(actorOf(owner))).repos.files({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("repos.tags", () => {
  it("lists lightweight and annotated tags newest first with their commits, capped by limit", async () => {
    const repo = await makeRepo("tagged", false);
    const c1 = await commitTree(repo.gitDir, "main", { "a.txt": "1\n" });
    const c2 = await commitTree(repo.gitDir, "main", { "a.txt": "2\n" });
    const env = { GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
    await gitText(["tag", "v1.0", c1], { gitDir: repo.gitDir });
    await gitText(["tag", "-a", "-m", "release", "v2.0", c2], { gitDir: repo.gitDir, env: { GIT_COMMITTER_DATE: "2030-01-01T00:00:00Z" } });
    await gitText(["tag", "-a", "-m", "old", "v0.1", c1], { gitDir: repo.gitDir, env });
    const tree = (await gitText(["rev-parse", `${c1}^{tree}`], { gitDir: repo.gitDir })).trim();
    await gitText(["tag", "tree-tag", tree], { gitDir: repo.gitDir });
    const caller = await callerFor(null);
    const { tags, truncated } = await caller.repos.tags({ repoId: repo.id });
    expect(truncated).toBe(false);
    expect(tags[0]).toEqual({ name: "v2.0", sha: c2, date: "2030-01-01T00:00:00.000Z" });
    expect(tags.map((t) => t.name).sort()).toEqual(["v0.1", "v1.0", "v2.0"]);
    expect(tags.find((t) => t.name === "v0.1")).toMatchObject({ sha: c1, date: "2026-01-01T00:00:00.000Z" });
    expect(tags.find((t) => t.name === "v1.0")?.sha).toBe(c1);
    const one = await caller.repos.tags({ repoId: repo.id, limit: 1 });
    expect(one).toEqual({ tags: [tags[0]], truncated: true });
    await expect(caller.repos.tags({ repoId: repo.id, limit: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.repos.tags({ repoId: repo.id, limit: 501 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // a tag name works as the ref of the other code reads
    expect((await caller.repos.files({ repoId: repo.id, ref: "v1.0" })).sha).toBe(c1);
  });

  it("answers NOT_FOUND for a private repository to strangers and anonymous callers; an empty repository has no tags", async () => {
    const repo = await makeRepo("hiddentags", true);
    await commitTree(repo.gitDir, "main", { "a.txt": "1\n" });
    await gitText(["tag", "v1"], { gitDir: repo.gitDir });
    await expect((await callerFor(actorOf(stranger))).repos.tags({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).repos.tags({ repoId: repo.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await callerFor(actorOf(owner))).repos.tags({ repoId: repo.id })).tags.map((t) => t.name)).toEqual(["v1"]);
    const blank = await makeRepo("blanktags", false);
    expect(await (await callerFor(actorOf(owner))).repos.tags({ repoId: blank.id })).toEqual({ tags: [], truncated: false });
  });
});
