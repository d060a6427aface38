/**
 * Branch tips read straight from the ref store, without starting git: a loose ref file
 * `<gitDir>/refs/heads/<branch>` holding "<id>\n", else the `packed-refs` line
 * "<id> refs/heads/<branch>" (full ids, 40 or 64 hex) (gitrepository-layout(5) "refs", "packed-refs"; git 2.39 has
 * only the files backend). git writes both by lock file + rename, so a read sees a whole old or
 * a whole new value. Anything unexpected (a symbolic ref, an unreadable file, a peeled or odd
 * line) falls back to `git for-each-ref`. Used on the mergeability polling path, where a git
 * process per poll would cost more than the rest of the answer, and by `repos.get` (`hasBranch`:
 * is the repository empty?), where starting git was most of the request (docs/performance.md
 * "Hardening II, item 15").
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { runGit } from "./exec";
import { isValidBranchName } from "./refs";
import { SHA_PATTERN, SHA_RE } from "@/lib/sha";

/** packed-refs files larger than this (bytes) are searched by `git for-each-ref` instead. */
const MAX_PACKED_BYTES = 256 * 1024;
const SHA_LINE = new RegExp(`^(${SHA_PATTERN})\n?$`);

/** "<id> <ref>" (for-each-ref output, a packed-refs line) split in two; null for any other line (a comment, a peeled "^<id>" line). */
function idAndRef(line: string): { id: string; ref: string } | null {
  const at = line.indexOf(" ");
  const id = line.slice(0, at);
  return at > 0 && SHA_RE.test(id) ? { id, ref: line.slice(at + 1) } : null;
}

/** A small file's text, or null when absent. Synchronous on purpose: a ref file is ~41 bytes, and a thread-pool round trip costs more than the read. */
function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if (
      (e as NodeJS.ErrnoException).code === "ENOENT" ||
      (e as NodeJS.ErrnoException).code === "ENOTDIR" ||
      (e as NodeJS.ErrnoException).code === "EISDIR"
    )
      return null;
    throw e;
  }
}

/** Tips of exact branch names through `git for-each-ref` (a missing branch is absent). */
export async function branchTipsViaGit(gitDir: string, branches: string[]): Promise<Map<string, string>> {
  const refs = branches.map((b) => `refs/heads/${b}`);
  const r = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", "--", ...refs], { gitDir });
  const tips = new Map<string, string>();
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const entry = idAndRef(line);
    if (entry && refs.includes(entry.ref)) tips.set(entry.ref.slice("refs/heads/".length), entry.id);
  }
  return tips;
}

/**
 * Tips of the branches `branches` (short names) of bare repository `gitDir`, keyed by name; a
 * missing branch is absent. Invalid names are absent too (never read as paths).
 */
export async function branchTips(gitDir: string, branches: string[]): Promise<Map<string, string>> {
  const tips = new Map<string, string>();
  const missing: string[] = [];
  for (const b of branches) {
    if (!isValidBranchName(b)) continue;
    const loose = readText(path.join(gitDir, "refs", "heads", ...b.split("/")));
    if (loose === null) missing.push(b);
    else {
      const m = SHA_LINE.exec(loose);
      if (!m) return branchTipsViaGit(gitDir, branches.filter(isValidBranchName));
      tips.set(b, m[1]!);
    }
  }
  if (!missing.length) return tips;
  // a large packed-refs (many tags) is left to git rather than read on the event loop
  const packedFile = path.join(gitDir, "packed-refs");
  const size = statSync(packedFile, { throwIfNoEntry: false })?.size ?? 0;
  if (size > MAX_PACKED_BYTES) return branchTipsViaGit(gitDir, branches.filter(isValidBranchName));
  const packed = size ? readText(packedFile) : null;
  if (packed === null) return tips;
  const want = new Set(missing.map((b) => `refs/heads/${b}`));
  for (const line of packed.split("\n")) {
    const entry = idAndRef(line);
    if (entry && want.has(entry.ref)) tips.set(entry.ref.slice("refs/heads/".length), entry.id);
  }
  return tips;
}

/** Loose ref entries `hasBranch` looks at before leaving the question to git. */
const MAX_LOOSE_ENTRIES = 1000;

/** Whether `git for-each-ref --count=1 refs/heads/` prints a line (through git). */
async function hasBranchViaGit(gitDir: string): Promise<boolean> {
  const r = await runGit(["for-each-ref", "--count=1", "--format=%(objectname)", "refs/heads/"], { gitDir });
  if (r.code !== 0) throw new Error(`git for-each-ref failed (${r.code}): ${r.stderr.toString().trim()}`);
  return r.stdout.toString("utf8").trim() !== "";
}

/**
 * Whether bare repository `gitDir` has at least one branch (refs/heads/*), read from the ref
 * store without starting git: the first loose ref file under `refs/heads/` holding an object id
 * answers true (lock files, `*.lock`, are skipped as git skips them), else a `refs/heads/` line of
 * `packed-refs`. Anything unexpected (no `refs/heads` folder, a symbolic or odd ref file, an
 * invalid name, more than 1,000 loose entries without an answer, a packed-refs over 256 KiB) asks
 * `git for-each-ref` instead. Unlike git, a branch naming a missing object (a corrupt repository)
 * counts here. Errors: git's, when it has to be asked and fails (e.g. no repository at `gitDir`).
 */
export async function hasBranch(gitDir: string): Promise<boolean> {
  const heads = path.join(gitDir, "refs", "heads");
  const pending = [""];
  let seen = 0;
  while (pending.length) {
    const rel = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(path.join(heads, rel), { withFileTypes: true });
    } catch {
      return hasBranchViaGit(gitDir);
    }
    for (const e of entries) {
      if (++seen > MAX_LOOSE_ENTRIES) return hasBranchViaGit(gitDir);
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) pending.push(name);
      else if (e.name.endsWith(".lock")) continue;
      else if (!e.isFile() || !isValidBranchName(name)) return hasBranchViaGit(gitDir);
      else {
        const text = readText(path.join(heads, name));
        if (text === null) continue; // deleted meanwhile (git pack-refs, a branch deletion)
        if (!SHA_LINE.test(text)) return hasBranchViaGit(gitDir);
        return true;
      }
    }
  }
  const packedFile = path.join(gitDir, "packed-refs");
  const size = statSync(packedFile, { throwIfNoEntry: false })?.size ?? 0;
  if (size > MAX_PACKED_BYTES) return hasBranchViaGit(gitDir);
  const packed = size ? readText(packedFile) : null;
  return packed !== null && packed.split("\n").some((line) => idAndRef(line)?.ref.startsWith("refs/heads/"));
}
