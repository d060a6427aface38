/**
 * Reading a file of a commit and writing a commit that changes some files, without a working
 * tree (issue #9, applying review suggestions). Plumbing only, as the merge engine does
 * (server/git/merge.ts): `git ls-tree` / `git cat-file` to read; `git hash-object -w`, a
 * temporary index file (`GIT_INDEX_FILE`: `read-tree`, `update-index -z --index-info`,
 * `write-tree`) and `git commit-tree` to write. Paths never appear as git options: they go
 * after `--` with `--literal-pathspecs`, or on stdin (NUL-separated). The new commit is not
 * referenced by any ref; the caller moves a branch to it by compare-and-swap (`casUpdateRef`).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/server/config";
import { runGit, gitText } from "./exec";
import { commitTree, SHA_RE, type Identity } from "./merge";

/** Largest file read or written here (bytes): suggestions edit source files, not assets. */
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

/** A file of a commit: its mode ("100644" | "100755" | …), blob id and bytes. */
export interface FileAt {
  mode: string;
  oid: string;
  content: Buffer;
}

function sha(value: string, what: string): string {
  if (!SHA_RE.test(value)) throw new Error(`${what} is not a 40-hex object id`);
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

/** One file's new content for `commitFileChanges` (the mode is kept from the parent). */
export interface FileChange {
  path: string;
  mode: string;
  content: Buffer;
}

/**
 * Writes the tree that is `base` (a commit or tree id) with `changes` applied (regular files;
 * a path may be new) and returns its id. The blobs are written as given (`hash-object
 * --no-filters`: no end-of-line or attribute conversion). A temporary index under
 * DATA_DIR/tmp/edit is used and always removed.
 */
export async function writeTreeWithChanges(gitDir: string, base: string, changes: FileChange[]): Promise<string> {
  const dir = path.join(getConfig().dataDir, "tmp", "edit");
  mkdirSync(dir, { recursive: true });
  const indexFile = path.join(dir, `${randomUUID()}.index`);
  const env = { GIT_INDEX_FILE: indexFile };
  try {
    await gitText(["read-tree", sha(base, "base")], { gitDir, env });
    const entries: string[] = [];
    for (const change of changes) {
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
 * Writes a commit on `parent` whose tree is the parent's with `changes` applied (regular files
 * only, existing paths; `writeTreeWithChanges`), and returns its sha.
 */
export async function commitFileChanges(
  gitDir: string,
  input: { parent: string; changes: FileChange[]; message: string; author: Identity; committer: Identity },
): Promise<string> {
  const tree = await writeTreeWithChanges(gitDir, input.parent, input.changes);
  return commitTree(gitDir, { tree, parents: [input.parent], message: input.message, author: input.author, committer: input.committer });
}
