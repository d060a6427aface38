/**
 * Git LFS files in the browser (docs/lfs.md "In the browser"): repos.blob shows a pointer the
 * repository references as its object, the raw route downloads the object, pulls.getDiff diffs
 * the objects' contents; a pointer to an object the repository does not reference (security: it
 * may belong to another, private repository) stays a pointer everywhere. Real git, real database,
 * the raw route's own GET/HEAD; objects are written at lfsObjectPath with their rows.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { gitText } from "@/server/git/exec";
import { formatLfsPointer } from "@/lib/lfs-pointer";
import { lfsObjectPath } from "@/server/services/lfs/object-path";
import { resolveLfsBlob } from "@/server/services/lfs/resolve-lfs-blob";
import { parseHunks } from "@/server/services/lfs/lfs-diff";
import { GET, HEAD } from "@/app/[owner]/[repo]/raw/[...segments]/route";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { commitBlobs, hashBytes } from "../big-blob";
import { storeObject } from "../lfs-objects";

let owner: Profile;
let repoId: string;
let otherRepoId: string;
let pullId: string;

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(64, 0)]);
const TEXT_V1 = "export const answer = 41;\nexport const name = 'lfs';\n";
const TEXT_V2 = "export const answer = 42;\nexport const name = 'lfs';\n";
const SECRET = "the other repository's private object\n";

function raw(rest: string, init: RequestInit = {}) {
  const req = new Request(`http://svc.test/${owner.username}/assets/raw/${rest}`, init);
  const segments = rest.split("?")[0].split("/");
  return [req, { params: Promise.resolve({ owner: owner.username, repo: "assets", segments }) }] as const;
}

beforeAll(async () => {
  owner = await makeUser("lfsui");
  const caller = await callerFor(actorOf(owner));
  repoId = (await caller.repos.create({ name: "assets", isPrivate: false })).id;
  otherRepoId = (await caller.repos.create({ name: "vault", isPrivate: true })).id;
  const gitDir = repoGitDir(owner.username, "assets");
  const png = await storeObject(PNG, [repoId]);
  const v1 = await storeObject(TEXT_V1, [repoId]);
  const v2 = await storeObject(TEXT_V2, [repoId]);
  const secret = await storeObject(SECRET, [otherRepoId]); // only the private repository references it
  const missing = formatLfsPointer({ oid: "a".repeat(64), size: 5 });
  const base = await commitBlobs(gitDir, "main", {
    "logo.png": await hashBytes(gitDir, png),
    "code.ts": await hashBytes(gitDir, v1),
    "stolen.txt": await hashBytes(gitDir, secret),
    "missing.bin": await hashBytes(gitDir, missing),
    "plain.txt": await hashBytes(gitDir, "just text\n"),
  });
  await gitText(["update-ref", "refs/heads/feature", base], { gitDir }); // feature's parent: main
  const head = await commitBlobs(gitDir, "feature", {
    "logo.png": await hashBytes(gitDir, png),
    "code.ts": await hashBytes(gitDir, v2),
    "stolen.txt": await hashBytes(gitDir, secret),
    "missing.bin": await hashBytes(gitDir, missing),
    "plain.txt": await hashBytes(gitDir, "just text\n"),
  });
  const pr = await caller.pulls.create({
    repoId,
    title: "bump",
    sourceBranch: "feature",
    targetBranch: "main",
    headSha: head,
    baseSha: base,
  });
  pullId = pr.id;
}, 60_000);

describe("resolveLfsBlob", () => {
  it("resolves a pointer the repository references, and nothing else", async () => {
    const db = await getDb();
    const pointer = await storeObject("resolve me\n", [repoId]);
    const found = await resolveLfsBlob(db, repoId, pointer);
    expect(found).toMatchObject({ size: 11 });
    expect(found!.path).toBe(lfsObjectPath(found!.oid));
    expect(await resolveLfsBlob(db, otherRepoId, pointer)).toBeNull(); // not referenced there
    expect(await resolveLfsBlob(db, repoId, "just text\n")).toBeNull();
    expect(await resolveLfsBlob(db, repoId, formatLfsPointer({ oid: "b".repeat(64), size: 3 }))).toBeNull();
  });
});

describe("repos.blob", () => {
  it("shows an LFS text file as its content, with the object's size", async () => {
    const caller = await callerFor(null);
    const blob = await caller.repos.blob({ repoId, ref: "main", path: "code.ts" });
    expect(blob).toMatchObject({ text: TEXT_V1, size: TEXT_V1.length, isBinary: false, truncated: false });
    expect(blob.lfs).toMatchObject({ size: TEXT_V1.length, stored: true });
  });

  it("shows an LFS image as binary content (the page renders it from the raw URL)", async () => {
    const blob = await (await callerFor(null)).repos.blob({ repoId, ref: "main", path: "logo.png" });
    expect(blob).toMatchObject({ isBinary: true, size: PNG.length, text: null, lfs: { stored: true } });
  });

  it("shows a pointer to an object the repository does not reference as the pointer", async () => {
    const caller = await callerFor(null);
    const stolen = await caller.repos.blob({ repoId, ref: "main", path: "stolen.txt" });
    expect(stolen.text).toMatch(/^version https:\/\/git-lfs/);
    expect(stolen.text).not.toContain("private object");
    expect(stolen.lfs).toMatchObject({ size: SECRET.length, stored: false });
    const missing = await caller.repos.blob({ repoId, ref: "main", path: "missing.bin" });
    expect(missing.lfs).toMatchObject({ stored: false });
    const plain = await caller.repos.blob({ repoId, ref: "main", path: "plain.txt" });
    expect(plain.lfs).toBeNull();
  });
});

describe("raw route", () => {
  it("downloads the object of a referenced pointer", async () => {
    const res = await GET(...raw("main/logo.png"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(PNG.length));
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const text = await GET(...raw("main/code.ts?download=1"));
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text.headers.get("content-disposition")).toContain("attachment");
    expect(await text.text()).toBe(TEXT_V1);
  });

  it("answers HEAD with the object's size and no body", async () => {
    const res = await HEAD(...raw("main/logo.png", { method: "HEAD" }));
    expect(res.headers.get("content-length")).toBe(String(PNG.length));
    expect(res.body).toBeNull();
  });

  it("serves the pointer text for an object the repository does not reference (security)", async () => {
    const res = await GET(...raw("main/stolen.txt"));
    const body = await res.text();
    expect(body).toMatch(/^version https:\/\/git-lfs.github.com\/spec\/v1\noid sha256:/);
    expect(body).not.toContain("private object");
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
  });

  it("serves the pointer itself with ?lfs=0, and ordinary small files unchanged", async () => {
    expect(await (await GET(...raw("main/code.ts?lfs=0"))).text()).toMatch(/^version /);
    expect(await (await GET(...raw("main/plain.txt"))).text()).toBe("just text\n");
  });
});

describe("pulls.getDiff", () => {
  it("diffs the contents of a changed LFS text file and leaves unchanged files alone", async () => {
    const diff = await (await callerFor(actorOf(owner))).pulls.getDiff({ prId: pullId });
    const code = diff.files.find((f) => f.newPath === "code.ts")!;
    expect(code.lfs).toMatchObject({ content: true, old: { size: TEXT_V1.length, stored: true }, new: { stored: true } });
    expect(code.additions).toBe(1);
    expect(code.deletions).toBe(1);
    const lines = code.hunks.flatMap((h) => h.lines);
    expect(lines.filter((l) => l.type === "delete").map((l) => l.content)).toEqual(["export const answer = 41;"]);
    expect(lines.filter((l) => l.type === "add").map((l) => l.content)).toEqual(["export const answer = 42;"]);
    expect(diff.files.map((f) => f.newPath)).toEqual(["code.ts"]);
  });
});

describe("parseHunks", () => {
  it("reads hunks, no-newline marks and stops at the line limit", () => {
    const patch =
      "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ fn\n a\n-b\n\\ No newline at end of file\n+c\n@@ -9 +9 @@\n-x\n+y\n";
    const { hunks, truncated } = parseHunks(patch, 100);
    expect(truncated).toBe(false);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]).toMatchObject({ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, header: "fn" });
    expect(hunks[0].lines[1]).toEqual({ type: "delete", content: "b", noNewlineAtEnd: true });
    expect(hunks[1]).toMatchObject({ oldStart: 9, oldLines: 1, newLines: 1 });
    expect(parseHunks(patch, 2)).toMatchObject({ truncated: true });
  });
});
