/**
 * The paths each commit changed (against its first parent; a root commit against the empty
 * tree), for the AI engine's change categories (docs/ai.md "Pull request
 * descriptions (`ai.generatePRDescription`)"). One `git diff-tree
 * --stdin` for all the commits: resolved ids go on stdin, never into the argument list.
 */
import { runGit } from "./exec";
import { borrowedObjectsEnv } from "./forks";
import { SHA_RE } from "@/lib/sha";

/**
 * Paths changed by each of `shas` (resolved commit ids; others are ignored), at most
 * `perCommit` per commit, keyed by id. Merge commits list nothing (diff-tree's default).
 * Bounded: git's output is capped at `maxBytes` (default 4 MiB); past it, or when git fails,
 * the answer is an empty map (categories then come from the messages alone). `borrow`: as
 * DiffOptions.borrow.
 */
export async function commitPaths(
  gitDir: string,
  shas: readonly string[],
  opts: { perCommit?: number; maxBytes?: number; borrow?: readonly string[] } = {},
): Promise<Map<string, string[]>> {
  const ids = shas.filter((s) => SHA_RE.test(s));
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const perCommit = opts.perCommit ?? 200;
  const r = await runGit(["-c", "core.quotePath=false", "diff-tree", "--stdin", "-r", "--root", "--no-renames", "--name-only", "-z"], {
    gitDir,
    input: `${ids.join("\n")}\n`,
    maxBytes: opts.maxBytes ?? 4 * 1024 * 1024,
    env: borrowedObjectsEnv(opts.borrow),
    timeoutMs: 30_000,
  }).catch(() => null);
  if (!r || r.code !== 0) return out;
  // "-z --name-only": "<commit id>\0" then "<path>\0" per changed path, commit after commit
  const wanted = new Set(ids);
  let current: string[] | null = null;
  for (const token of r.stdout.toString("utf8").split("\0")) {
    if (!token) continue;
    const id = token.replace(/^\n/, "");
    if (SHA_RE.test(id) && wanted.has(id) && !out.has(id)) {
      current = [];
      out.set(id, current);
      continue;
    }
    if (current && current.length < perCommit) current.push(token);
  }
  return out;
}
