/**
 * Reads and lifecycle of bare repositories through plumbing commands (git-rev-parse, ls-tree,
 * cat-file, for-each-ref, log). Paths and refs reach git only after `userArg` and after
 * `--end-of-options` where git accepts it.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";
import { StringDecoder } from "node:string_decoder";
import { gitText, runGit, userArg } from "./exec";
import { gitOutput, outputStream, readAtLeast } from "./output-stream";
import { isValidBranchName } from "./refs";
import { objectInfo } from "./objects";
import { hasBranch } from "./ref-files";
import { immutableRead } from "./immutable-cache";
import { isSha } from "@/lib/sha";

export interface Branch {
  name: string;
  sha: string;
  /** ISO date of the tip commit's committer date. */
  updatedAt: string;
}

export interface TreeEntry {
  name: string;
  path: string;
  type: "blob" | "tree" | "commit";
  mode: string;
  sha: string;
  /** Bytes, for blobs; null for trees and submodules. */
  size: number | null;
}

export interface Blob {
  path: string;
  sha: string;
  /** Bytes. */
  size: number;
  isBinary: boolean;
  /** UTF-8 text (null when binary or larger than the read limit). */
  text: string | null;
  truncated: boolean;
}

export interface Commit {
  sha: string;
  parents: string[];
  message: string;
  author: string;
  authorEmail: string;
  /** ISO author date. */
  date: string;
  committer: string;
  committedAt: string;
}

/** Creates a bare repository with HEAD on `defaultBranch` (git-init(1)). Errors: CONFLICT if it exists. */
export async function initBareRepository(gitDir: string, defaultBranch: string): Promise<void> {
  if (!isValidBranchName(defaultBranch)) throw new AppError("BAD_REQUEST", `"${defaultBranch}" is not a valid branch name`);
  await mkdir(path.dirname(gitDir), { recursive: true });
  const r = await runGit(["init", "--bare", "--quiet", `--initial-branch=${defaultBranch}`, gitDir]);
  if (r.code !== 0) throw new Error(`git init failed: ${r.stderr}`);
  // Server-side defaults: keep every reflog, refuse nothing that git itself allows.
  await gitText(["config", "core.logAllRefUpdates", "true"], { gitDir });
  await gitText(["config", "receive.fsckObjects", "true"], { gitDir });
}

/** Deletes a bare repository folder. */
export async function removeRepository(gitDir: string): Promise<void> {
  await rm(gitDir, { recursive: true, force: true });
}

/**
 * Moves bare repository `from` to `to` with one rename(2) (atomic on one file system; DATA_DIR/repos
 * is one folder), creating `to`'s parent folder. Git processes already running keep working on the
 * moved folder (they hold it open). Errors: the plain Error of rename (e.g. ENOENT when `from` is
 * missing, ENOTEMPTY/EEXIST when `to` exists).
 */
export async function moveRepository(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await rename(from, to);
}

/** The commit sha a ref or sha names, or null when it does not resolve to a commit. */
export async function resolveCommit(gitDir: string, ref: string): Promise<string | null> {
  userArg(ref, "ref");
  const r = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { gitDir });
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

/**
 * Several refs or shas resolved to commit ids by one git process (`git cat-file --batch-check`,
 * one `<ref>^{commit}` per stdin line: the same name lookup as `resolveCommit`'s rev-parse, and
 * user text never becomes an argument). Answers in input order; null where a name does not
 * resolve to a commit. Errors: BAD_REQUEST as `userArg` for an empty name, a leading "-" or a
 * control character.
 */
export async function resolveCommits(gitDir: string, refs: string[]): Promise<(string | null)[]> {
  for (const ref of refs) userArg(ref, "ref");
  if (refs.length === 0) return [];
  const infos = await objectInfo(
    gitDir,
    refs.map((ref) => `${ref}^{commit}`),
  );
  return infos.map((o) => (o?.type === "commit" ? o.id : null));
}

/** Branches, ordered by name. */
export async function listBranches(gitDir: string): Promise<Branch[]> {
  const out = await gitText(["for-each-ref", "--format=%(refname:strip=2)%00%(objectname)%00%(committerdate:iso-strict)", "refs/heads/"], {
    gitDir,
  });
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [name, sha, date] = line.split("\0");
      return { name, sha, updatedAt: new Date(date).toISOString() };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** True when the repository has no commits on any branch (the ref store read without git when it can be: ref-files.ts `hasBranch`). */
export async function isEmptyRepository(gitDir: string): Promise<boolean> {
  return !(await hasBranch(gitDir));
}

function normalizePath(p: string): string {
  const clean = p.replace(/^\/+|\/+$/g, "");
  if (clean.split("/").some((c) => c === ".." || c === ".")) throw new AppError("BAD_REQUEST", "path cannot contain . or .. components");
  if (/[\0\n]/.test(clean)) throw new AppError("BAD_REQUEST", "path contains a control character");
  return clean;
}

/**
 * Entries of the directory `dirPath` ("" = root) at commit `sha` (a full commit id), directories
 * first then by name (git-ls-tree(1) --long -z; one git process). Kept by (commit, path) in the
 * immutable-read cache (./immutable-cache.ts): the same directory at the same commit is read from
 * git once. Errors: NOT_FOUND when the path is not a directory there (git refuses a file, a
 * submodule or a missing path alike).
 */
export async function readTree(gitDir: string, sha: string, dirPath: string): Promise<TreeEntry[]> {
  const p = normalizePath(dirPath);
  // only a full id is immutable; anything else (a caller's ref name) is read every time
  if (!isSha(sha)) return listTree(gitDir, sha, p);
  const entries = await immutableRead("tree", gitDir, [sha, p], treeBytes, () => listTree(gitDir, sha, p));
  return entries.map((e) => ({ ...e }));
}

/** Estimated bytes of kept entries (UTF-16 strings plus ~100 per object). */
function treeBytes(entries: TreeEntry[]): number {
  let n = 0;
  for (const e of entries) n += 100 + 2 * (e.name.length + e.path.length + e.mode.length + e.sha.length);
  return n;
}

async function listTree(gitDir: string, sha: string, p: string): Promise<TreeEntry[]> {
  const treeish = p ? `${sha}:${p}` : `${sha}^{tree}`;
  const out = await runGit(["ls-tree", "--long", "-z", "--end-of-options", treeish], { gitDir });
  if (out.code !== 0) throw new AppError("NOT_FOUND", `directory "${p}" not found`);
  const entries: TreeEntry[] = [];
  for (const rec of out.stdout.toString("utf8").split("\0")) {
    if (!rec) continue;
    const tab = rec.indexOf("\t");
    const [mode, type, objSha, size] = rec.slice(0, tab).split(/\s+/);
    const name = rec.slice(tab + 1);
    entries.push({
      name,
      path: p ? `${p}/${name}` : name,
      type: type as TreeEntry["type"],
      mode,
      sha: objSha,
      size: size === "-" ? null : Number(size),
    });
  }
  const rank = (t: TreeEntry["type"]) => (t === "tree" ? 0 : 1);
  return entries.sort((a, b) => rank(a.type) - rank(b.type) || a.name.localeCompare(b.name));
}

/** The largest blob read as text for display, in bytes (1 MiB). */
export const MAX_TEXT_BYTES = 1024 * 1024;

/**
 * Bytes looked at to tell binary from text: a NUL among the first 8000 bytes means binary, as
 * git decides (xdiff-interface.c `buffer_is_binary`, FIRST_FEW_BYTES).
 */
export const BINARY_SNIFF_BYTES = 8000;

/** True when `head` (a file's first bytes) holds a NUL within BINARY_SNIFF_BYTES. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Where and how big a blob is: its path (normalized), blob sha and size in bytes. */
export interface BlobInfo {
  path: string;
  sha: string;
  /** Bytes. */
  size: number;
}

/**
 * Type and size of the file at `filePath` in commit `sha`, without reading it
 * (git-cat-file(1) --batch-check). Errors: NOT_FOUND when it is not a file there.
 */
export async function statBlob(gitDir: string, sha: string, filePath: string): Promise<BlobInfo> {
  const p = normalizePath(filePath);
  if (!p) throw new AppError("NOT_FOUND", "file not found");
  const [info] = await objectInfo(gitDir, [`${sha}:${p}`]);
  if (info?.type !== "blob") throw new AppError("NOT_FOUND", `file "${p}" not found`);
  return { path: p, sha: info.id, size: info.size };
}

/**
 * The file at `filePath` in commit `sha`: size, binary detection (`looksBinary`) and text up to
 * MAX_TEXT_BYTES. Memory is bounded whatever the file's size: only the first
 * max(MAX_TEXT_BYTES, BINARY_SNIFF_BYTES) bytes are read from `git cat-file blob` (plus at most
 * one pipe chunk), then git is stopped (docs/api.md "Limits (request bodies, batches, blobs)").
 * A truncated text ends at the last complete UTF-8 character before the limit, so the cut never
 * shows as U+FFFD; invalid bytes elsewhere decode to U+FFFD. Errors: NOT_FOUND when not a file there.
 */
export async function readBlob(gitDir: string, sha: string, filePath: string): Promise<Blob> {
  const info = await statBlob(gitDir, sha, filePath);
  const want = Math.min(info.size, Math.max(MAX_TEXT_BYTES, BINARY_SNIFF_BYTES));
  const out = gitOutput(["cat-file", "blob", info.sha], { gitDir });
  let head: Buffer;
  try {
    head = Buffer.concat(await readAtLeast(out, want));
  } finally {
    out.stop();
  }
  if (head.length < want) throw new Error(`git cat-file blob ${info.sha}: ${head.length} of ${want} bytes`);
  const isBinary = looksBinary(head);
  const truncated = !isBinary && info.size > MAX_TEXT_BYTES;
  // StringDecoder.write keeps an incomplete trailing character back instead of emitting U+FFFD.
  const text = isBinary ? null : truncated ? new StringDecoder("utf8").write(head.subarray(0, MAX_TEXT_BYTES)) : head.toString("utf8");
  return { ...info, isBinary, truncated, text };
}

/** A blob opened for download: `body` streams its bytes from git; see `openBlob`. */
export interface BlobStream extends BlobInfo {
  /** `looksBinary` of the first bytes. */
  isBinary: boolean;
  /** Exactly `size` bytes (errors instead of ending short); cancel it to stop git. */
  body: ReadableStream<Uint8Array>;
}

/**
 * Opens the file at `filePath` in commit `sha` for streaming (the raw route): its size from
 * `statBlob`, then `git cat-file blob` runs while the caller reads `body`, with backpressure, so
 * memory stays flat for files of any size. Only the first BINARY_SNIFF_BYTES are read before
 * returning (to decide `isBinary`). No overall timeout: a download may take long; cancelling
 * `body` (client disconnect) kills git, and so does a client that reads nothing for `idleMs`.
 * `onExit` runs once git has exited (a process-gate slot's release). Errors: NOT_FOUND when not
 * a file there.
 */
export async function openBlob(
  gitDir: string,
  sha: string,
  filePath: string,
  opts: { idleMs?: number; onExit?: () => void } = {},
): Promise<BlobStream> {
  const info = await statBlob(gitDir, sha, filePath);
  const out = gitOutput(["cat-file", "blob", info.sha], { gitDir, timeoutMs: 0, onExit: opts.onExit });
  let head: Buffer[];
  try {
    head = await readAtLeast(out, Math.min(info.size, BINARY_SNIFF_BYTES));
  } catch (e) {
    out.stop();
    throw e;
  }
  return { ...info, isBinary: looksBinary(Buffer.concat(head)), body: outputStream(out, head, info.size, { idleMs: opts.idleMs }) };
}

const LOG_FORMAT = "%H%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%cI%x00%B%x00";

/**
 * Commits reachable from `sha`, newest first (git-log(1) default order), optionally only those
 * touching `filePath`. `limit` 1–100, `skip` ≥ 0.
 */
export async function listCommits(gitDir: string, sha: string, opts: { path?: string; limit: number; skip: number }): Promise<Commit[]> {
  const args = ["log", `--format=${LOG_FORMAT}`, "-z", `--max-count=${opts.limit}`, `--skip=${opts.skip}`, "--end-of-options", sha];
  if (opts.path) args.push("--", normalizePath(opts.path));
  const out = await gitText(args, { gitDir });
  const fields = out.split("\0");
  const commits: Commit[] = [];
  // each record is 8 NUL-terminated fields; -z separates records with another NUL
  for (let i = 0; i + 7 < fields.length; i += 9) {
    const sha0 = fields[i].replace(/^\n/, "");
    if (!sha0) break;
    commits.push({
      sha: sha0,
      parents: fields[i + 1] ? fields[i + 1].split(" ") : [],
      author: fields[i + 2],
      authorEmail: fields[i + 3],
      date: new Date(fields[i + 4]).toISOString(),
      committer: fields[i + 5],
      committedAt: new Date(fields[i + 6]).toISOString(),
      message: fields[i + 7].replace(/\n+$/, ""),
    });
  }
  return commits;
}

/** Points HEAD at refs/heads/<branch> (git-symbolic-ref(1)). */
export async function setHead(gitDir: string, branch: string): Promise<void> {
  if (!isValidBranchName(branch)) throw new AppError("BAD_REQUEST", `"${branch}" is not a valid branch name`);
  await gitText(["symbolic-ref", "HEAD", `refs/heads/${branch}`], { gitDir });
}
