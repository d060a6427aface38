/**
 * Soak (docs/performance.md "Soak"): mixed API, clone and push traffic at a fixed rate on
 * loopback for a bounded time, sampling the server's RSS and open file descriptors every 10 s.
 * Prints a table and a verdict: RSS growth from the baseline sample (the one at 2 minutes, or
 * at 20 % of a shorter run) to the end, fd drift, 5xx, 429 and other failures, p50/p95 latency
 * per kind of request. Exits 1 when the verdict fails. Not part of the tests; docs/performance.md.
 *
 *   npx tsx bench/soak.bench.ts [--minutes 10] [--rate 20] [--git-every 3]
 *   npx tsx bench/soak.bench.ts --url http://127.0.0.1:3000 --pid <server pid> [...]
 *
 * Without --url it starts its own server (test/fixtures/serve.ts: the same handlers as the Next
 * routes, without Next) on a throwaway DATA_DIR and SQLite database. With --url it targets a
 * running svc (e.g. `npm start`; --pid is the pid of the node process listening on the port,
 * `ss -ltnp`) and creates its users, tokens and repositories directly in that server's database,
 * as the CLI does: run it with the server's DATA_DIR / DATABASE_URL (default ./data).
 *
 * Traffic (open loop: requests start on schedule whatever the answers take), per 20 requests:
 * 5 repos.get, 5 issues.list, 4 issues.get, 3 issues.create, 3 issues.addComment, spread over
 * enough users (each with a token and a repository) to stay under the per-user limits of
 * server/rate-limit.ts; plus, every --git-every seconds, alternately a `git clone` and a push of
 * a small commit. Units: ms for latency, MB (2^20 bytes) for RSS.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitClient, gitOk, trpc, type TrpcResult } from "../test/fixtures/clients";
import { spawnServe, type ServeChild } from "../test/fixtures/spawn-serve";

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const MINUTES = Number(opt("minutes") ?? 10);
const RATE = Number(opt("rate") ?? 20);
const GIT_EVERY_S = Number(opt("git-every") ?? 3);
const SAMPLE_MS = 10_000;
const TARGET = opt("url");
const TARGET_PID = opt("pid") ? Number(opt("pid")) : undefined;
const MB = 1024 * 1024;

/** The request mix per 20 requests (order interleaves reads and writes). */
const MIX = [
  "repos.get",
  "issues.list",
  "issues.get",
  "issues.create",
  "repos.get",
  "issues.list",
  "issues.addComment",
  "issues.get",
  "repos.get",
  "issues.list",
  "issues.create",
  "issues.get",
  "repos.get",
  "issues.addComment",
  "issues.list",
  "issues.get",
  "repos.get",
  "issues.create",
  "issues.list",
  "issues.addComment",
] as const;
type Kind = (typeof MIX)[number] | "git clone" | "git push";

const work = mkdtempSync(path.join(os.tmpdir(), "svc-soak-"));
const home = path.join(work, "home");

if (TARGET) {
  const host = new URL(TARGET).hostname;
  if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) throw new Error(`--url must be a loopback address (got ${host})`);
  if (!TARGET_PID) throw new Error("--url needs --pid <pid of the server process> to sample its memory and descriptors");
} else {
  process.env.DATA_DIR = path.join(work, "data");
  process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
  process.env.NEXTAUTH_SECRET ??= "soak-secret";
}
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

interface Client {
  username: string;
  token: string;
  repo: string;
  repoId: string;
  numbers: number[];
}

/** Users needed so that no user goes over `limit` per hour for a share of RATE (with 20 % headroom). */
function usersFor(perSecond: number, limitPerHour: number): number {
  const perUser = limitPerHour * 0.8;
  const needed = (perSecond * Math.min(MINUTES, 60) * 60) / perUser;
  return Math.max(1, Math.ceil(needed));
}

/** Users, tokens and repositories, written straight into the server's database (as the CLI does). */
async function seed(): Promise<Client[]> {
  const { getDb, closeDb } = await import("@/server/db");
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createToken } = await import("@/server/services/tokens/manage-tokens");
  const { createRepository } = await import("@/server/services/repos/create-repository");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { LIMITS } = await import("@/server/rate-limit");
  const share = (k: string) => (RATE * MIX.filter((m) => m === k).length) / MIX.length;
  const n = Math.max(
    2,
    usersFor(share("issues.create"), LIMITS.issuesAsWriter.points),
    usersFor(share("issues.addComment"), LIMITS.commentsAsWriter.points),
  );
  const db = await getDb();
  const tag = Date.now().toString(36);
  const clients: Client[] = [];
  for (let i = 0; i < n; i++) {
    const user = await signUp(db, { username: `soak${tag}u${i}`, password: "password123" });
    const { token } = await createToken(db, user.id, { name: "soak", scopes: ["repo:read", "repo:write"] });
    const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: `soak${i}` });
    clients.push({ username: user.username, token, repo: repo.name, repoId: repo.id, numbers: [] });
  }
  await closeDb();
  return clients;
}

const latencies = new Map<Kind, number[]>();
const statusCounts = new Map<string, number>();
const failures: string[] = [];
let inFlight = 0;
let skipped = 0;

function record(kind: Kind, status: number, ms: number, error?: string): void {
  if (!latencies.has(kind)) latencies.set(kind, []);
  latencies.get(kind)!.push(ms);
  const bucket = status === 0 ? "network error" : status >= 500 ? "5xx" : status === 429 ? "429" : status >= 400 ? "other 4xx" : "ok";
  statusCounts.set(bucket, (statusCounts.get(bucket) ?? 0) + 1);
  if (bucket !== "ok" && failures.length < 20) failures.push(`${kind}: ${status} ${error ?? ""}`.slice(0, 300));
}

async function call(base: string, c: Client, kind: (typeof MIX)[number]): Promise<void> {
  const pick = () => c.numbers[c.numbers.length - 1 - Math.floor(Math.random() * Math.min(50, c.numbers.length))];
  let r: TrpcResult;
  switch (kind) {
    case "repos.get":
      r = await trpc(base, c.token, kind, { owner: c.username, name: c.repo }, "query");
      break;
    case "issues.list":
      r = await trpc(base, c.token, kind, { repoId: c.repoId, state: "open" }, "query");
      break;
    case "issues.get":
      r = await trpc(base, c.token, kind, { repoId: c.repoId, number: pick() }, "query");
      break;
    case "issues.create":
      r = await trpc(base, c.token, kind, { repoId: c.repoId, title: `soak issue ${Date.now()}`, body: "Some **text**." }, "mutation");
      if (r.status === 200) c.numbers.push((r.data as { number: number }).number);
      break;
    case "issues.addComment":
      r = await trpc(base, c.token, kind, { repoId: c.repoId, number: pick(), body: "A comment from the soak." }, "mutation");
      break;
  }
  record(kind, r.status, r.ms, r.error);
}

/** Alternately clones the first client's repository and pushes a small commit to it. */
async function gitOp(base: string, c: Client, n: number, tree: string): Promise<void> {
  const remote = `${base.replace("http://", `http://${c.username}:${c.token}@`)}/${c.username}/${c.repo}.git`;
  const t0 = performance.now();
  if (n % 2 === 0) {
    const dest = path.join(work, `clone-${n}`);
    const r = await gitClient(["clone", "--quiet", remote, dest], { cwd: work, home });
    rmSync(dest, { recursive: true, force: true });
    record(
      "git clone",
      r.code === 0 ? 200 : /\b5\d\d\b/.test(r.stderr) ? 500 : 400,
      performance.now() - t0,
      r.stderr.trim().split("\n").pop(),
    );
  } else {
    writeFileSync(path.join(tree, `note-${n % 20}.md`), `push ${n} at ${new Date().toISOString()}\n`);
    await gitOk(["add", "."], { cwd: tree, home });
    await gitOk(["commit", "-qm", `soak push ${n}`], { cwd: tree, home });
    const r = await gitClient(["push", "--quiet", remote, "main"], { cwd: tree, home });
    record(
      "git push",
      r.code === 0 ? 200 : /\b5\d\d\b/.test(r.stderr) ? 500 : 400,
      performance.now() - t0,
      r.stderr.trim().split("\n").pop(),
    );
  }
}

interface Sample {
  atS: number;
  rssMb: number;
  fds: number;
  /** Child processes of the server (git, and esbuild under tsx). */
  gitProcs: number;
  requests: number;
}

function sample(pid: number, atS: number): Sample {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  let gitProcs = 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) gitProcs++;
    } catch {
      // ended
    }
  }
  const requests = [...latencies.values()].reduce((s, l) => s + l.length, 0);
  return { atS, rssMb: (rssKb * 1024) / MB, fds, gitProcs, requests };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<number> {
  const clients = await seed();
  let server: ServeChild | undefined;
  let base = TARGET;
  let pid = TARGET_PID;
  if (!base) {
    server = await spawnServe({ DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL });
    base = server.url;
    pid = server.pid;
  }
  try {
    // A first commit to clone, and a few issues to read and comment on.
    const tree = path.join(work, "tree");
    mkdirSync(tree);
    await gitOk(["init", "-q", "-b", "main"], { cwd: tree, home });
    writeFileSync(path.join(tree, "README.md"), "# soak\n");
    await gitOp(base, clients[0], 1, tree);
    for (const c of clients) for (let i = 0; i < 3; i++) await call(base, c, "issues.create");
    latencies.clear();
    statusCounts.clear();

    console.log(
      `soak: ${MINUTES} min at ${RATE} req/s + a git op every ${GIT_EVERY_S} s; ${clients.length} users; server ${base} pid ${pid}${server ? " (own: test/fixtures/serve.ts, SQLite)" : ""}`,
    );
    console.log(
      `node ${process.version}; ${os.cpus().length} CPUs; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    const samples: Sample[] = [sample(pid!, 0)];
    console.log("   t(s)  RSS(MB)   fds  children  requests");
    const show = (s: Sample) =>
      console.log(
        `${String(s.atS).padStart(7)} ${s.rssMb.toFixed(1).padStart(8)} ${String(s.fds).padStart(5)} ${String(s.gitProcs).padStart(9)} ${String(s.requests).padStart(9)}`,
      );
    show(samples[0]);

    const t0 = Date.now();
    const end = t0 + MINUTES * 60_000;
    const pending = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      inFlight++;
      const q = p.catch((e) => void failures.push(String(e))).finally(() => (inFlight--, pending.delete(q)));
      pending.add(q);
    };
    let i = 0;
    let gitN = 2;
    let nextGit = t0 + GIT_EVERY_S * 1000;
    let nextSample = t0 + SAMPLE_MS;
    let gitBusy = false;
    for (let next = t0; next < end; next += 1000 / RATE) {
      const wait = next - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight >= 200) skipped++;
      else track(call(base, clients[i % clients.length], MIX[i % MIX.length]));
      i++;
      if (Date.now() >= nextGit) {
        nextGit += GIT_EVERY_S * 1000;
        if (!gitBusy) {
          gitBusy = true; // one git op at a time: pushes to one branch must not race each other
          track(gitOp(base, clients[0], gitN++, tree).finally(() => (gitBusy = false)));
        } else skipped++;
      }
      if (Date.now() >= nextSample) {
        nextSample += SAMPLE_MS;
        samples.push(sample(pid!, Math.round((Date.now() - t0) / 1000)));
        show(samples[samples.length - 1]);
      }
    }
    await Promise.all(pending);
    samples.push(sample(pid!, Math.round((Date.now() - t0) / 1000)));
    show(samples[samples.length - 1]);
    return verdict(samples);
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function verdict(samples: Sample[]): number {
  console.log("\nkind                  count    p50 ms    p95 ms");
  for (const [kind, ms] of [...latencies].sort())
    console.log(
      `${kind.padEnd(20)} ${String(ms.length).padStart(6)} ${pct(ms, 50).toFixed(1).padStart(9)} ${pct(ms, 95).toFixed(1).padStart(9)}`,
    );
  const baseAt = Math.min(120, (MINUTES * 60) / 5);
  const baseline = samples.find((s) => s.atS >= baseAt) ?? samples[0];
  const last = samples[samples.length - 1];
  const growthMb = last.rssMb - baseline.rssMb;
  const fdDrift = last.fds - baseline.fds;
  const count = (k: string) => statusCounts.get(k) ?? 0;
  console.log(
    `\nanswers: ${[...statusCounts].map(([k, v]) => `${k} ${v}`).join(", ")}; not sent (over 200 in flight or git still busy): ${skipped}`,
  );
  for (const f of failures) console.log(`  failure: ${f}`);
  console.log(
    `RSS ${baseline.rssMb.toFixed(1)} MB at ${baseline.atS} s → ${last.rssMb.toFixed(1)} MB at ${last.atS} s (${growthMb >= 0 ? "+" : ""}${growthMb.toFixed(1)} MB); peak ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)} MB`,
  );
  console.log(`fds ${baseline.fds} → ${last.fds} (drift ${fdDrift}); max ${Math.max(...samples.map((s) => s.fds))}`);
  // Flat: RSS grows less than 15 % (and 40 MB) after the warm-up; at most 5 more descriptors at the end (idle keep-alive sockets come and go).
  const problems: string[] = [];
  if (count("5xx") > 0) problems.push(`${count("5xx")} server errors`);
  if (count("network error") > 0) problems.push(`${count("network error")} network errors`);
  if (growthMb > Math.max(40, baseline.rssMb * 0.15)) problems.push(`RSS grew ${growthMb.toFixed(1)} MB`);
  if (fdDrift > 5) problems.push(`${fdDrift} more open descriptors`);
  console.log(problems.length ? `VERDICT: FAIL (${problems.join("; ")})` : "VERDICT: PASS (RSS and fds flat, no 5xx)");
  return problems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
