/**
 * The lines a push adds: the patches of the commits reachable from the pushed tips and from no
 * existing ref (`git log -p <tips> --not --all`, git-log(1); merges show no patch of their own,
 * their content is in their new parents). Used by push protection
 * (services/repos/push-policy.ts). Runs inside receive-pack's quarantine when given its env
 * (git-receive-pack(1) "QUARANTINE ENVIRONMENT"). Streams git's output with a byte budget, so
 * memory stays bounded whatever the push.
 */
import { spawnGit } from "./exec";
import { SHA_RE } from "@/lib/sha";
import { objectInfo } from "./objects";

/** One line added by a commit: `line` is its 1-based number in the new version of `path`. */
export interface AddedLine {
  commit: string;
  path: string;
  line: number;
  text: string;
  /** The id of `path`'s new blob, when git printed full index lines (`scanDiffLines`); absent otherwise. */
  blob?: string;
}

export interface AddedLinesOptions {
  /** Extra environment for git (the quarantine's GIT_OBJECT_DIRECTORY etc.). */
  env?: Record<string, string | undefined>;
  /** Stop reading after this many bytes of patch output (bytes). */
  maxBytes: number;
  /** Longer lines are cut to this many bytes (bytes; default 1 MiB). */
  maxLineBytes?: number;
  /** Give up after this long (ms; default 5 minutes). */
  timeoutMs?: number;
}

export interface AddedLinesResult {
  /** True when the budget or the time limit stopped the scan before git finished. */
  truncated: boolean;
  /** Patch bytes read (bytes). */
  bytes: number;
}

/**
 * The commits among `shas` (object ids, tags peeled: `<sha>^{}`) — what `git log` can start
 * from; trees, blobs and unknown ids are dropped. Errors: plain Error when git fails.
 */
export async function peelToCommits(gitDir: string, shas: string[], env: Record<string, string | undefined> = {}): Promise<string[]> {
  const valid = [...new Set(shas.filter((s) => SHA_RE.test(s)))];
  const infos = await objectInfo(
    gitDir,
    valid.map((s) => `${s}^{}`),
    env,
  );
  return [...new Set(infos.filter((o) => o?.type === "commit").map((o) => o!.id))];
}

/**
 * Which of `ids` (blob ids) some ref of `gitDir` reaches outside commit `base`'s history:
 * `git rev-list --objects --all --not <base>` (without `base`: every ref's history), streamed
 * and stopped as soon as every id was seen. Answers whether content svc is about to commit is
 * already on a ref (pushed earlier, so scanned or allowed then). Errors: plain Error when git fails.
 */
export function reachableBlobs(gitDir: string, ids: Set<string>, base: string | null): Promise<Set<string>> {
  const found = new Set<string>();
  if (ids.size === 0) return Promise.resolve(found);
  if (base !== null && !SHA_RE.test(base)) return Promise.reject(new Error("reachableBlobs: an object id expected"));
  const child = spawnGit(["rev-list", "--objects", "--no-object-names", "--all", ...(base ? ["--not", base] : [])], {
    gitDir,
    timeoutMs: 0,
  });
  child.stdin.end();
  return new Promise((resolve, reject) => {
    let rest = "";
    let stderr = "";
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      child.kill("SIGKILL");
      reject(new Error("git rev-list --objects timed out"));
    }, 5 * 60_000);
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 8192) stderr += c.toString("utf8");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (done) return;
      const lines = (rest + chunk.toString("latin1")).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) if (ids.has(l)) found.add(l);
      if (found.size === ids.size) {
        done = true;
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(found);
      }
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      if (!done) reject(e);
      done = true;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (done) return;
      done = true;
      if (ids.has(rest)) found.add(rest);
      if (code !== 0) return reject(new Error(`git rev-list --objects failed (${code}): ${stderr.trim().slice(0, 500)}`));
      resolve(found);
    });
  });
}

/** Undoes git's C-style path quoting ("a\tb", octal bytes) of a diff header name. */
export function unquoteGitPath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const s = raw.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "\\") {
      bytes.push(...Buffer.from(s[i], "utf8"));
      continue;
    }
    const oct = /^[0-7]{3}/.exec(s.slice(i + 1));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 3;
    } else {
      bytes.push(simple[s[i + 1]] ?? s.charCodeAt(i + 1));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * Calls `onLine` for every line added by the commits reachable from `tips` (commit ids) and
 * from no ref of `gitDir`, in git log's order (newest commit first, files by path).
 * Binary files are skipped (git prints no lines for them); renames are detected (-M), so a
 * moved file is not scanned again. Reads at most `maxBytes` of patch output.
 * Errors: plain Error when git fails (a server fault).
 */
export function scanAddedLines(
  gitDir: string,
  tips: string[],
  opts: AddedLinesOptions,
  onLine: (l: AddedLine) => void,
): Promise<AddedLinesResult> {
  const commits = tips.filter((s) => SHA_RE.test(s));
  if (commits.length === 0) return Promise.resolve({ truncated: false, bytes: 0 });
  return scanPatch(
    gitDir,
    [
      "-c",
      "core.quotePath=false",
      "log",
      "-p",
      "-M",
      "-U0",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--format=commit %H",
      ...commits,
      "--not",
      "--all",
    ],
    "",
    opts,
    onLine,
  );
}

/**
 * Calls `onLine` for every line that commit `to` adds relative to `from` (a commit; null: the
 * first parent of `to`, or nothing when `to` is a root commit) — `git diff-tree -p` between the two
 * trees, whatever commits lie between (merges included). Each line carries the commit `to` and
 * its file's new `blob`. Binary files are skipped; renames are detected (-M). Reads at most
 * `maxBytes` of patch output. Errors: plain Error when git fails (a server fault).
 */
export function scanDiffLines(
  gitDir: string,
  from: string | null,
  to: string,
  opts: AddedLinesOptions,
  onLine: (l: AddedLine) => void,
): Promise<AddedLinesResult> {
  if (!SHA_RE.test(to) || (from !== null && !SHA_RE.test(from))) return Promise.reject(new Error("scanDiffLines: object ids expected"));
  const args = ["-c", "core.quotePath=false", "diff-tree", "-r", "-p", "-M", "-U0", "--full-index", "--no-commit-id"];
  args.push("--no-color", "--no-ext-diff", "--no-textconv", "--root", ...(from ? [from] : []), to);
  return scanPatch(gitDir, args, to, opts, onLine);
}

/** Runs git with `args` (a patch on stdout) and calls `onLine` for each added line; `commit` until a `commit <sha>` line names one. */
function scanPatch(
  gitDir: string,
  args: string[],
  firstCommit: string,
  opts: AddedLinesOptions,
  onLine: (l: AddedLine) => void,
): Promise<AddedLinesResult> {
  const maxLine = opts.maxLineBytes ?? 1024 * 1024;
  const child = spawnGit(args, { gitDir, env: opts.env, timeoutMs: 0 });
  child.stdin.end();

  let commit = firstCommit;
  let path: string | null = null;
  let blob: string | undefined;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const handle = (line: string) => {
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === "+") {
        if (path !== null) onLine({ commit, path, line: newLine, text: line.slice(1), ...(blob ? { blob } : {}) });
        newLine++;
        newLeft--;
      } else if (c === "-") oldLeft--;
      else if (c === " ") {
        newLine++;
        newLeft--;
        oldLeft--;
      } // "\ No newline at end of file" changes nothing
      return;
    }
    if (line.startsWith("commit ")) {
      commit = line.slice(7);
      path = null;
    } else if (line.startsWith("diff --git ")) {
      path = null;
      blob = undefined;
    } else if (line.startsWith("index ")) {
      const m = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(line);
      if (m && SHA_RE.test(m[1])) blob = m[1];
    } else if (line.startsWith("+++ ")) {
      const name = unquoteGitPath(line.slice(4).replace(/\t$/, ""));
      path = name === "/dev/null" ? null : name.replace(/^b\//, "");
    } else if (line.startsWith("@@ ")) {
      const m = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m) {
        oldLeft = m[1] === undefined ? 1 : Number(m[1]);
        newLine = Number(m[2]);
        newLeft = m[3] === undefined ? 1 : Number(m[3]);
      }
    }
  };

  return new Promise((resolve, reject) => {
    let bytes = 0;
    let truncated = false;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let skipping = false; // inside a line longer than maxLine, after its first maxLine bytes
    let stderr = "";
    const stop = () => {
      truncated = true;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(stop, opts.timeoutMs ?? 5 * 60_000);
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 8192) stderr += c.toString("utf8");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      if (bytes + chunk.length > opts.maxBytes) {
        chunk = chunk.subarray(0, opts.maxBytes - bytes);
        stop();
      }
      bytes += chunk.length;
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        if (!skipping) {
          pending.push(chunk.subarray(start, nl));
          handle(Buffer.concat(pending).toString("utf8"));
        }
        pending = [];
        pendingBytes = 0;
        skipping = false;
        start = nl + 1;
      }
      if (!skipping && start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxLine) {
          handle(Buffer.concat(pending).subarray(0, maxLine).toString("utf8"));
          pending = [];
          pendingBytes = 0;
          skipping = true;
        }
      }
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (truncated) return resolve({ truncated, bytes });
      if (pending.length && !skipping) handle(Buffer.concat(pending).toString("utf8"));
      if (code !== 0) return reject(new Error(`git log -p failed (${code}): ${stderr.trim().slice(0, 500)}`));
      resolve({ truncated: false, bytes });
    });
  });
}
