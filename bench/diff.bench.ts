/**
 * Diff benchmark (docs/performance.md "Diffs", "Hardening II, item 14"):
 * `npx tsx bench/diff.bench.ts [--files 2000] [--lines 100] [--runs 5]` (not part of the tests).
 * Builds a range of `files` files with `lines` changed lines each (additions + deletions: 2,000 ×
 * 50 = 100k changed lines, 50k added and 50k deleted) and a pull request of it, serves svc's tRPC
 * handler over HTTP on 127.0.0.1 (test/helpers.ts `startServer`, in this process: the client's JSON
 * decoding shares the thread), and times, median of `runs`:
 *   - `git diff -M -C base...head` read to the end (the physical limit: git computing and
 *     printing the same diff);
 *   - pulls.getDiff and repos.compare over HTTP, the first page (every file's metadata, hunks up
 *     to the response budget, docs/pulls.md "Diff" limits): "cold" right after a push (a new
 *     empty commit on the head branch, so no cache knows the pair: the first view of a new
 *     head) and "warm" (the same pair again);
 *   - compare with `maxLines: 10000`, the compare page's first response;
 *   - the whole diff through the API: the first page, then `paths` pages (200 files each) for
 *     every file whose hunks were left out, as a viewer scrolling to the end would;
 *   - getDiff of one file (`path`): the fixed cost of a request (auth, lookups, one small diff);
 *   - getDiff with `maxLines: 2000` right after a push: what the Files changed tab asks first;
 *   - the first page and the `maxLines: 2000` page after a push once the after-push job has
 *     warmed the diff (`warmPullDiff`, what the `pulls.refreshMergeability` job does after its
 *     mergeability check; run untimed between the push and the request).
 *   - the file list and hunk pages (pulls.getDiffFiles, pulls.getDiffPage; docs/pulls.md "File
 *     list and hunk pages"): the first page alone, and the whole diff (the list and the first
 *     page side by side, then every page to the last `nextCursor`), after a push and after a push + the job, bytes and time against
 *     `git diff -p` (goals: the whole diff ≤ 2×, the first page ≤ 1×);
 *   - memory: RSS of this process (server and client; bodies counted, not kept) while 8 getDiff
 *     calls of the pull request run at once right after a push, and after them (1 s idle, then
 *     after a full GC when node runs with --expose-gc); the same for 8 page-by-page readers.
 * Prints each against git measured in the same run (goal ≤ 1.3× for the page).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FILES = flag("files", 2000);
const LINES = flag("lines", 100);
const RUNS = flag("runs", 5);
/** `--memory`: only the setup and the memory rows (a quick RSS check). */
const MEMORY_ONLY = args.includes("--memory");
/** `--pages`: only git and the file list + hunk page rows (no memory rows, no getDiff / compare rows). */
const PAGES_ONLY = args.includes("--pages");

const work = mkdtempSync(path.join(os.tmpdir(), "svc-diff-bench-"));
process.env.DATA_DIR = path.join(work, "data");
process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
process.env.NEXTAUTH_SECRET ??= "bench-secret";
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

const ENV = {
  PATH: process.env.PATH,
  HOME: work,
  LANG: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@b",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@b",
} as unknown as NodeJS.ProcessEnv;
const sh = (cwd: string, ...argv: string[]) => execFileSync("git", argv, { cwd, env: ENV, maxBuffer: 1 << 30 }).toString();

/**
 * CPU ms used so far by this process (server and client) plus its exited children (git: Linux's
 * cutime + cstime from /proc/self/stat, 10 ms ticks): a measure the machine's load does not inflate.
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime (fields 16, 17)
  } catch {
    // not Linux: own CPU only
  }
  return (own.user + own.system) / 1000 + children;
}

/** Milliseconds git takes to print the whole diff (stdout read and dropped), and its CPU. */
function timeGitDiff(gitDir: string, base: string, head: string): Promise<{ ms: number; bytes: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const c = cpuMs();
    const child = spawn("git", ["diff", "-M", "-C", "--no-color", `${base}...${head}`], { env: { ...ENV, GIT_DIR: gitDir } });
    let bytes = 0;
    child.stdout.on("data", (c: Buffer) => (bytes += c.length));
    child.on("error", reject);
    child.on("close", () => resolve({ ms: performance.now() - t, bytes, cpu: cpuMs() - c }));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  // ---- the range ----
  const src = path.join(work, "src");
  mkdirSync(src);
  sh(src, "init", "-q", "--initial-branch=main");
  // LINES / 2 lines replaced per file: LINES / 2 deletions + LINES / 2 additions
  const body = (i: number, v: string) =>
    Array.from({ length: LINES }, (_, k) => (k % 2 === 0 ? `file ${i} line ${k} ${v} ${"x".repeat(20)}` : `file ${i} keep ${k}`)).join(
      "\n",
    ) + "\n";
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
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createToken } = await import("@/server/services/tokens/manage-tokens");
  const { createRepository } = await import("@/server/services/repos/create-repository");
  const { createPullRequest } = await import("@/server/services/pulls/create-pull-request");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { repoGitDir } = await import("@/server/git/paths");
  const { startServer } = await import("../test/helpers");
  const { gitProcessCounts } = await import("@/server/git/exec");
  /** git processes the server started during the last whole diff read page by page (after a push; after a push + the job). */
  const gitRuns = { cold: 0, job: 0 };
  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const { token } = await createToken(db, user.id, { name: "bench", scopes: ["repo:read"] });
  const actor = { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES } as const;
  const repo = await createRepository(db, actor, { name: "diffs" });
  const gitDir = repoGitDir("bench", "diffs");
  execFileSync("git", ["fetch", "-q", src, "+refs/heads/*:refs/heads/*"], { env: { ...ENV, GIT_DIR: gitDir } });
  const bare = (...argv: string[]) =>
    execFileSync("git", argv, { env: { ...ENV, GIT_DIR: gitDir } })
      .toString()
      .trim();
  const pr = await createPullRequest(db, actor, repo, {
    title: "everything",
    sourceBranch: "topic",
    targetBranch: "main",
    headSha: bare("rev-parse", "topic"),
    baseSha: bare("rev-parse", "main"),
  });
  // optional, so the bench also runs on a checkout without the after-push warm-up: those rows then measure the unwarmed path
  const warmPullDiff: (db: unknown, prId: string) => Promise<unknown> =
    (
      (await import("@/server/services/diff/warm-pull-diff")) as unknown as {
        warmPullDiff?: (db: unknown, prId: string) => Promise<unknown>;
      }
    ).warmPullDiff ?? (async () => false);
  const server = await startServer();

  /** A push: an empty commit on topic (same tree, so the same diff) and the pull request's head moved to it, as after-push does. */
  const push = async () => {
    const old = bare("rev-parse", "topic");
    const next = bare("commit-tree", "topic^{tree}", "-p", old, "-m", `push ${performance.now()}`);
    bare("update-ref", "refs/heads/topic", next, old);
    await db.pullRequest.update({ where: { id: pr.id }, data: { headSha: next } });
  };
  const call = async (proc: string, input: unknown) => {
    const r = await fetch(`${server.url}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${r.status} ${text.slice(0, 300)}`);
    return { bytes: text.length, data: JSON.parse(text).result.data };
  };
  /** `proc` with `input` whose body is counted and dropped (no JSON kept): the RSS phase. */
  const drain = async (proc: string, input: unknown) => {
    const r = await fetch(`${server.url}/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    let bytes = 0;
    let tail = "";
    for await (const c of r.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += c.length;
      tail = (tail + Buffer.from(c.subarray(Math.max(0, c.length - 400))).toString("latin1")).slice(-400);
    }
    // a page's nextCursor is near the end of its JSON (before the range's ids)
    const next = /"nextCursor":(?:"([^"]*)"|null)/.exec(tail);
    return { status: r.status, bytes, nextCursor: next?.[1] ?? null };
  };
  // pulls.getDiffPage is absent from a checkout before the pages (the bench then prints the legacy rows only)
  const hasPages = await fetch(`${server.url}/api/trpc/pulls.getDiffFiles?input=${encodeURIComponent(JSON.stringify({ prId: pr.id }))}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.status === 200);
  /** The file list and the first page side by side (neither needs the other), then every page: bytes and requests. */
  const wholeByPages = async () => {
    const [list, first] = await Promise.all([call("pulls.getDiffFiles", { prId: pr.id }), call("pulls.getDiffPage", { prId: pr.id })]);
    let bytes = list.bytes + first.bytes;
    let n = 2;
    let cursor: string | null = first.data.nextCursor;
    while (cursor) {
      const page = await call("pulls.getDiffPage", { prId: pr.id, cursor });
      bytes += page.bytes;
      cursor = page.data.nextCursor;
      n++;
    }
    return { bytes, n };
  };
  // ---- memory first, while the heap holds only the setup: 8 concurrent readers ----
  const memRows: string[] = [];
  await drain("pulls.getDiff", { prId: pr.id, path: "dir0/f0.txt" }); // loads the router's modules
  const gc = (globalThis as { gc?: () => void }).gc;
  const mem = async (label: string, each: () => Promise<unknown>) => {
    gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    let heapPeak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed + m.external);
    }, 5);
    const t0 = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 8 }, each));
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const refused = results.filter((r) => r.status === "rejected" || (r.value as { status?: number })?.status === 429).length;
    await new Promise((r) => setTimeout(r, 1000));
    const idle = process.memoryUsage().rss;
    gc?.();
    const after = process.memoryUsage().rss;
    memRows.push(
      `${label.padEnd(48)} RSS before ${(before / 1e6).toFixed(0)} MB, peak ${(peak / 1e6).toFixed(0)} MB (heap + external ${(heapPeak / 1e6).toFixed(0)} MB), 1 s after ${(idle / 1e6).toFixed(0)} MB${gc ? `, after GC ${(after / 1e6).toFixed(0)} MB` : ""}; ${ms.toFixed(0)} ms${refused ? `, ${refused} refused` : ""}`,
    );
  };
  if (!PAGES_ONLY) await push();
  if (!PAGES_ONLY) await mem("8 concurrent pulls.getDiff, after a push", () => drain("pulls.getDiff", { prId: pr.id }));
  if (!PAGES_ONLY) await mem("8 concurrent pulls.getDiff, again", () => drain("pulls.getDiff", { prId: pr.id }));
  if (hasPages && !PAGES_ONLY) {
    await push();
    await mem("8 concurrent page-by-page readers, after a push", async () => {
      let cursor: string | null | undefined;
      await drain("pulls.getDiffFiles", { prId: pr.id });
      do cursor = (await drain("pulls.getDiffPage", { prId: pr.id, cursor: cursor ?? undefined })).nextCursor;
      while (cursor);
    });
  }
  if (MEMORY_ONLY) {
    for (const line of memRows) console.log(line);
    await server.close();
    await closeDb?.();
    rmSync(work, { recursive: true, force: true });
    return;
  }

  type File = { newPath: string; truncatedReason?: string; hunks: { lines: unknown[] }[] };
  const compare = (extra: object = {}) => call("repos.compare", { repoId: repo.id, base: "main", head: "topic", ...extra });
  const getDiff = (extra: object = {}) => call("pulls.getDiff", { prId: pr.id, ...extra });
  /** CPU ms (this process + git) of the timed calls, by the array their times go to. */
  const cpuOf = new Map<number[], number[]>();
  const timed = async <T>(into: number[], f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const c = cpuMs();
    const r = await f();
    into.push(performance.now() - t);
    if (!cpuOf.has(into)) cpuOf.set(into, []);
    cpuOf.get(into)!.push(cpuMs() - c);
    return r;
  };
  /** The first page, then `paths` pages of 200 for the files left without hunks; returns the number of requests. */
  const whole = async (page: (extra?: object) => Promise<{ data: unknown; bytes: number }>, filesOf: (d: never) => File[]) => {
    const first = await page();
    const files = filesOf(first.data as never);
    const rest = files.filter((f) => f.truncatedReason === "total").map((f) => f.newPath);
    let n = 1;
    let bytes = first.bytes;
    for (let i = 0; i < rest.length; i += 200, n++) bytes += (await page({ paths: rest.slice(i, i + 200) })).bytes;
    legacyBytes = bytes;
    return n;
  };

  const t = {
    git: [] as number[],
    cmpCold: [] as number[],
    cmpWarm: [] as number[],
    cmpSmall: [] as number[],
    cmpAll: [] as number[],
    prCold: [] as number[],
    prWarm: [] as number[],
    prAll: [] as number[],
    prOne: [] as number[],
    prTab: [] as number[],
    prJob: [] as number[],
    prJobTab: [] as number[],
    pgFirst: [] as number[],
    pgFirstWarm: [] as number[],
    pgList: [] as number[],
    pgAll: [] as number[],
    pgAllJob: [] as number[],
  };
  const gitCpu: number[] = [];
  let legacyBytes = 0,
    firstPageBytes = 0,
    listBytes = 0,
    pagesBytes = 0,
    pageRequests = 0;
  let gitBytes = 0,
    pageBytes = 0,
    pageFiles = 0,
    pageLines = 0,
    pages = 0;
  await compare(); // warm up (module loading, first git run)
  await getDiff();
  if (PAGES_ONLY) await wholeByPages();
  for (let run = 0; run < RUNS; run++) {
    const g = await timeGitDiff(gitDir, "main", "topic");
    t.git.push(g.ms);
    gitCpu.push(g.cpu);
    gitBytes = g.bytes;

    if (!PAGES_ONLY) {
      await push();
      await timed(t.cmpCold, () => compare());
      const first = await timed(t.cmpWarm, () => compare());
      pageBytes = first.bytes;
      const files = first.data.diff.files as File[];
      pageFiles = files.length;
      pageLines = files.reduce((s, f) => s + f.hunks.reduce((a, h) => a + h.lines.length, 0), 0);
      await timed(t.cmpSmall, () => compare({ maxLines: 10_000 }));
      pages = await timed(t.cmpAll, () => whole(compare, (d: { diff: { files: File[] } }) => d.diff.files));

      await push();
      await timed(t.prCold, () => getDiff());
      await timed(t.prWarm, () => getDiff());
      await timed(t.prAll, () => whole(getDiff, (d: { files: File[] }) => d.files));
      await timed(t.prOne, () => getDiff({ path: "dir0/f0.txt" }));

      await push();
      await timed(t.prTab, () => getDiff({ maxLines: 2_000 }));

      await push();
      await warmPullDiff(db, pr.id); // the after-push job's warm-up, done before the page asks
      await timed(t.prJob, () => getDiff());
      await push();
      await warmPullDiff(db, pr.id);
      await timed(t.prJobTab, () => getDiff({ maxLines: 2_000 }));
    }

    if (hasPages) {
      await push();
      firstPageBytes = (await timed(t.pgFirst, () => call("pulls.getDiffPage", { prId: pr.id }))).bytes;
      await timed(t.pgFirstWarm, () => call("pulls.getDiffPage", { prId: pr.id }));
      listBytes = (await timed(t.pgList, () => call("pulls.getDiffFiles", { prId: pr.id }))).bytes;
      await push();
      let g0 = gitProcessCounts().started;
      const all = await timed(t.pgAll, wholeByPages);
      gitRuns.cold = gitProcessCounts().started - g0;
      pagesBytes = all.bytes;
      pageRequests = all.n;
      await push();
      await warmPullDiff(db, pr.id);
      g0 = gitProcessCounts().started;
      await timed(t.pgAllJob, wholeByPages);
      gitRuns.job = gitProcessCounts().started - g0;
    }
  }
  const git = median(t.git);
  const gitCpuMs = median(gitCpu);
  // wall time against git's, and CPU (this process: server and client, plus its git processes) against git's own CPU
  const row = (label: string, xs: number[], note = "") => {
    const cpu = cpuOf.get(xs);
    const cpuNote = cpu ? `, CPU ${median(cpu).toFixed(0)} ms ${(median(cpu) / gitCpuMs).toFixed(2)}× git's` : "";
    console.log(
      `${label.padEnd(48)} ${median(xs).toFixed(0).padStart(5)} ms  ${(median(xs) / git).toFixed(2)}× git${cpuNote}${note ? `  (${note})` : ""}`,
    );
  };
  console.log(
    `range: ${FILES} files, ${FILES * LINES} changed lines (additions + deletions); git diff output ${(gitBytes / 1e6).toFixed(1)} MB; ${RUNS} runs, medians; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`${"git diff -M -C base...head".padEnd(48)} ${git.toFixed(0).padStart(5)} ms, CPU ${gitCpuMs.toFixed(0)} ms`);
  if (!PAGES_ONLY) {
    row(
      "pulls.getDiff, first page, after a push",
      t.prCold,
      `${pageFiles} files listed, ${pageLines} hunk lines, ${(pageBytes / 1e6).toFixed(1)} MB JSON`,
    );
    row("pulls.getDiff, first page, again", t.prWarm);
    row("pulls.getDiff, whole diff via paths pages", t.prAll, `${pages} requests`);
    row("pulls.getDiff, one file (path)", t.prOne);
    row("pulls.getDiff, maxLines 2,000, after a push", t.prTab, "the Files changed tab's first response");
    row("pulls.getDiff, first page, after a push + job", t.prJob, "the after-push job warmed the counts");
    row("pulls.getDiff, maxLines 2,000, after a push + job", t.prJobTab);
    row("repos.compare, first page, after a push", t.cmpCold);
    row("repos.compare, first page, again", t.cmpWarm);
    row("repos.compare, maxLines 10,000", t.cmpSmall, "as /compare renders");
    row("repos.compare, whole diff via paths pages", t.cmpAll, `${pages} requests`);
  }
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB, ${(b / gitBytes).toFixed(2)}× git's bytes`;
  if (!PAGES_ONLY) console.log(`bytes: git diff -p ${(gitBytes / 1e6).toFixed(1)} MB; getDiff first page + paths pages ${mb(legacyBytes)}`);
  if (hasPages) {
    row("pulls.getDiffPage, first page, after a push", t.pgFirst, mb(firstPageBytes));
    row("pulls.getDiffPage, first page, again", t.pgFirstWarm);
    row("pulls.getDiffFiles, after the first page", t.pgList, mb(listBytes));
    row(
      "whole diff: getDiffFiles + pages, after a push",
      t.pgAll,
      `${pageRequests} requests, ${mb(pagesBytes)}, ${gitRuns.cold} git processes`,
    );
    row("whole diff: getDiffFiles + pages, push + job", t.pgAllJob, `${gitRuns.job} git processes`);
  }

  for (const line of memRows) console.log(line);
  // every git process costs the server this much event-loop time before git runs (fork + exec of a large process)
  const spawnMs: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    const child = spawn("git", ["version"], { env: ENV });
    spawnMs.push(performance.now() - t0);
    await new Promise((r) => child.on("close", r));
  }
  console.log(
    `spawn() of one git process blocks this process ${median(spawnMs).toFixed(1)} ms (median of 9; RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB)`,
  );
  await server.close();
  await closeDb?.();
  rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
