/**
 * The interdiff benches' repository (bench/interdiff.bench.ts, bench/compare-revisions.bench.ts),
 * generated with one `git fast-import` stream, no network: a base of `baseFiles` files of 100
 * lines; the change edits 4 lines in each of `files` files over 5 commits; the base then moves (3
 * lines inserted at the top of every other changed file, 200 untouched files edited); the change
 * is rebased onto it (the same 5 commits, with one line of 10 files amended). The interdiff of the
 * two revisions is those 10 files.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const INTERDIFF_COMMITS = 5;

export interface InterdiffFixture {
  /** The revisions: each head and its merge base with main (full ids). */
  revs: { oldBase: string; oldHead: string; newBase: string; newHead: string };
  /** Files the base's move touched. */
  upstreamFiles: number;
  /** Runs git on the repository (GIT_DIR), returning stdout. */
  git: (args: string[], input?: string) => string;
}

/**
 * Writes the repository into the bare `gitDir` (made with `git init --bare` when `init`); refs:
 * main (the new base), old (the old head), new (the new head).
 */
export function makeInterdiffRepo(gitDir: string, opts: { files: number; baseFiles: number; init?: boolean }): InterdiffFixture {
  const FILES = opts.files;
  const BASE_FILES = Math.max(FILES, opts.baseFiles);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { env: { ...env, GIT_DIR: gitDir }, input, maxBuffer: 1 << 30 }).toString("utf8");
  if (opts.init !== false) git(["init", "-q", "--bare", gitDir]);

  const name = (i: number) => `src/d${i % 25}/f${i}.txt`;
  const lines = (i: number, edit: (l: number) => string | null = () => null, top = false) =>
    (top ? `top 1 of ${i}\ntop 2\ntop 3\n` : "") +
    Array.from({ length: 100 }, (_, l) => edit(l) ?? `file ${i} line ${l} some text to make the line longer`).join("\n") +
    "\n";
  /** The change's edit of file i (the 4 lines 10, 35, 60, 85), with line 60 amended in the new revision's first 10 files. */
  const changed = (i: number, amended: boolean) => (l: number) =>
    l % 25 === 10 ? (amended && i < 10 && l === 60 ? `amended ${i}.${l}` : `changed ${i}.${l}`) : null;
  const baseMoved = (i: number) => i < FILES && i % 2 === 0; // the top insertion: every other changed file
  const out: string[] = [];
  let mark = 0;
  const commit = (ref: string, from: number | null, files: Array<[string, string]>): number => {
    mark += 1;
    const msg = `commit ${mark}`;
    out.push(
      `commit ${ref}\nmark :${mark}\ncommitter Bench <bench@example.com> ${1_700_000_000 + mark} +0000\ndata ${msg.length}\n${msg}\n`,
    );
    if (from) out.push(`from :${from}\n`);
    for (const [p, c] of files) out.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(c)}\n${c}\n`);
    return mark;
  };
  const all = Array.from({ length: BASE_FILES }, (_, i) => i);
  const oldBaseMark = commit(
    "refs/heads/main",
    null,
    all.map((i) => [name(i), lines(i)]),
  );
  const per = Math.ceil(FILES / INTERDIFF_COMMITS);
  let at = oldBaseMark;
  for (let c = 0; c < INTERDIFF_COMMITS; c++)
    at = commit(
      "refs/heads/old",
      at,
      all.slice(c * per, Math.min(FILES, (c + 1) * per)).map((i) => [name(i), lines(i, changed(i, false))]),
    );
  const oldHeadMark = at;
  const upstream = all.filter((i) => baseMoved(i) || (i >= FILES && i < FILES + 200));
  const newBaseMark = commit(
    "refs/heads/main",
    oldBaseMark,
    upstream.map((i) => [name(i), lines(i, i >= FILES ? (l) => (l === 50 ? "upstream" : null) : undefined, baseMoved(i))]),
  );
  at = newBaseMark;
  for (let c = 0; c < INTERDIFF_COMMITS; c++)
    at = commit(
      "refs/heads/new",
      at,
      all.slice(c * per, Math.min(FILES, (c + 1) * per)).map((i) => [name(i), lines(i, changed(i, true), baseMoved(i))]),
    );
  const newHeadMark = at;
  out.push(`progress done\n`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-interdiff-marks-"));
  try {
    git(["fast-import", "--quiet", `--export-marks=${path.join(tmp, "marks")}`], out.join(""));
    const marks = new Map(
      readFileSync(path.join(tmp, "marks"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ") as [string, string]),
    );
    const sha = (m: number) => marks.get(`:${m}`)!;
    return {
      revs: { oldBase: sha(oldBaseMark), oldHead: sha(oldHeadMark), newBase: sha(newBaseMark), newHead: sha(newHeadMark) },
      upstreamFiles: upstream.length,
      git,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `git range-diff oldBase..oldHead newBase..newHead` read to the end (its length): the benches' baseline. */
export const rangeDiff = ({ git, revs }: InterdiffFixture) =>
  git(["range-diff", "--no-color", `${revs.oldBase}..${revs.oldHead}`, `${revs.newBase}..${revs.newHead}`]).length;

/** Empties the diff metadata cache and the remembered replays (the patch cache has its own limits). */
export function forgetInterdiffCaches(): void {
  const g = globalThis as unknown as { __svcDiffMetadata?: Map<string, unknown>; __svcInterdiffReplays?: Map<string, unknown> };
  g.__svcDiffMetadata?.clear();
  g.__svcInterdiffReplays?.clear();
}
