/**
 * Bounded memory for blob reads (docs/api.md "Limits (request bodies, batches, blobs)"):
 * `repos.blob` reads only the text limit of a huge file, the raw route streams files of any size
 * with Content-Length from the blob's size, and a client that goes away stops git. Real git, real
 * database, the raw route's own GET/HEAD.
 *
 * The big blob is BLOB_TEST_MIB MiB (default 256 here; the 1 GiB runs in
 * bench/blob-memory.bench.ts, or with BLOB_TEST_MIB=1024).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetGitHttpLimits, setGitHttpLimits } from "@/server/http/git/http-limits";
import { gitHttpStats } from "@/server/http/git/process-gate";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoGitDir } from "@/server/git/paths";
import { MAX_TEXT_BYTES } from "@/server/git/repository";
import { GET, HEAD } from "@/app/[owner]/[repo]/raw/[...segments]/route";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser } from "../helpers";
import { commitBlobs, countBytes, hashBytes, hashFile, peakRssGrowth, writeRepeatedFile } from "../big-blob";

const MIB = 1024 * 1024;
const BIG_BYTES = Number(process.env.BLOB_TEST_MIB ?? 256) * MIB;
const PARALLEL = 10;
const LONG = 600_000;

const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-blob-limits-"));
let owner: Profile;
let repoId: string;
let privateName: string;
let bigSha: string;
const BINARY = Buffer.alloc(20_000, 7);
BINARY[100] = 0;
// A UTF-8 character straddles the 1 MiB cut: "é" is 0xC3 0xA9, its first byte the last one kept.
const CUT = Buffer.concat([Buffer.alloc(MAX_TEXT_BYTES - 1, "a"), Buffer.from("é and more\n")]);

function raw(repo: string, rest: string, init: RequestInit = {}, name = owner.username) {
  const req = new Request(`http://svc.test/${name}/${repo}/raw/${rest}`, init);
  return { req, ctx: { params: Promise.resolve({ owner: name, repo, segments: rest.split("/") }) } };
}
const get = (repo: string, rest: string, init?: RequestInit) => {
  const { req, ctx } = raw(repo, rest, init);
  return GET(req, ctx);
};

/** Pids of running `git cat-file blob <sha>` processes (Linux /proc). */
function catFilePids(sha: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes("cat-file") && argv.includes(sha)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  owner = await makeUser("blobs");
  const caller = await callerFor(actorOf(owner));
  const repo = await caller.repos.create({ name: "big", isPrivate: false });
  repoId = repo.id;
  privateName = (await caller.repos.create({ name: "secret", isPrivate: true })).name;
  const gitDir = repoGitDir(owner.username, "big");
  const bigFile = path.join(tmp, "big.txt");
  await writeRepeatedFile(bigFile, BIG_BYTES, Buffer.from("All work and no play makes Jack a dull boy. 0123456789\n".repeat(1200)));
  bigSha = await hashFile(gitDir, bigFile);
  rmSync(bigFile);
  await commitBlobs(gitDir, "main", {
    "big.txt": bigSha,
    "cut.txt": await hashBytes(gitDir, CUT),
    "small.txt": await hashBytes(gitDir, "hello\n"),
    "data.bin": await hashBytes(gitDir, BINARY),
    "logo.png": await hashBytes(gitDir, BINARY),
  });
  await commitBlobs(repoGitDir(owner.username, privateName), "main", {
    "a.txt": await hashBytes(repoGitDir(owner.username, privateName), "x\n"),
  });
}, LONG);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("repos.blob", () => {
  it(
    "reads a huge text file only up to the text limit",
    async () => {
      const blob = await (await callerFor(null)).repos.blob({ repoId, path: "big.txt" });
      expect(blob).toMatchObject({ size: BIG_BYTES, isBinary: false, truncated: true });
      expect(Buffer.byteLength(blob.text!)).toBe(MAX_TEXT_BYTES);
      expect(blob.text!.startsWith("All work and no play")).toBe(true);
    },
    LONG,
  );

  it("cuts a truncated text at a character boundary, never inside a UTF-8 sequence", async () => {
    const blob = await (await callerFor(null)).repos.blob({ repoId, path: "cut.txt" });
    expect(blob).toMatchObject({ size: CUT.length, isBinary: false, truncated: true });
    expect(blob.text).toBe("a".repeat(MAX_TEXT_BYTES - 1));
  });

  it("tells binary from text by a NUL in the first 8000 bytes, and reads small files whole", async () => {
    const caller = await callerFor(null);
    expect(await caller.repos.blob({ repoId, path: "data.bin" })).toMatchObject({
      size: BINARY.length,
      isBinary: true,
      truncated: false,
      text: null,
    });
    expect(await caller.repos.blob({ repoId, path: "small.txt" })).toMatchObject({
      size: 6,
      isBinary: false,
      truncated: false,
      text: "hello\n",
    });
    await expect(caller.repos.blob({ repoId, path: "missing.txt" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("raw route", () => {
  it(
    "serves small files with their type, size and the safety headers; HEAD without a body",
    async () => {
      const text = await get("big", "main/small.txt");
      expect(text.status).toBe(200);
      expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(text.headers.get("content-length")).toBe("6");
      expect(text.headers.get("x-content-type-options")).toBe("nosniff");
      expect(text.headers.get("content-security-policy")).toContain("sandbox");
      expect(text.headers.get("cache-control")).toBe("public, max-age=60");
      expect(await text.text()).toBe("hello\n");

      const bin = await get("big", "main/data.bin");
      expect(bin.headers.get("content-type")).toBe("application/octet-stream");
      expect(bin.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''data.bin");
      expect(Buffer.from(await bin.arrayBuffer()).equals(BINARY)).toBe(true);
      expect((await get("big", "main/logo.png")).headers.get("content-type")).toBe("image/png");

      const { req, ctx } = raw("big", "main/big.txt", { method: "HEAD" });
      const head = await HEAD(req, ctx);
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(BIG_BYTES));
      expect(head.body).toBeNull();
      await until(() => catFilePids(bigSha).length === 0, "git to stop after HEAD");
    },
    LONG,
  );

  it("answers 404 for unknown paths and for private repositories the caller cannot read", async () => {
    expect((await get("big", "main/missing.txt")).status).toBe(404);
    const { req, ctx } = raw(privateName, "main/a.txt");
    expect((await GET(req, ctx)).status).toBe(404);
    const token = await makeToken(owner, ["repo:read"]);
    const authed = raw(privateName, "main/a.txt", { headers: { authorization: `Bearer ${token}` } });
    const res = await GET(authed.req, authed.ctx);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(await res.text()).toBe("x\n");
  });

  it(
    "streams a huge file whole, with Content-Length from the blob's size",
    async () => {
      const res = await get("big", "main/big.txt");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("content-length")).toBe(String(BIG_BYTES));
      expect(await countBytes(res.body!)).toBe(BIG_BYTES);
    },
    LONG,
  );

  it(
    "stops git when the client goes away mid-download",
    async () => {
      const res = await get("big", "main/big.txt");
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect(catFilePids(bigSha).length).toBeGreaterThan(0); // git waits for us to read on
      await reader.cancel();
      await until(() => catFilePids(bigSha).length === 0, "git cat-file to exit");
    },
    LONG,
  );

  it(
    "counts downloads against the git process caps and ends one whose client stops reading",
    async () => {
      setGitHttpLimits({ maxPerClient: 1, queueWaitMs: 200, downloadIdleMs: 1_000 });
      try {
        await until(() => gitHttpStats().slots === 0, "earlier downloads' git to exit");
        const first = await get("big", "main/big.txt", { headers: { "x-forwarded-for": "10.9.9.9" } });
        const reader = first.body!.getReader();
        expect((await reader.read()).done).toBe(false);
        expect(gitHttpStats().slots).toBe(1);
        // the same client's second download waits briefly, then is told to come back
        const second = await get("big", "main/small.txt", { headers: { "x-forwarded-for": "10.9.9.9" } });
        expect(second.status).toBe(503);
        expect(second.headers.get("retry-after")).toMatch(/^\d+$/);
        // another client is served
        const other = await get("big", "main/small.txt", { headers: { "x-forwarded-for": "10.8.8.8" } });
        expect(await other.text()).toBe("hello\n");
        // the first client reads nothing more: after downloadIdleMs git is stopped and the slot freed
        await until(() => catFilePids(bigSha).length === 0 && gitHttpStats().slots === 0, "the stalled download to end");
        await expect(reader.read()).rejects.toThrow(/read nothing/);
      } finally {
        resetGitHttpLimits();
      }
    },
    LONG,
  );
});

describe("memory", () => {
  it(
    `keeps RSS growth under 100 MB for ${PARALLEL} parallel raw downloads and ${PARALLEL} repos.blob of a ${BIG_BYTES / MIB} MiB file`,
    async () => {
      // warm up every code path once, so the baseline includes loaded modules and compiled code
      await countBytes((await get("big", "main/cut.txt")).body!);
      await (await callerFor(null)).repos.blob({ repoId, path: "cut.txt" });

      // ten downloads really in parallel: the process caps (tested above) would otherwise queue some
      setGitHttpLimits({ maxProcesses: 4 * PARALLEL, maxPerClient: 4 * PARALLEL });
      const { result, growth, baseline } = await peakRssGrowth(async () => {
        const caller = await callerFor(null);
        const downloads = Array.from({ length: PARALLEL }, async () => countBytes((await get("big", "main/big.txt")).body!));
        const blobs = Array.from({ length: PARALLEL }, async () => {
          const b = await caller.repos.blob({ repoId, path: "big.txt" });
          return b.truncated ? Buffer.byteLength(b.text!) : -1;
        });
        return Promise.all([Promise.all(downloads), Promise.all(blobs)]);
      });
      resetGitHttpLimits();
      const [downloaded, texts] = result;
      expect(downloaded).toEqual(Array(PARALLEL).fill(BIG_BYTES));
      expect(texts).toEqual(Array(PARALLEL).fill(MAX_TEXT_BYTES));
      console.log(
        `blob-limits: ${PARALLEL}× ${BIG_BYTES / MIB} MiB raw + ${PARALLEL}× repos.blob: RSS ${(baseline / MIB).toFixed(0)} MiB, peak growth ${(growth / MIB).toFixed(1)} MiB`,
      );
      expect(growth).toBeLessThan(100 * 1000 * 1000);
    },
    LONG,
  );
});
