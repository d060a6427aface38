/**
 * Fixed-string search in one commit's files (the agent's searchCode tool when the repository has
 * no search index; docs/agent.md "Tools"). `git grep` through server/git/exec.ts: the pattern is
 * passed as the value of `-e` (never as an option, whatever it starts with) and matched literally
 * (`-F`, case-insensitive `-i`); binary files are skipped (`-I`); the commit is a full object id.
 * Output is bounded: at most `maxPerFile` matches per file (`--max-count`), `maxLines` lines in
 * all, each clipped to 300 characters, and git's output itself to MAX_GREP_BYTES.
 */
import { isSha } from "@/lib/sha";
import { AppError } from "@/server/errors";
import { runGit } from "./exec";

/** Largest `git grep` output read (bytes); beyond it the search is reported as too broad. */
export const MAX_GREP_BYTES = 2 * 1024 * 1024;

export interface GrepHit {
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  hits: GrepHit[];
  /** More matches existed than were returned. */
  truncated: boolean;
}

/**
 * Lines of `commit` containing `pattern` (literal, case-insensitive). Errors: BAD_REQUEST for an
 * empty pattern, one over 200 characters or one with a control character; BAD_REQUEST when the
 * output passes MAX_GREP_BYTES (search for something more specific).
 */
export async function grepFixed(
  gitDir: string,
  commit: string,
  pattern: string,
  opts: { maxLines?: number; maxPerFile?: number } = {},
): Promise<GrepResult> {
  if (!pattern.trim()) throw new AppError("BAD_REQUEST", "the search text is empty");
  if (pattern.length > 200) throw new AppError("BAD_REQUEST", "the search text is at most 200 characters");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(pattern)) throw new AppError("BAD_REQUEST", "the search text contains a control character");
  if (!isSha(commit)) throw new Error(`grepFixed: "${commit}" is not an object id`);
  const maxLines = opts.maxLines ?? 60;
  const args = ["grep", "-n", "-I", "-i", "-F", "--null", "--no-color", `--max-count=${opts.maxPerFile ?? 5}`, "-e", pattern, commit, "--"];
  let out;
  try {
    out = await runGit(args, { gitDir, maxBytes: MAX_GREP_BYTES, timeoutMs: 20_000 });
  } catch (e) {
    if (e instanceof AppError) throw new AppError("BAD_REQUEST", "the search matched too much; search for something more specific");
    throw e;
  }
  if (out.code === 1) return { hits: [], truncated: false };
  if (out.code !== 0) throw new Error(`git grep failed (${out.code}): ${out.stderr.trim()}`);
  const hits: GrepHit[] = [];
  const prefix = `${commit}:`;
  const lines = out.stdout.toString("utf8").split("\n").filter(Boolean);
  for (const rec of lines.slice(0, maxLines)) {
    // <commit>:<path>\0<line>\0<text> (--null separates the fields after the tree prefix)
    const [where, num, ...rest] = rec.split("\0");
    const path = where.startsWith(prefix) ? where.slice(prefix.length) : where;
    const text = rest.join("\0");
    hits.push({ path, line: Number(num), text: text.length > 300 ? `${text.slice(0, 300)}…` : text });
  }
  return { hits, truncated: lines.length > maxLines };
}
