/**
 * Reading a file of a commit and writing a commit that changes some files, without a working
 * tree (applying review suggestions, docs/pulls.md "Suggestions"). Plumbing only, as the merge
 * engine does (server/git/merge.ts, commits.ts): `git ls-tree` / `git cat-file` to read; `git
 * hash-object -w`, a temporary index file (`GIT_INDEX_FILE`: `read-tree`, `update-index -z
 * --index-info`, `write-tree`) and `git commit-tree` to write. Paths never appear as git options:
 * they go after `--` with `--literal-pathspecs`, or on stdin (NUL-separated). The new commit is not
 * referenced by any ref; the caller moves a branch to it by compare-and-swap (update-ref.ts `casUpdateRef`, through
 * services/repos/update-branch.ts).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/server/config";
import { runGit, gitText } from "./exec";
import { SHA_RE, ZERO_SHA } from "@/lib/sha";
import { commitTree, type Identity } from "./commits";
import { verifyPath } from "./verify-path";
import { AppError } from "@/server/errors";

/** Largest file read or written here (bytes): suggestions edit source files, not assets. */
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

/** A file of a commit: its mode ("100644" | "100755" | …), blob id and bytes. */
export interface FileAt {
  mode: string;
  oid: string;
  content: Buffer;
}

function sha(value: string, what: string): string {
  if (!SHA_RE.test(value)) throw new Error(`${what} is not a full object id`);
  return value;
}

/**
 * The regular file `filePath` (exact path from the top of the tree) in commit `commit`, or null
 * when the commit has no such file, or it is a directory, symlink or submodule there. Errors: a
 * plain Error (server fault) when git fails; BAD_REQUEST (runGit's limit) for a file larger than
 * MAX_EDIT_BYTES.
 */
export async function readFileAt(gitDir: string, commit: string, filePath: string): Promise<FileAt | null> {
  // only a clean path from the top of the tree names a file here ("a/b.txt": no "", ".", ".." segments)
  if (!filePath || filePath.includes("\0") || filePath.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) return null;
  const ls = await runGit(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", sha(commit, "commit"), "--", filePath], { gitDir });
  if (ls.code !== 0) throw new Error(`git ls-tree failed (${ls.code}): ${ls.stderr.trim()}`);
  for (const rec of ls.stdout.toString("utf8").split("\0")) {
    const tab = rec.indexOf("\t");
    if (tab < 0 || rec.slice(tab + 1) !== filePath) continue;
    const [mode, type, oid] = rec.slice(0, tab).split(" ");
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) return null;
    const blob = await runGit(["cat-file", "blob", sha(oid, "blob")], { gitDir, maxBytes: MAX_EDIT_BYTES });
    if (blob.code !== 0) throw new Error(`git cat-file blob ${oid} failed: ${blob.stderr.trim()}`);
    return { mode, oid, content: blob.stdout };
  }
  return null;
}

/** One file's new content for `commitFileChanges` (the mode is kept from the parent); `content: null` deletes the path. */
export interface FileChange {
  path: string;
  mode: string;
  content: Buffer | null;
}

/** A tree entry: mode, type ("blob" | "tree" | "commit") and object id. */
export interface TreeEntryAt {
  mode: string;
  type: string;
  oid: string;
}

/**
 * The entries of `commit` at `filePath` and at each of its parent folders ("a", "a/b", "a/b/c"
 * for "a/b/c"), keyed by path; a path missing from the commit has no key. One `git ls-tree`.
 * `filePath` must be a clean path (see readFileAt); callers validate it first (agent paths:
 * server/services/agent/paths.ts). Errors: a plain Error when git fails.
 */
export async function entriesAlong(gitDir: string, commit: string, filePath: string): Promise<Map<string, TreeEntryAt>> {
  const segments = filePath.split("/");
  const prefixes = segments.map((_, i) => segments.slice(0, i + 1).join("/"));
  const ls = await runGit(["--literal-pathspecs", "ls-tree", "-z", "--full-tree", sha(commit, "commit"), "--", ...prefixes], { gitDir });
  if (ls.code !== 0) throw new Error(`git ls-tree failed (${ls.code}): ${ls.stderr.trim()}`);
  const out = new Map<string, TreeEntryAt>();
  for (const rec of ls.stdout.toString("utf8").split("\0")) {
    const tab = rec.indexOf("\t");
    if (tab < 0) continue;
    const name = rec.slice(tab + 1);
    if (!prefixes.includes(name)) continue;
    const [mode, type, oid] = rec.slice(0, tab).split(" ");
    out.set(name, { mode, type, oid });
  }
  return out;
}

/**
 * Writes the tree that is `base` (a commit or tree id) with `changes` applied (regular files;
 * a path may be new; `content: null` removes a path) and returns its id. The caller checks
 * file/folder clashes first (`entriesAlong`): git's index silently replaces a file by a folder.
 * The blobs are written as given (`hash-object
 * --no-filters`: no end-of-line or attribute conversion). A temporary index under
 * DATA_DIR/tmp/edit is used and always removed. Every path must pass `verifyPath` (git's
 * verify_path with protectHFS and protectNTFS, verify-path.ts): git on Linux would store
 * ".g\u200cit/hooks/x", which a clone on macOS reads as ".git/hooks/x"; checked here so that no
 * writer (agent approvals, review suggestions, conflict resolutions) can skip it.
 * Errors: BAD_REQUEST naming the first path refused and why, before anything is written.
 */
export async function writeTreeWithChanges(gitDir: string, base: string, changes: FileChange[]): Promise<string> {
  for (const change of changes) {
    const problem = verifyPath(change.path);
    if (problem) throw new AppError("BAD_REQUEST", `path "${change.path}" ${problem}`);
  }
  const dir = path.join(getConfig().dataDir, "tmp", "edit");
  mkdirSync(dir, { recursive: true });
  const indexFile = path.join(dir, `${randomUUID()}.index`);
  const env = { GIT_INDEX_FILE: indexFile };
  try {
    await gitText(["read-tree", sha(base, "base")], { gitDir, env });
    const entries: string[] = [];
    for (const change of changes) {
      if (change.content === null) {
        // git-update-index(1) --index-info: mode 0 removes the path
        entries.push(`0 ${ZERO_SHA}\t${change.path}\0`);
        continue;
      }
      if (change.mode !== "100644" && change.mode !== "100755") throw new Error(`cannot write mode ${change.mode}`);
      const oid = (await gitText(["hash-object", "-w", "--no-filters", "--stdin"], { gitDir, input: change.content })).trim();
      entries.push(`${change.mode} ${sha(oid, "blob")}\t${change.path}\0`);
    }
    await gitText(["update-index", "-z", "--index-info"], { gitDir, env, input: entries.join("") });
    return sha((await gitText(["write-tree"], { gitDir, env })).trim(), "tree");
  } finally {
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.lock`, { force: true });
  }
}

/**
 * Writes a commit on `parent` whose tree is the parent's with `changes` applied
 * (`writeTreeWithChanges`: regular files, new paths added, `content: null` removes), and returns its sha.
 */
export async function commitFileChanges(
  gitDir: string,
  input: { parent: string; changes: FileChange[]; message: string; author: Identity; committer: Identity },
): Promise<string> {
  const tree = await writeTreeWithChanges(gitDir, input.parent, input.changes);
  return commitTree(gitDir, { tree, parents: [input.parent], message: input.message, author: input.author, committer: input.committer });
}
