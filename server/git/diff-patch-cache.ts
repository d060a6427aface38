/**
 * The patch cache (docs/pulls.md "Git processes and caches", docs/performance.md "Hardening II,
 * item 14"): the whole `git diff --raw --patch -z` output of a range, kept on disk once one run
 * has read it to its end (the range's metadata run, server/git/diff.ts `rangeMetadata`, which
 * the after-push job warms), with the byte offset of each file's patch (server/git/diff-patch-index.ts).
 * A page of hunks is then parsed from its files' bytes alone: no git process per page (forking
 * git from a large server costs more than reading a page's bytes), and git computes the range's
 * diff once.
 *
 * Entries are keyed by the range's key (repository, resolved commit ids, borrowed object
 * directories: server/git/diff.ts `rangeKey`). Commit ids never change what they name, so an
 * entry never goes stale; a new head (a push, a force-push) is another key. Bounded on disk:
 * SVC_DIFF_CACHE_MB (default 256 MiB, 0 = no cache) for all entries of this process, the least
 * recently used entries removed first; one range's output may take a quarter of it at most (a
 * larger one, or one that finds the room held by other fills under way, is not kept: its pages
 * run git on their own files, as without the cache). Memory:
 * the offsets and the metadata, as the metadata cache already holds.
 *
 * Files live in `DATA_DIR/cache/diff-patches/<host>-<pid>-<random>/`, one directory per process
 * (processes sharing DATA_DIR each keep their own), removed when the process exits; a directory
 * left by a killed process is removed by the next process that starts caching once it is a day
 * old on the filesystem's own clock (the new directory's mtime, never this process's clock: the
 * rule of server/git/stale-locks.ts). A file gone from under an entry drops the entry (the caller runs git).
 * State on globalThis: Next loads server modules in several bundles, and one process has one cache.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { open, readdir, rm, stat, unlink, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getConfig } from "@/server/config";
import { PatchIndexer, type PatchIndex } from "./diff-patch-index";
import type { GitOutput } from "./output-stream";

/** Default bound of the cache (MiB): about twenty 2,000-file / 200k-line ranges (11 MB of patch each). */
export const DIFF_CACHE_MB = 256;
/** A directory of another process untouched this long (ms, filesystem clock) is a leftover. */
const STALE_DIR_MS = 24 * 60 * 60_000;
/** Bytes read from a cached patch at a time (a page's parse asks the large-diff gate for a slot between reads). */
const READ_CHUNK = 256 * 1024;

/** A range's cached output. */
export interface PatchEntry {
  readonly key: string;
  readonly file: string;
  /** The index: metadata, per-file offsets, size. */
  readonly index: PatchIndex;
}

/** A run of `recordPatch` under way: its file, whether it opened, and how it ended. */
interface Fill {
  file: string;
  ready: Promise<boolean>;
  state: "running" | "done" | "failed";
}

interface Cache {
  dir: string | null;
  /** Runs under way, by key (`followPatch` reads their files as git writes them). */
  filling: Map<string, Fill>;
  /** Ranges whose output was larger than an entry may be (newest last), so their metadata runs skip the patch. */
  tooLarge: Set<string>;
  /** Done entries, least recently used first. */
  entries: Map<string, PatchEntry>;
  /** Bytes on disk: done entries and fills under way. */
  bytes: number;
  maxBytes: number;
  seq: number;
}

/** SVC_DIFF_CACHE_MB (0–1 048 576), else DIFF_CACHE_MB; in bytes. */
export function diffCacheBytesFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SVC_DIFF_CACHE_MB?.trim();
  const mb = raw && /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  return (mb >= 0 && mb <= 1_048_576 ? mb : DIFF_CACHE_MB) * 1024 * 1024;
}

const cache = ((globalThis as unknown as { __svcDiffPatchCache?: Cache }).__svcDiffPatchCache ??= {
  dir: null,
  filling: new Map(),
  tooLarge: new Set(),
  entries: new Map(),
  bytes: 0,
  maxBytes: diffCacheBytesFromEnv(),
  seq: 0,
});

/** Whether ranges' outputs are cached (SVC_DIFF_CACHE_MB is not 0). */
export function patchCacheEnabled(): boolean {
  return cache.maxBytes > 0;
}

/** Ranges remembered as too large for the cache. */
const TOO_LARGE_KEPT = 256;

/**
 * Whether nothing more can be had for `key` from a run of the whole patch: its output is cached,
 * or known to be too large for an entry, or the cache is off.
 */
export function patchSettled(key: string): boolean {
  return !patchCacheEnabled() || cache.entries.has(key) || cache.tooLarge.has(key);
}

/** The cached output of `key`, marked as just used; null when none. */
export function cachedPatch(key: string): PatchEntry | null {
  const e = cache.entries.get(key);
  if (!e) return null;
  cache.entries.delete(key);
  cache.entries.set(key, e);
  return e;
}

function drop(e: PatchEntry): void {
  if (cache.entries.get(e.key) !== e) return;
  cache.entries.delete(e.key);
  cache.bytes -= e.index.size;
  unlink(e.file).catch(() => {}); // readers that opened it read on (Linux keeps an unlinked open file)
}

/** Removes least recently used entries until `extra` more bytes fit. */
function makeRoom(extra: number): void {
  for (const e of cache.entries.values()) {
    if (cache.bytes + extra <= cache.maxBytes) return;
    drop(e);
  }
}

/** This process's directory, made on first use; leftovers of dead processes are removed then. */
function cacheDir(): string {
  if (cache.dir) return cache.dir;
  const root = path.join(/* turbopackIgnore: true */ getConfig().dataDir, "cache", "diff-patches");
  const dir = path.join(root, `${os.hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(dir, { recursive: true });
  cache.dir = dir;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  void sweepLeftovers(root, dir);
  return dir;
}

/** Removes other processes' directories untouched for STALE_DIR_MS, measured against `own`'s mtime (the filesystem's clock). */
async function sweepLeftovers(root: string, own: string): Promise<void> {
  try {
    const now = (await stat(own)).mtimeMs;
    for (const name of await readdir(root)) {
      const dir = path.join(root, name);
      if (dir === own) continue;
      const s = await stat(dir).catch(() => null);
      if (s && now - s.mtimeMs > STALE_DIR_MS) await rm(dir, { recursive: true, force: true });
    }
  } catch {
    // best effort: a leftover is looked at again by the next process
  }
}

/** How often (ms) the size of a run's file is looked at while git writes it. */
const WATCH_MS = 25;
/** Bytes read at a time when indexing a finished run's file. */
const INDEX_CHUNK = 1024 * 1024;

/** A git run writing into an open file (server/git/exec.ts `runGitToFile`). */
export interface FileRun {
  done: Promise<{ code: number; stderr: string }>;
  kill(): void;
}

/**
 * The whole output of `git diff DIFF_ARGS <range>` (server/git/diff.ts), written by git straight
 * into a file of the cache (`run(fd)`: no pipe through this process), then indexed from the
 * file and kept under `key` while it fits (see the module comment). The file's size is watched
 * while git writes: past a quarter of the bound git is stopped and the range remembered as too
 * large; when other entries cannot make room, it is stopped too. Returns the index, or null when
 * git was stopped for size, the cache is off or the disk failed (the caller then reads the
 * metadata another way). `maxFiles`: files listed (DiffLimits.maxFiles). Errors: a plain Error
 * when git fails; nothing is cached then.
 */
export async function recordPatch(key: string, run: (fd: number) => FileRun, maxFiles: number): Promise<PatchIndex | null> {
  if (!patchCacheEnabled()) return null;
  let opened!: (ok: boolean) => void;
  const fill: Fill = { file: "", ready: new Promise((resolve) => (opened = resolve)), state: "running" };
  cache.filling.set(key, fill); // before any await: a first page asked at the same moment follows this run
  try {
    const index = await fillPatch(key, fill, opened, run, maxFiles);
    fill.state = index ? "done" : "failed";
    return index;
  } catch (e) {
    fill.state = "failed";
    throw e;
  } finally {
    opened(false); // no-op once opened
    if (cache.filling.get(key) === fill) cache.filling.delete(key);
  }
}

async function fillPatch(
  key: string,
  fill: Fill,
  opened: (ok: boolean) => void,
  run: (fd: number) => FileRun,
  maxFiles: number,
): Promise<PatchIndex | null> {
  const entryMax = Math.floor(cache.maxBytes / 4);
  let fh: FileHandle;
  let file: string;
  try {
    file = fill.file = path.join(cacheDir(), `${++cache.seq}.patch`);
    fh = await open(file, "wx+", 0o600);
  } catch {
    return null;
  }
  opened(true);
  let counted = 0; // bytes of this run in cache.bytes
  const count = (size: number): boolean => {
    makeRoom(size - counted);
    cache.bytes += size - counted;
    counted = size;
    return size <= entryMax && cache.bytes <= cache.maxBytes;
  };
  const discard = async () => {
    cache.bytes -= counted;
    counted = 0;
    await fh.close().catch(() => {});
    await unlink(file).catch(() => {});
  };
  let ran: FileRun;
  try {
    ran = run(fh.fd);
  } catch (e) {
    await discard();
    throw e;
  }
  let stopped = false;
  let watching = true;
  let wake = () => {};
  const unwatch = () => {
    watching = false;
    wake(); // the watcher's sleep ends now, not WATCH_MS later
  };
  const watch = (async () => {
    while (watching) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, WATCH_MS);
        wake = () => (clearTimeout(t), r());
      });
      if (!watching) return;
      const size = (await fh.stat().catch(() => null))?.size ?? 0;
      if (watching && !count(size)) {
        stopped = true;
        if (size > entryMax) rememberTooLarge(key);
        ran.kill();
        return;
      }
    }
  })();
  let result: { code: number; stderr: string };
  try {
    result = await ran.done;
  } catch (e) {
    unwatch();
    await watch;
    await discard();
    throw e;
  }
  unwatch();
  await watch;
  if (stopped) {
    await discard();
    return null;
  }
  if (result.code !== 0) {
    await discard();
    throw new Error(`git diff failed (${result.code}): ${result.stderr}`);
  }
  try {
    const size = (await fh.stat()).size;
    const keep = count(size);
    if (!keep && size > entryMax) rememberTooLarge(key);
    const indexer = new PatchIndexer(maxFiles);
    const buf = Buffer.allocUnsafe(Math.min(INDEX_CHUNK, Math.max(1, size)));
    for (let pos = 0; pos < size;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (bytesRead === 0) throw new Error("diff patch cache: the file is shorter than git wrote");
      indexer.push(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    const index = indexer.finish();
    if (!keep) {
      await discard();
      return index;
    }
    await fh.close().catch(() => {});
    const old = cache.entries.get(key);
    if (old) drop(old);
    cache.entries.set(key, { key, file, index });
    return index;
  } catch {
    await discard();
    return null;
  }
}

function rememberTooLarge(key: string): void {
  cache.tooLarge.add(key);
  for (const k of cache.tooLarge) if (cache.tooLarge.size > TOO_LARGE_KEPT) cache.tooLarge.delete(k);
}

/** How often (ms) a reader following a run looks for more bytes. */
const FOLLOW_MS = 10;

/**
 * A reader of the output of the run under way for `key` (`recordPatch`), from its first byte,
 * as git writes it (the GitOutput interface): a first page asked while the range's run is under
 * way is read from it instead of starting git again. Null when no run is under way. `next()`
 * waits for more bytes while git runs, answers null at the end of a finished run, and throws
 * (a plain Error: the caller then runs git itself) when the run stopped before the end.
 */
export function followPatch(key: string): GitOutput | null {
  const fill = cache.filling.get(key);
  if (!fill) return null;
  let fh: FileHandle | null = null;
  let pos = 0;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void fh?.close().catch(() => {});
  };
  return {
    async next() {
      if (closed) return null;
      if (!fh) {
        if (!(await fill.ready)) throw new Error("diff patch cache: the run did not start");
        fh = await open(fill.file, "r"); // ENOENT when it already ended and was not kept: the caller runs git
      }
      for (;;) {
        const state = fill.state; // before the size: once "done", the size read next is the whole output's
        const size = (await fh.stat()).size;
        if (closed) return null;
        if (pos < size) {
          const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - pos));
          const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
          pos += bytesRead;
          return bytesRead < buf.length ? buf.subarray(0, bytesRead) : buf;
        }
        if (state === "done") return (close(), null);
        if (state === "failed") throw (close(), new Error("diff patch cache: the run stopped before its end"));
        await new Promise((r) => setTimeout(r, FOLLOW_MS));
      }
    },
    stop: close,
  };
}

/**
 * A reader of bytes [start, end) of `entry`'s file, chunk by chunk (the GitOutput interface, so
 * the diff parse reads it as it reads git); null when the file is gone (the entry is dropped).
 */
export async function openPatch(entry: PatchEntry, start: number, end: number): Promise<GitOutput | null> {
  let fh: FileHandle;
  try {
    fh = await open(entry.file, "r");
  } catch {
    drop(entry);
    return null;
  }
  let pos = start;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void fh.close().catch(() => {});
  };
  return {
    async next() {
      if (closed) return null;
      if (pos >= end) {
        close();
        return null;
      }
      const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, end - pos));
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) {
        close();
        throw new Error("diff patch cache: the cached file is shorter than its index");
      }
      pos += bytesRead;
      return bytesRead < buf.length ? buf.subarray(0, bytesRead) : buf;
    },
    stop: close,
  };
}

/** Entries and bytes cached now (tests, metrics). */
export function patchCacheStats(): { entries: number; bytes: number } {
  return { entries: cache.entries.size, bytes: cache.bytes };
}

/** Changes the bound (tests; absent = SVC_DIFF_CACHE_MB's value), removing entries that no longer fit. */
export function setPatchCacheLimits(limits: { maxBytes?: number } = {}): void {
  cache.maxBytes = limits.maxBytes ?? diffCacheBytesFromEnv();
  cache.tooLarge.clear();
  makeRoom(0);
}
