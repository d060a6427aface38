/**
 * Diff benchmark (issue #8): `npx tsx bench/diff.bench.ts [--files 2000] [--lines 50] [--runs 5]`
 * (not part of the tests). Builds a range of `files` files with `lines` changed lines each
 * (additions + deletions: 2,000 × 50 = 100k changed lines, 50k added and 50k deleted), serves svc's tRPC handler over HTTP
 * on 127.0.0.1 (test/helpers.ts `startServer`), and times, median of `runs`:
 *   - `git diff -M -C base...head` read to the end (the physical limit: git computing and
 *     printing the same diff);
 *   - repos.compare over HTTP: the first page (every file's metadata, hunks up to the response
 *     budget, docs/pulls.md "Diff" limits), as the compare page loads it;
 *   - the same with `maxLines: 10000`, the compare page's first response;
 *   - the whole diff through the API: that page, then `paths` pages (200 files each) for every
 *     file whose hunks were left out, as a viewer scrolling to the end would.
 * Prints each against git (goal ≤ 1.3× for the page).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FILES = flag("files", 2000);
const LINES = flag("lines", 50);
const RUNS = flag("runs", 5);

const work = mkdtempSync(path.join(os.tmpdir(), "svc-diff-bench-"));
process.env.DATA_DIR = path.join(work, "data");
process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
process.env.NEXTAUTH_SECRET ??= "bench-secret";
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

const ENV = { PATH: process.env.PATH, HOME: work, LANG: "C", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" } as unknown as NodeJS.ProcessEnv;
const sh = (cwd: string, ...argv: string[]) => execFileSync("git", argv, { cwd, env: ENV, maxBuffer: 1 << 30 }).toString();

/** Milliseconds git takes to print the whole diff (stdout read and dropped). */
function timeGitDiff(gitDir: string, base: string, head: string): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn("git", ["diff", "-M", "-C", "--no-color", `${base}...${head}`], { env: { ...ENV, GIT_DIR: gitDir } });
    let bytes = 0;
    child.stdout.on("data", (c: Buffer) => (bytes += c.length));
    child.on("error", reject);
    child.on("close", () => resolve({ ms: performance.now() - t, bytes }));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  // ---- the range ----
  const src = path.join(work, "src");
  mkdirSync(src);
  sh(src, "init", "-q", "--initial-branch=main");
  // LINES / 2 lines replaced per file: LINES / 2 deletions + LINES / 2 additions
  const body = (i: number, v: string) => Array.from({ length: LINES }, (_, k) => (k % 2 === 0 ? `file ${i} line ${k} ${v} ${"x".repeat(20)}` : `file ${i} keep ${k}`)).join("\n") + "\n";
  for (let i = 0; i < FILES; i++) {
    const p = path.join(src, `dir${i % 40}`, `f${i}.txt`);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, body(i, "old"));
  }
  sh(src, "add", "-A");
  sh(src, "commit", "-qm", "base");
  sh(src, "checkout", "-qb", "topic");
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(src, `dir${i % 40}`, `f${i}.txt`), body(i, "new"));
  sh(src, "commit", "-qam", "change everything");

  const { getDb, closeDb } = await import("@/server/db");
  const { signUp } = await import("@/server/services/users");
  const { createToken } = await import("@/server/services/tokens");
  const { createRepository } = await import("@/server/services/repos");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { repoGitDir } = await import("@/server/git/paths");
  const { startServer } = await import("../test/helpers");
  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const { token } = await createToken(db, user.id, { name: "bench", scopes: ["repo:read"] });
  const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: "diffs" });
  const gitDir = repoGitDir("bench", "diffs");
  execFileSync("git", ["fetch", "-q", src, "+refs/heads/*:refs/heads/*"], { env: { ...ENV, GIT_DIR: gitDir } });
  const server = await startServer();

  const get = async (input: unknown) => {
    const r = await fetch(`${server.url}/api/trpc/repos.compare?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${r.status} ${text.slice(0, 300)}`);
    return { bytes: text.length, data: JSON.parse(text).result.data };
  };

  const gitMs: number[] = [];
  const pageMs: number[] = [];
  const allMs: number[] = [];
  const smallMs: number[] = [];
  let gitBytes = 0;
  let pageBytes = 0;
  let pageFiles = 0;
  let pageLines = 0;
  let pages = 0;
  await get({ repoId: repo.id, base: "main", head: "topic" }); // warm up (module loading, first git run)
  for (let run = 0; run < RUNS; run++) {
    const g = await timeGitDiff(gitDir, "main", "topic");
    gitMs.push(g.ms);
    gitBytes = g.bytes;

    let t = performance.now();
    const first = await get({ repoId: repo.id, base: "main", head: "topic" });
    pageMs.push(performance.now() - t);
    pageBytes = first.bytes;
    const files = first.data.diff.files as { newPath: string; truncatedReason?: string; hunks: { lines: unknown[] }[] }[];
    pageFiles = files.length;
    pageLines = files.reduce((s, f) => s + f.hunks.reduce((a, h) => a + h.lines.length, 0), 0);

    t = performance.now();
    await get({ repoId: repo.id, base: "main", head: "topic", maxLines: 10_000 });
    smallMs.push(performance.now() - t);

    t = performance.now();
    await get({ repoId: repo.id, base: "main", head: "topic" });
    const rest = files.filter((f) => f.truncatedReason === "total").map((f) => f.newPath);
    pages = 1;
    for (let i = 0; i < rest.length; i += 200) {
      await get({ repoId: repo.id, base: "main", head: "topic", paths: rest.slice(i, i + 200) });
      pages++;
    }
    allMs.push(performance.now() - t);
  }
  const git = median(gitMs);
  console.log(`range: ${FILES} files, ${FILES * LINES} changed lines (additions + deletions); git diff output ${(gitBytes / 1e6).toFixed(1)} MB; ${RUNS} runs, medians`);
  console.log(`git diff -M -C base...head        ${git.toFixed(0)} ms`);
  console.log(`repos.compare, first page (HTTP)  ${median(pageMs).toFixed(0)} ms  ${(median(pageMs) / git).toFixed(2)}× git  (${pageFiles} files listed, ${pageLines} hunk lines, ${(pageBytes / 1e6).toFixed(1)} MB JSON)`);
  console.log(`compare page's first response     ${median(smallMs).toFixed(0)} ms  ${(median(smallMs) / git).toFixed(2)}× git  (maxLines 10,000, as /compare renders)`);
  console.log(`whole diff via paths pages (HTTP) ${median(allMs).toFixed(0)} ms  ${(median(allMs) / git).toFixed(2)}× git  (${pages} requests)`);
  await server.close();
  await closeDb?.();
  rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
