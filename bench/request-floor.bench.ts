/**
 * The per-request floor (docs/performance.md "Hardening II, item 15"): what one API request
 * costs through the production server (`npm start`: scripts/start.mjs → scripts/server.mjs →
 * Next → server/http/trpc.ts) when the procedure itself does almost nothing, against the
 * procedures that read a little: `users.me`, `repos.get`, a 20-row `pulls.list`. The physical
 * limit of the list is its SQL on the raw driver (prepared statement), measured in the same run.
 *
 *   npx tsx bench/request-floor.bench.ts [--requests 400] [--concurrency 1] [--pulls 1000]
 *   npx tsx bench/request-floor.bench.ts --cpu-prof /tmp/prof     # profile the server, print its top functions
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/request-floor.bench.ts
 *   npx tsx bench/request-floor.bench.ts --root /tmp/svc-old    # serve another built svc folder (an A/B of two commits)
 *
 * Needs a build (`node scripts/start.mjs --build-only`; the server start builds when there is
 * none, which takes minutes). Seeds a temp DATA_DIR: one user with a personal access token
 * (repo:read, user:read), a public repository with one commit and `--pulls` pull requests (0–3
 * of 10 labels each, a third with comments). Then the server runs on a free loopback port and
 * each case gets 50 warm-up requests, then `--requests` rounds of one request of every case (so a
 * change of the machine's load hits all cases alike) over keep-alive connections, `--concurrency`
 * rounds in flight. Prints p50 / p99 ms per case and the ratios the issue asks for:
 * repos.get ÷ no-op and pulls.list ÷ no-op (goal ≤ 2×), pulls.list ÷ its raw SQL.
 */
import http from "node:http";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { openBenchDatabase } from "./support";
import { startProductionServer } from "./production-server";
import { printProfile } from "./cpu-profile";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const REQUESTS = Number(opt("requests") ?? 400);
const CONCURRENCY = Number(opt("concurrency") ?? 1);
const PULLS = Number(opt("pulls") ?? 1000);
const PROFILE_DIR = opt("cpu-prof");
const WARMUP = 50;
const ROOT = path.resolve(import.meta.dirname, "..");
/** The svc folder whose `scripts/start.mjs` is run (default this one); seeding uses this folder's code. */
const SERVER_ROOT = path.resolve(opt("root") ?? ROOT);

const bench = await openBenchDatabase("floor");
process.env.SVC_APP_ROOT = ROOT;

// ---- seed through the services (user, token, repository), pull requests in bulk ----
const { getDb, closeDb } = await import("@/server/db");
const { signUp } = await import("@/server/services/users/sign-up");
const { createToken } = await import("@/server/services/tokens/manage-tokens");
const { createRepository } = await import("@/server/services/repos/create-repository");
const { pullsListSql } = await import("@/server/services/pulls/list-pull-requests");
const { SCOPES } = await import("@/server/auth/scopes");
const db = await getDb();
const user = await signUp(db, { username: "floor", password: "password123" });
const { token } = await createToken(db, user.id, { name: "floor", scopes: ["repo:read", "user:read"] });
const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: "app" });
// one commit on main (a repository with history, as repos.get usually sees)
const git = (...a: string[]) => execFileSync("git", ["--git-dir", repo.gitDir, ...a], { encoding: "utf8", input: "" }).trim();
const tree = git("mktree");
const commit = execFileSync("git", ["--git-dir", repo.gitDir, "commit-tree", tree, "-m", "init"], {
  encoding: "utf8",
  env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x" },
}).trim();
git("update-ref", "refs/heads/main", commit);
const labels = Array.from({ length: 10 }, (_, i) => ({
  id: randomUUID(),
  repoId: repo.id,
  name: `l${i}`,
  nameLower: `l${i}`,
  color: "#abcdef",
}));
await db.label.createMany({ data: labels });
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pulls = Array.from({ length: PULLS }, (_, i) => {
  const r = rnd();
  const state = r < 0.3 ? "open" : r < 0.5 ? "closed" : "merged";
  const at = new Date();
  return {
    id: randomUUID(),
    repoId: repo.id,
    number: i + 1,
    title: `Pull request ${i + 1}`,
    body: "body",
    state,
    sourceRepoId: repo.id,
    sourceBranch: `topic-${i + 1}`,
    targetBranch: "main",
    headSha: "a".repeat(40),
    baseSha: "b".repeat(40),
    authorId: user.id,
    mergedAt: state === "merged" ? at : null,
    closedAt: state === "closed" ? at : null,
  };
});
for (let i = 0; i < pulls.length; i += 500) await db.pullRequest.createMany({ data: pulls.slice(i, i + 500) });
const pullLabels = pulls.flatMap((p) =>
  [...new Set(Array.from({ length: Math.floor(rnd() * 4) }, () => Math.floor(rnd() * 10)))].map((k) => ({
    pullRequestId: p.id,
    labelId: labels[k]!.id,
  })),
);
for (let i = 0; i < pullLabels.length; i += 500) await db.pullRequestLabel.createMany({ data: pullLabels.slice(i, i + 500) });
const comments = pulls
  .filter(() => rnd() < 0.33)
  .map((p) => ({ id: randomUUID(), pullRequestId: p.id, authorId: user.id, body: "looks good" }));
for (let i = 0; i < comments.length; i += 500) await db.pullRequestComment.createMany({ data: comments.slice(i, i + 500) });
await closeDb();
console.log(`seeded ${PULLS} pull requests (${bench.provider}, ${bench.dir})`);

// ---- the raw SQL of the list: svc's statement, prepared on the driver (the physical limit) ----
const listSql = pullsListSql(bench.provider, repo.id, { limit: 20, offset: 0 });
/** Runs the list statement once on the raw driver (prepared once); resolves with its time in ms. */
async function rawListRunner(): Promise<{ run: () => Promise<number>; close: () => Promise<void> }> {
  if (bench.provider === "sqlite") {
    const conn = new Database(bench.file, { readonly: true });
    const stmt = conn.prepare(listSql.text);
    return {
      run: async () => {
        const s = process.hrtime.bigint();
        stmt.all(...listSql.params);
        return Number(process.hrtime.bigint() - s) / 1e6;
      },
      close: async () => void conn.close(),
    };
  }
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  return {
    run: async () => {
      const s = process.hrtime.bigint();
      await client.query({ name: "floor_list", text: listSql.text, values: listSql.params });
      return Number(process.hrtime.bigint() - s) / 1e6;
    },
    close: () => client.end(),
  };
}

// ---- the production server on a free loopback port ----
if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
const server = await startProductionServer({
  root: SERVER_ROOT,
  dataDir: bench.dir,
  databaseUrl: bench.url,
  nodeArgs: PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", PROFILE_DIR] : [],
  echo: true,
});
const port = server.port;

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const auth = { authorization: `Bearer ${token}` };

/** One GET; resolves with the status and the time to the end of the body (ms). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; body: string }> {
  const s = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}${url}`, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - s) / 1e6, body }));
      })
      .on("error", reject);
  });
}

const q = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
const CASES: { name: string; url: string; headers: Record<string, string>; expect: number }[] = [
  { name: "unknown procedure (404)", url: "/api/trpc/floor.nothing", headers: {}, expect: 404 },
  { name: "no-op public procedure (issues.priorities)", url: "/api/trpc/issues.priorities", headers: {}, expect: 200 },
  { name: "no-op with a token (issues.priorities)", url: "/api/trpc/issues.priorities", headers: auth, expect: 200 },
  { name: "users.me (token)", url: "/api/trpc/users.me", headers: auth, expect: 200 },
  { name: "repos.get (token)", url: `/api/trpc/repos.get${q({ owner: "floor", name: "app" })}`, headers: auth, expect: 200 },
  { name: "repos.get (anonymous)", url: `/api/trpc/repos.get${q({ owner: "floor", name: "app" })}`, headers: {}, expect: 200 },
  { name: "pulls.list 20 rows (token)", url: `/api/trpc/pulls.list${q({ repoId: repo.id, limit: 20 })}`, headers: auth, expect: 200 },
];

// BENCH_ONLY=<regex> keeps the matching cases (and the no-op, the ratios' base), e.g. to profile one
if (process.env.BENCH_ONLY) {
  const only = new RegExp(process.env.BENCH_ONLY);
  CASES.splice(0, CASES.length, ...CASES.filter((c) => only.test(c.name) || c.name.startsWith("no-op public")));
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const RAW = "raw SQL of the list (driver, prepared)";
const results = new Map<string, { p50: number; p99: number }>();
const times = new Map<string, number[]>([...CASES.map((c): [string, number[]] => [c.name, []]), [RAW, []]]);
const raw = await rawListRunner();
try {
  for (const c of CASES) {
    const first = await get(c.url, c.headers);
    if (first.status !== c.expect) throw new Error(`${c.name}: status ${first.status}, expected ${c.expect}: ${first.body.slice(0, 300)}`);
    if (c.name.startsWith("pulls.list") && JSON.parse(first.body).result.data.length !== 20)
      throw new Error("pulls.list did not return 20 rows");
    for (let i = 1; i < WARMUP; i++) await get(c.url, c.headers);
  }
  for (let i = 0; i < WARMUP; i++) await raw.run();
  // rounds: one request of every case and one run of the raw SQL per round, so a change of the
  // machine's load hits all alike
  let round = 0;
  const worker = async () => {
    while (round++ < REQUESTS) {
      for (const c of CASES) {
        const r = await get(c.url, c.headers);
        if (r.status !== c.expect) throw new Error(`${c.name}: status ${r.status}`);
        times.get(c.name)!.push(r.ms);
      }
      times.get(RAW)!.push(await raw.run());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const [name, t] of times) {
    t.sort((a, b) => a - b);
    results.set(name, { p50: pct(t, 0.5), p99: pct(t, 0.99) });
  }
} finally {
  agent.destroy();
  await raw.close();
  await server.stop();
}

const noop = results.get("no-op public procedure (issues.priorities)")!.p50;
console.log(
  `\n${bench.provider}, ${REQUESTS} requests per case, concurrency ${CONCURRENCY}, load ${(await import("node:os")).loadavg()[0]!.toFixed(1)}`,
);
console.log("| case | p50 ms | p99 ms | p50 ÷ no-op |\n|---|---:|---:|---:|");
for (const [name, r] of results) console.log(`| ${name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / noop).toFixed(2)} |`);
const ratio = (name: string, base: number) => (results.has(name) ? `${(results.get(name)!.p50 / base).toFixed(2)}×` : "—");
console.log(
  `\nrepos.get ÷ no-op ${ratio("repos.get (token)", noop)}, pulls.list ÷ no-op ${ratio("pulls.list 20 rows (token)", noop)} (goal ≤ 2×), pulls.list ÷ raw SQL ${ratio("pulls.list 20 rows (token)", results.get(RAW)!.p50)}`,
);
if (PROFILE_DIR) {
  const files = readdirSync(PROFILE_DIR)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(PROFILE_DIR, f));
  for (const f of files) printProfile(f, 30);
}
await bench.drop();
