/**
 * repos.blobLines (docs/api.md, docs/pulls.md "Viewer" expand rows): a range of a text blob's
 * lines with the blob's line count; the range bounds, binary and too-large blobs, unknown objects,
 * and a private repository answering NOT_FOUND to a stranger and to anonymous callers.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { repoGitDir } from "@/server/git/paths";
import { MAX_BLOB_LINES_BYTES } from "@/server/git/blob-lines";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { hashBytes } from "../big-blob";

let owner: Profile;
let stranger: Profile;
let publicId: string;
let privateId: string;
let textSha: string;
let noNewlineSha: string;
let binarySha: string;
let bigSha: string;
let emptySha: string;

const LINES = Array.from({ length: 1_500 }, (_, i) => `line ${i + 1}${i % 7 === 0 ? "\r" : ""}`);

beforeAll(async () => {
  owner = await makeUser("bloblines");
  stranger = await makeUser("blobstranger");
  const caller = await callerFor(actorOf(owner));
  publicId = (await caller.repos.create({ name: "lines", isPrivate: false })).id;
  privateId = (await caller.repos.create({ name: "hidden", isPrivate: true })).id;
  const gitDir = repoGitDir(owner.username, "lines");
  textSha = await hashBytes(gitDir, LINES.join("\n") + "\n");
  noNewlineSha = await hashBytes(gitDir, "a\n\nc");
  emptySha = await hashBytes(gitDir, "");
  const bin = Buffer.alloc(9_000, 65);
  bin[5_000] = 0;
  binarySha = await hashBytes(gitDir, bin);
  bigSha = await hashBytes(gitDir, Buffer.alloc(MAX_BLOB_LINES_BYTES + 1, "x\n"));
  await hashBytes(repoGitDir(owner.username, "hidden"), LINES.join("\n") + "\n");
});

describe("repos.blobLines", () => {
  it("returns the asked lines (1-based, inclusive, \\r kept) and the blob's line count", async () => {
    const anon = await callerFor(null);
    const r = await anon.repos.blobLines({ repoId: publicId, sha: textSha, startLine: 7, endLine: 9 });
    expect(r).toEqual({ lines: ["line 7", "line 8\r", "line 9"], totalLines: 1_500 });
    const first = await anon.repos.blobLines({ repoId: publicId, sha: textSha, startLine: 1, endLine: 1_000 });
    expect(first.lines).toHaveLength(1_000);
    expect(first.lines[999]).toBe("line 1000");
  });

  it("leaves out lines past the end; counts a last line without a newline; an empty blob has 0 lines", async () => {
    const anon = await callerFor(null);
    expect(await anon.repos.blobLines({ repoId: publicId, sha: textSha, startLine: 1_499, endLine: 1_600 })).toEqual({
      lines: ["line 1499\r", "line 1500"],
      totalLines: 1_500,
    });
    expect(await anon.repos.blobLines({ repoId: publicId, sha: textSha, startLine: 2_000, endLine: 2_001 })).toEqual({
      lines: [],
      totalLines: 1_500,
    });
    expect(await anon.repos.blobLines({ repoId: publicId, sha: noNewlineSha, startLine: 1, endLine: 10 })).toEqual({
      lines: ["a", "", "c"],
      totalLines: 3,
    });
    expect(await anon.repos.blobLines({ repoId: publicId, sha: emptySha, startLine: 1, endLine: 5 })).toEqual({ lines: [], totalLines: 0 });
  });

  it("refuses bad ranges, more than 1,000 lines, binary and too-large blobs (BAD_REQUEST), unknown objects (NOT_FOUND)", async () => {
    const anon = await callerFor(null);
    const ask = (sha: string, startLine: number, endLine: number) => anon.repos.blobLines({ repoId: publicId, sha, startLine, endLine });
    await expect(ask(textSha, 0, 5)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(ask(textSha, 10, 9)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(ask(textSha, 1, 1_001)).rejects.toMatchObject({ code: "BAD_REQUEST", message: /at most 1000 lines/ });
    await expect(ask("abc123", 1, 2)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(ask(binarySha, 1, 2)).rejects.toMatchObject({ code: "BAD_REQUEST", message: /binary/ });
    await expect(ask(bigSha, 1, 2)).rejects.toMatchObject({ code: "BAD_REQUEST", message: /too large/ });
    await expect(ask("0".repeat(40), 1, 2)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers NOT_FOUND for a private repository to a stranger and anonymous; its owner reads it", async () => {
    const args = { repoId: privateId, sha: textSha, startLine: 1, endLine: 2 };
    await expect((await callerFor(actorOf(stranger))).repos.blobLines(args)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).repos.blobLines(args)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await callerFor(actorOf(owner))).repos.blobLines(args)).lines).toEqual(["line 1\r", "line 2"]);
  });

  it("reads only the repository's own objects: a blob of another repository is NOT_FOUND", async () => {
    const other = (await (await callerFor(actorOf(owner))).repos.create({ name: "other", isPrivate: false })).id;
    await expect((await callerFor(null)).repos.blobLines({ repoId: other, sha: textSha, startLine: 1, endLine: 2 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
