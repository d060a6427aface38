/**
 * Commit history plumbing, the one place for it: merge bases, ancestry, ahead/behind and commit
 * counts, the commits of a range (`listRangeCommits`: the pull request and compare commit lists,
 * squash messages, closing keywords), and writing a commit object (`commitTree`). Pure git, no
 * database: every function takes a bare repository's `gitDir` and full object ids (40 or 64 hex,
 * lib/sha.ts) resolved by the caller; only those and fixed options reach git's argument list.
 * `borrow` parameters name other repositories' object directories git may also read
 * (`borrowedObjectsEnv`, server/git/forks.ts; read-only).
 */
import { SHA_RE } from "@/lib/sha";
import { gitText, runGit } from "./exec";
import { borrowedObjectsEnv } from "./forks";
import { gitOutput } from "./output-stream";
import { immutableRead } from "./immutable-cache";

/** A commit author or committer: name, email and optionally a date in git's format ("<unix seconds> +0000"). */
export interface Identity {
  name: string;
  email: string;
  /** Git date ("1700000000 +0000" or ISO 8601); default now. */
  date?: string;
}

/** `value` when it is a full object id; else a plain Error (a caller's bug: ids are resolved before they get here). */
function objectId(value: string, what: string): string {
  if (!SHA_RE.test(value)) throw new Error(`${what} is not a full object id`);
  return value;
}

function identityEnv(kind: "AUTHOR" | "COMMITTER", who: Identity): Record<string, string> {
  const env: Record<string, string> = { [`GIT_${kind}_NAME`]: who.name, [`GIT_${kind}_EMAIL`]: who.email };
  if (who.date) env[`GIT_${kind}_DATE`] = who.date;
  return env;
}

/** Environment making `committer` both author and committer unless `author` is given. */
export function commitEnv(committer: Identity, author: Identity = committer): Record<string, string> {
  return { ...identityEnv("AUTHOR", author), ...identityEnv("COMMITTER", committer) };
}

/**
 * Merge bases already computed, by "gitDir a b borrow" (ids are immutable: entries never go
 * stale); null = unrelated histories. In-flight lookups are shared. On globalThis: Next loads
 * server modules in several bundles (the route handlers, and instrumentation.ts, which runs the
 * job worker), and the after-push job's warm-up must fill the cache the routes read.
 */
const mergeBaseCache = ((globalThis as unknown as { __svcMergeBases?: Map<string, Promise<string | null>> }).__svcMergeBases ??= new Map());
const MERGE_BASE_CACHE_SIZE = 256;

/**
 * The merge base of two commits (git-merge-base(1), the first of several), or null when the
 * histories are unrelated. Cached per (a, b) pair: commit ids never change meaning, so a push
 * that moves a branch asks about a new pair. Errors: a plain Error when git fails (e.g. an id
 * the repository does not have); failures are not cached.
 */
export async function mergeBase(gitDir: string, a: string, b: string, borrow?: readonly string[]): Promise<string | null> {
  objectId(a, "a");
  objectId(b, "b");
  const key = `${gitDir}\0${a}\0${b}\0${(borrow ?? []).join("\0")}`;
  let found = mergeBaseCache.get(key);
  if (found) {
    mergeBaseCache.delete(key);
    mergeBaseCache.set(key, found);
    return found;
  }
  found = (async () => {
    const r = await runGit(["merge-base", a, b], { gitDir, env: borrowedObjectsEnv(borrow) });
    if (r.code === 1) return null;
    if (r.code !== 0) throw new Error(`git merge-base failed (${r.code}): ${r.stderr.trim()}`);
    return r.stdout.toString().trim() || null;
  })();
  mergeBaseCache.set(key, found);
  while (mergeBaseCache.size > MERGE_BASE_CACHE_SIZE) mergeBaseCache.delete(mergeBaseCache.keys().next().value!);
  found.catch(() => mergeBaseCache.get(key) === found && mergeBaseCache.delete(key));
  return found;
}

/**
 * True when commit `ancestor` is an ancestor of (or equal to) `descendant` (git-merge-base(1)
 * --is-ancestor); false too when git cannot tell (an unknown id).
 */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await runGit(["merge-base", "--is-ancestor", objectId(ancestor, "ancestor"), objectId(descendant, "descendant")], { gitDir });
  return r.code === 0;
}

/** True when commit `sha` (or a tag of one) is in the repository (git-cat-file(1) -e `<sha>^{commit}`). */
export async function hasCommit(gitDir: string, sha: string): Promise<boolean> {
  const r = await runGit(["cat-file", "-e", `${objectId(sha, "sha")}^{commit}`], { gitDir });
  return r.code === 0;
}

/**
 * Commits only on `head` and only on `base` (git rev-list --left-right --count base...head).
 * Errors: a plain Error carrying git's message when git fails (e.g. an unknown id).
 */
export async function aheadBehind(
  gitDir: string,
  base: string,
  head: string,
  borrow?: readonly string[],
): Promise<{ aheadBy: number; behindBy: number }> {
  const range = `${objectId(base, "base")}...${objectId(head, "head")}`;
  const out = await gitText(["rev-list", "--left-right", "--count", range, "--"], { gitDir, env: borrowedObjectsEnv(borrow) });
  const [behind, ahead] = out.trim().split(/\s+/).map(Number);
  return { aheadBy: ahead ?? 0, behindBy: behind ?? 0 };
}

/**
 * Number of commits reachable from `head`, or with `base` only those not reachable from `base`
 * (git rev-list --count [^base] head). Errors: a plain Error when git fails.
 */
export async function countCommits(gitDir: string, head: string, base?: string): Promise<number> {
  const range = base === undefined ? [objectId(head, "head")] : [`^${objectId(base, "base")}`, objectId(head, "head")];
  return Number((await gitText(["rev-list", "--count", ...range, "--"], { gitDir })).trim());
}

/** The last count `countReachable` made per repository: where the next one (after a push) starts from. */
const countHints = ((globalThis as unknown as { __svcCountHints?: Map<string, { sha: string; count: number }> }).__svcCountHints ??=
  new Map());
const COUNT_HINTS = 512;

/**
 * Number of commits reachable from `head` (a full commit id): the repository page's "N commits".
 * Kept by commit id in the immutable-read cache (./immutable-cache.ts). A miss starts from the
 * last count made in this repository when it can: `git rev-list --left-right --count last...head`
 * in one process; nothing only on `last`'s side means `last` is an ancestor of `head`, so the
 * count is last's plus the new commits (a push walks its new commits, not the whole history);
 * otherwise (a force-push, another branch) the whole `git rev-list --count head`. Errors: a plain
 * Error when git fails (not kept).
 */
export async function countReachable(gitDir: string, head: string): Promise<number> {
  objectId(head, "head");
  const count = await immutableRead(
    "count",
    gitDir,
    [head],
    () => 16,
    async () => {
      const hint = countHints.get(gitDir);
      if (hint && hint.sha !== head) {
        const out = await gitText(["rev-list", "--left-right", "--count", `${hint.sha}...${head}`, "--"], { gitDir }).catch(() => null);
        const [onlyLast, onlyHead] = (out ?? "").trim().split(/\s+/).map(Number);
        if (out !== null && onlyLast === 0 && Number.isInteger(onlyHead)) return hint.count + onlyHead!;
      }
      return countCommits(gitDir, head);
    },
  );
  countHints.delete(gitDir);
  countHints.set(gitDir, { sha: head, count });
  while (countHints.size > COUNT_HINTS) countHints.delete(countHints.keys().next().value!);
  return count;
}

/** One commit of a range: the pull request and compare commit lists (API shape), squash messages, closing keywords. */
export interface RangeCommit {
  sha: string;
  /** Full message (subject, blank line, body), trailing newlines removed. */
  message: string;
  /** Author name. */
  author: string;
  authorEmail: string;
  /** ISO author date. */
  date: string;
}

/** Most commits `listRangeCommits` returns by default (GitHub's compare shows 250). */
export const MAX_RANGE_COMMITS = 250;

export interface RangeCommitsOptions {
  /** As DiffOptions.borrow (a sibling fork's objects). */
  borrow?: readonly string[];
  /** git log --topo-order: no parent before all its children (the merge's commit list); default git's date order. */
  topoOrder?: boolean;
  /** Cut each message to this many characters (default: whole). */
  maxMessageChars?: number;
}

/**
 * Commits reachable from `head` and not from `base` (`base..head`; with `base` the merge base,
 * the commits of `base...head`), oldest first (git-log(1) --reverse, ties as git orders them), at
 * most `limit` (the oldest ones), plus `totalCommits` (the log's length, or git rev-list --count
 * when the log reaches `limit`). Spec "pulls.getCommits". Git's output is streamed and git
 * stopped after `limit` records. Errors: a plain Error when git fails or one commit's record
 * passes 8 MiB.
 */
export async function listRangeCommits(
  gitDir: string,
  base: string,
  head: string,
  limit = MAX_RANGE_COMMITS,
  opts: RangeCommitsOptions = {},
): Promise<{ commits: RangeCommit[]; totalCommits: number }> {
  const range = [`^${objectId(base, "base")}`, objectId(head, "head")];
  const env = borrowedObjectsEnv(opts.borrow);
  const count = async () => Number((await gitText(["rev-list", "--count", ...range, "--"], { gitDir, env })).trim());
  const commits: RangeCommit[] = [];
  if (limit <= 0) return { commits, totalCommits: await count() };
  // the log alone when it ends before `limit` (its length is the count); rev-list --count only past the limit
  const order = opts.topoOrder ? ["--topo-order"] : [];
  const out = gitOutput(["log", "--reverse", ...order, "--format=%H%x00%an%x00%ae%x00%aI%x00%B%x00", "-z", ...range, "--"], {
    gitDir,
    env,
  });
  let pending = "";
  try {
    outer: for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      pending += chunk.toString("latin1"); // decoded per field below (utf8 of latin1 bytes)
      for (;;) {
        // one record = 5 NUL-terminated fields, then -z's NUL separator
        let idx = -1;
        let pos = 0;
        for (let k = 0; k < 6; k++) {
          idx = pending.indexOf("\0", pos);
          if (idx < 0) break;
          pos = idx + 1;
        }
        if (idx < 0) {
          if (pending.length > 8 * 1024 * 1024) throw new Error("git log: a commit record is larger than 8 MiB");
          break;
        }
        const fields = pending
          .slice(0, pos)
          .split("\0")
          .map((f) => Buffer.from(f, "latin1").toString("utf8"));
        pending = pending.slice(pos);
        const message = fields[4].replace(/\n+$/, "");
        commits.push({
          sha: fields[0].replace(/^\n/, ""),
          author: fields[1],
          authorEmail: fields[2],
          date: new Date(fields[3]).toISOString(),
          message: opts.maxMessageChars === undefined ? message : message.slice(0, opts.maxMessageChars),
        });
        if (commits.length >= limit) break outer;
      }
    }
  } finally {
    out.stop();
  }
  return { commits, totalCommits: commits.length < limit ? commits.length : await count() };
}

/**
 * Writes a commit object (`git commit-tree <tree> -p …`, message on stdin, a trailing newline
 * added when missing) and returns its id; `env` may be an object quarantine's (quarantine.ts). The commit is not referenced by any ref until the
 * caller moves one (update-ref.ts `casUpdateRef`). Errors: a plain Error when git fails.
 */
export async function commitTree(
  gitDir: string,
  input: { tree: string; parents: string[]; message: string; author: Identity; committer: Identity },
  env?: Record<string, string>,
): Promise<string> {
  const args = ["commit-tree", objectId(input.tree, "tree")];
  for (const p of input.parents) args.push("-p", objectId(p, "parent"));
  const message = input.message.endsWith("\n") ? input.message : `${input.message}\n`;
  const out = (await gitText(args, { gitDir, input: message, env: { ...env, ...commitEnv(input.committer, input.author) } })).trim();
  if (!SHA_RE.test(out)) throw new Error("git commit-tree printed no object id");
  return out;
}
