/**
 * Conflict details (docs/pulls.md "Conflicts"): for each path `git merge` would leave
 * unmerged, the three sides as the index would hold them: base (stage 1, the merge base's
 * version), ours (stage 2, the target side) and theirs (stage 3, the source side), null where a
 * side lacks the file. Read from `git merge-tree --write-tree -z` (git-merge-tree(1) "Conflicted
 * file info": `<mode> <object> <stage>\t<path>`), so no working tree is touched.
 *
 * Bounded: at most MAX_CONFLICT_FILES files; sizes come from `cat-file --batch-check` before any
 * content is read; a side larger than MAX_SIDE_BYTES is cut there (`truncated`), and once
 * MAX_TOTAL_BYTES of content has been read, later sides carry no content (`truncated`). Binary
 * sides (a NUL among the first 8000 bytes, as git decides) carry no content.
 *
 * Listing conflicts is speculative (nothing is committed), so the merge-tree and the reads run in
 * an object quarantine (quarantine.ts): the conflicted tree and blobs it writes are gone
 * afterwards. A resolution that commits writes the conflicted tree again with `mergeTree`.
 */
import { runGit, spawnGit } from "./exec";
import { looksBinary, BINARY_SNIFF_BYTES } from "./repository";
import { SHA_PATTERN, SHA_RE } from "@/lib/sha";
import { MergeError, mergeTreeFailure } from "./merge";
import { objectInfo } from "./objects";
import { withObjectQuarantine } from "./quarantine";

/** A conflicted file info record of `git merge-tree -z`: `<mode> <object> <stage>\t<path>`. */
const UNMERGED_ENTRY = new RegExp(`^(\\d+) (${SHA_PATTERN}) ([123])\\t([\\s\\S]*)$`);

export const MAX_CONFLICT_FILES = 300;
/** Bytes of one side's content returned at most (512 KiB). */
export const MAX_SIDE_BYTES = 512 * 1024;
/** Bytes of content returned at most across all files (8 MiB). */
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

/** One side of a conflicting file. */
export interface ConflictSide {
  /** Blob sha. */
  sha: string;
  /** Git file mode, e.g. "100644". */
  mode: string;
  /** Bytes. */
  size: number;
  /** Text (UTF-8), null when binary, a submodule/link target not read, or over the budget. */
  content: string | null;
  /** True when `content` was cut or left out for size. */
  truncated: boolean;
}

/**
 * content: both sides changed the file; add/add: both added it, no base; delete/modify: one side
 * deleted what the other changed (`ours` or `theirs` null); other: anything else (e.g. a rename
 * on one side, a file/directory clash).
 */
export type ConflictKind = "content" | "add/add" | "delete/modify" | "other";

export interface ConflictFile {
  path: string;
  base: ConflictSide | null;
  ours: ConflictSide | null;
  theirs: ConflictSide | null;
  /** True when any present side is binary. */
  isBinary: boolean;
  kind: ConflictKind;
}

export interface ConflictDetails {
  /** The merged tree with conflict markers (what merge-tree wrote). */
  tree: string;
  files: ConflictFile[];
  /** True when more than MAX_CONFLICT_FILES files conflict (the rest are left out). */
  filesTruncated: boolean;
}

interface Stage {
  mode: string;
  sha: string;
}

function kindOf(base: Stage | undefined, ours: Stage | undefined, theirs: Stage | undefined): ConflictKind {
  if (ours && theirs) return base ? "content" : "add/add";
  if (base && (ours || theirs)) return "delete/modify";
  return "other";
}

type Env = Record<string, string>;

/** Sizes of the blobs among `shas` (`objectInfo`), keyed by sha. */
async function sizesOf(gitDir: string, shas: string[], env: Env): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const o of await objectInfo(gitDir, shas, env)) if (o?.type === "blob") sizes.set(o.id, o.size);
  return sizes;
}

/** The first `limit` bytes of blob `sha` (`git cat-file blob`), stopping git once they are in. */
function readHead(gitDir: string, blobSha: string, limit: number, env: Env): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(["cat-file", "blob", blobSha], { gitDir, env });
    child.stdin.end();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).subarray(0, limit));
    };
    child.stdout.on("data", (c: Buffer) => {
      if (done) return;
      chunks.push(c);
      size += c.length;
      if (size >= limit) {
        finish();
        child.kill("SIGKILL");
      }
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", finish);
  });
}

/** Cuts `buf` at the last complete UTF-8 character. */
function utf8Prefix(buf: Buffer): string {
  let end = buf.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = buf[end - i]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > i) end -= i;
    break;
  }
  return buf.subarray(0, end).toString("utf8");
}

/**
 * The conflicting files of merging `head` into `targetTip` with all three sides (see the module
 * comment for bounds). No conflicts → `files` empty. The merge runs in an object quarantine:
 * `tree` (and a virtual merge base's blobs) name objects that are gone once this returns; build
 * on `mergeTree`'s tree instead. Errors: MergeError (unrelated histories, unknown commits).
 */
export async function getConflictDetails(gitDir: string, targetTip: string, head: string): Promise<ConflictDetails> {
  if (!SHA_RE.test(targetTip) || !SHA_RE.test(head)) throw new MergeError("not a full commit sha");
  return withObjectQuarantine(gitDir, (env) => conflictDetails(gitDir, targetTip, head, env));
}

/** getConflictDetails with every git process run with `env`. */
async function conflictDetails(gitDir: string, targetTip: string, head: string, env: Env): Promise<ConflictDetails> {
  const r = await runGit(["merge-tree", "--write-tree", "-z", "--no-messages", targetTip, head], { gitDir, env });
  const parts = r.stdout
    .toString("utf8")
    .split("\0")
    .filter((p) => p.length > 0);
  const tree = parts[0] ?? "";
  if ((r.code !== 0 && r.code !== 1) || !SHA_RE.test(tree)) throw mergeTreeFailure(r.stderr);
  const byPath = new Map<string, Array<Stage | undefined>>();
  for (const entry of r.code === 1 ? parts.slice(1) : []) {
    const m = UNMERGED_ENTRY.exec(entry);
    if (!m) continue;
    const [, mode, sha, stage, path] = m;
    if (!byPath.has(path!)) byPath.set(path!, []);
    byPath.get(path!)![Number(stage) - 1] = { mode: mode!, sha: sha! };
  }
  const paths = [...byPath.keys()];
  const shown = paths.slice(0, MAX_CONFLICT_FILES);
  const shas = new Set<string>();
  for (const p of shown) for (const s of byPath.get(p)!) if (s && s.mode !== "160000") shas.add(s.sha);
  const sizes = await sizesOf(gitDir, [...shas], env);
  let budget = MAX_TOTAL_BYTES;
  const cache = new Map<string, { content: string | null; binary: boolean; truncated: boolean }>();
  const side = async (s: Stage | undefined): Promise<ConflictSide | null> => {
    if (!s) return null;
    const size = sizes.get(s.sha) ?? 0;
    const isFile = s.mode === "100644" || s.mode === "100755";
    let read = cache.get(s.sha);
    if (!read) {
      if (!isFile || !sizes.has(s.sha)) read = { content: null, binary: false, truncated: false };
      else if (budget <= 0) read = { content: null, binary: false, truncated: true };
      else {
        const limit = Math.min(size, MAX_SIDE_BYTES, Math.max(budget, BINARY_SNIFF_BYTES));
        const head = size === 0 ? Buffer.alloc(0) : await readHead(gitDir, s.sha, Math.max(limit, Math.min(size, BINARY_SNIFF_BYTES)), env);
        if (looksBinary(head)) read = { content: null, binary: true, truncated: false };
        else {
          const cut = head.subarray(0, limit);
          budget -= cut.length;
          read = { content: utf8Prefix(cut), binary: false, truncated: cut.length < size };
        }
      }
      cache.set(s.sha, read);
    }
    return { sha: s.sha, mode: s.mode, size, content: read.content, truncated: read.truncated };
  };
  const files: ConflictFile[] = [];
  for (const path of shown) {
    const [b, o, t] = byPath.get(path)!;
    const base = await side(b);
    const ours = await side(o);
    const theirs = await side(t);
    const isBinary = [b, o, t].some((s) => s && cache.get(s.sha)?.binary);
    files.push({ path, base, ours, theirs, isBinary, kind: kindOf(b, o, t) });
  }
  return { tree, files, filesTruncated: paths.length > MAX_CONFLICT_FILES };
}
