/**
 * Clone benchmark (docs/git-http.md "Benchmark"; docs/performance.md "Clone"): `git clone` of a
 * repository with ≥ 20k commits over svc's smart HTTP vs `git clone --no-local` of the same bare
 * repository, in the same run. Prints the time ratio (goal ≤ 1.4×) and the server process's peak
 * RSS growth during the HTTP clone (goal < 200 MB), plus the peak RSS of the git processes the
 * server ran.
 *
 *   npx tsx bench/clone.bench.ts [--commits 20000] [--runs 5] [--rebuild]
 *
 * The repository is built once with `git fast-import` (nested directories, ~500 files, two
 * small edits per commit, then `git repack -a -d`) and cached under
 * $TMPDIR/svc-bench-cache/; later runs reuse it. The server is in this process: a plain
 * node:http server calling handleGitHttp, the same function the Next route calls, with request
 * and response bodies streamed and client disconnects aborting the request (as Next does).
 * Not part of the tests.
 */
import http from "node:http";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gitClient } from "./git-client";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const COMMITS = flag("commits", 20_000);
const RUNS = flag("runs", 5);
const REBUILD = args.includes("--rebuild");

const cacheDir = path.join(os.tmpdir(), "svc-bench-cache");
const cachedRepo = path.join(cacheDir, `repo-${COMMITS}.git`);
const work = mkdtempSync(path.join(os.tmpdir(), "svc-bench-"));
const home = path.join(work, "home");
mkdirSync(home);

// svc's configuration for this process: a throwaway data directory and SQLite database.
process.env.DATA_DIR = path.join(work, "data");
process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
process.env.NEXTAUTH_SECRET ??= "bench-secret";
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

const { git, gitOk } = gitClient(work, home);

/** A fast-import stream: ~500 files in nested directories, two edits per commit, a new file every 100 commits. */
async function* fastImportStream(commits: number): AsyncGenerator<string> {
  const files = new Map<string, string[]>();
  for (let d = 0; d < 50; d++)
    for (let f = 0; f < 10; f++)
      files.set(`src/mod${d % 10}/sub${d}/file${f}.ts`, [`// file ${d}/${f}`, `export const value${f} = ${d * 10 + f};`]);
  const names = [...files.keys()];
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let i = 1; i <= commits; i++) {
    let chunk = `commit refs/heads/main\nmark :${i}\ncommitter Bench Bot <bench@example.com> ${1_600_000_000 + i * 60} +0000\n`;
    chunk += data(`Change ${i}: tweak things\n\nThis is commit number ${i} of the benchmark history.\n`);
    if (i > 1) chunk += `from :${i - 1}\n`;
    const touched = i === 1 ? names : [names[rand(names.length)], names[rand(names.length)]];
    if (i % 100 === 0) {
      const name = `docs/notes/${Math.floor(i / 1000)}/note-${i}.md`;
      files.set(name, [`# Note ${i}`, "", "Some text."]);
      names.push(name);
      touched.push(name);
    }
    for (const name of touched) {
      const lines = files.get(name)!;
      if (i > 1) lines.push(`// edit ${i}: ${"x".repeat(rand(40))}`);
      chunk += `M 100644 inline ${name}\n${data(lines.join("\n") + "\n")}`;
    }
    yield chunk + "\n";
  }
  yield "done\n";
}

async function ensureRepository(): Promise<string> {
  if (!REBUILD && existsSync(path.join(cachedRepo, "HEAD"))) {
    const count = Number((await git(["--git-dir", cachedRepo, "rev-list", "--count", "--all"])).stdout.trim());
    if (count >= COMMITS) {
      console.log(`reusing ${cachedRepo} (${count} commits)`);
      return cachedRepo;
    }
  }
  rmSync(cachedRepo, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const t0 = Date.now();
  await gitOk(["init", "--bare", "--quiet", "--initial-branch=main", cachedRepo]);
  await gitOk(["--git-dir", cachedRepo, "fast-import", "--quiet", "--done"], { input: fastImportStream(COMMITS) });
  await gitOk(["--git-dir", cachedRepo, "repack", "-a", "-d", "-q"]);
  console.log(`built ${cachedRepo}: ${COMMITS} commits in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return cachedRepo;
}

/** Sum of VmRSS (bytes) of the descendants of `pid` (the git processes the server runs). */
function descendantsRss(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(name));
    } catch {
      // process ended
    }
  }
  let total = 0;
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${c}/status`, "utf8"));
        if (m) total += Number(m[1]) * 1024;
      } catch {
        // ended
      }
      walk(c);
    }
  };
  walk(pid);
  return total;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const MB = 1024 * 1024;

async function main() {
  const source = await ensureRepository();
  const packBytes = readdirSync(path.join(source, "objects/pack"))
    .filter((f) => f.endsWith(".pack"))
    .reduce((s, f) => s + readFileSync(path.join(source, "objects/pack", f)).length, 0);

  // svc: a user, a token and a repository whose bare repo is a copy of the benchmark repository.
  const { getDb, closeDb } = await import("@/server/db");
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createToken } = await import("@/server/services/tokens/manage-tokens");
  const { createRepository } = await import("@/server/services/repos/create-repository");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { handleGitHttp } = await import("@/server/http/git/smart-http");
  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const { token } = await createToken(db, user.id, { name: "bench" });
  const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: "history" });
  rmSync(repo.gitDir, { recursive: true, force: true });
  cpSync(source, repo.gitDir, { recursive: true });

  const server = http.createServer(async (nreq, nres) => {
    const abort = new AbortController();
    nres.on("close", () => abort.abort());
    try {
      const m = /^\/([^/]+)\/([^/]+)\.git\/([^?]*)/.exec(nreq.url ?? "");
      if (!m) return void nres.writeHead(404).end();
      const headers = new Headers();
      for (const [k, v] of Object.entries(nreq.headers)) if (typeof v === "string") headers.set(k, v);
      const hasBody = nreq.method === "POST";
      const req = new Request(`http://${nreq.headers.host}${nreq.url}`, {
        method: nreq.method,
        headers,
        signal: abort.signal,
        body: hasBody ? (Readable.toWeb(nreq) as ReadableStream) : undefined,
        duplex: "half",
      } as RequestInit);
      const res = await handleGitHttp(req, m[1], m[2], m[3]);
      nres.writeHead(res.status, Object.fromEntries(res.headers));
      if (res.body)
        Readable.fromWeb(res.body as never)
          .on("error", () => nres.destroy())
          .pipe(nres);
      else nres.end();
    } catch (e) {
      console.error(e);
      nres.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const url = `http://bench:${token}@127.0.0.1:${port}/bench/history.git`;

  const commits = (await gitOk(["--git-dir", repo.gitDir, "rev-list", "--count", "--all"])).trim();
  console.log(
    `repository: ${commits} commits, pack ${(packBytes / MB).toFixed(1)} MB; git ${(await gitOk(["--version"])).trim()}; node ${process.version}; ${os.cpus().length} CPUs; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );

  // warm-up: loads the database client and auth code, so the RSS figure is the clone's alone
  await gitOk(["ls-remote", url]);

  const timeClone = async (from: string, extra: string[]): Promise<number> => {
    const dest = mkdtempSync(path.join(work, "clone-"));
    rmSync(dest, { recursive: true });
    const t0 = process.hrtime.bigint();
    await gitOk(["clone", "--quiet", ...extra, from, dest]);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const head = (await gitOk(["rev-parse", "HEAD"], { cwd: dest })).trim();
    if (head !== (await gitOk(["--git-dir", repo.gitDir, "rev-parse", "HEAD"])).trim()) throw new Error("clone has a different HEAD");
    rmSync(dest, { recursive: true, force: true });
    return ms;
  };

  const httpMs: number[] = [];
  const localMs: number[] = [];
  let peakGrowth = 0;
  let peakGit = 0;
  for (let run = 0; run < RUNS; run++) {
    localMs.push(await timeClone(repo.gitDir, ["--no-local"]));

    (globalThis as { gc?: () => void }).gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    let gitPeak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
      gitPeak = Math.max(gitPeak, descendantsRss(process.pid));
    }, 25);
    try {
      httpMs.push(await timeClone(url, []));
    } finally {
      clearInterval(sampler);
    }
    peakGrowth = Math.max(peakGrowth, peak - base);
    peakGit = Math.max(peakGit, gitPeak);
    console.log(
      `run ${run + 1}: --no-local ${localMs[run].toFixed(0)} ms, svc HTTP ${httpMs[run].toFixed(0)} ms, server RSS growth ${((peak - base) / MB).toFixed(1)} MB`,
    );
  }

  // Median and best of the runs: on a shared machine the best run is the least disturbed one.
  const ratio = median(httpMs) / median(localMs);
  const bestRatio = Math.min(...httpMs) / Math.min(...localMs);
  console.log("");
  console.log(`git clone --no-local: median ${median(localMs).toFixed(0)} ms, best ${Math.min(...localMs).toFixed(0)} ms (${RUNS} runs)`);
  console.log(
    `git clone over svc smart HTTP: median ${median(httpMs).toFixed(0)} ms, best ${Math.min(...httpMs).toFixed(0)} ms (${RUNS} runs)`,
  );
  console.log(`ratio: ${ratio.toFixed(2)}x median, ${bestRatio.toFixed(2)}x best (goal <= 1.4x) ${ratio <= 1.4 ? "OK" : "OVER GOAL"}`);
  console.log(
    `server peak RSS growth during the HTTP clone: ${(peakGrowth / MB).toFixed(1)} MB (goal < 200 MB) ${peakGrowth < 200 * MB ? "OK" : "OVER GOAL"}`,
  );
  console.log(`peak RSS of the git processes the server ran (upload-pack + pack-objects): ${(peakGit / MB).toFixed(1)} MB`);

  await new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  await closeDb();
  rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
