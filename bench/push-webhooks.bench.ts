/**
 * Push latency with 10 active webhooks against none (docs/performance.md "Webhooks"; issue #23):
 * `npx tsx bench/push-webhooks.bench.ts` (not part of the tests).
 *
 * Two repositories on one svc server (smart HTTP in this process, test/helpers.ts `startServer`),
 * one with 10 active webhooks subscribed to everything (pointing at a receiver on loopback,
 * SVC_WEBHOOK_ALLOW_PRIVATE_URLS=1), one without. Each run pushes one commit to `main` of each in
 * turn with the real git client; the time is `git push` end to end. No job worker runs during
 * the pushes: a push to the hooked repository pays one query and one queued `webhooks.pushEvents`
 * job (services/webhooks/push-events.ts), the payloads and deliveries are built by the job. Goal: with hooks ≤ 1.2× without (deliveries are off the request path).
 *
 * Env: BENCH_RUNS (15 pushes per repository), BENCH_DATABASE_URL (PostgreSQL, bench/support.ts).
 */
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openBenchDatabase } from "./support";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS = "1";

const bench = await openBenchDatabase("push-hooks");
const { getDb, closeDb } = await import("@/server/db");
const { signUp } = await import("@/server/services/users/sign-up");
const { createToken } = await import("@/server/services/tokens/manage-tokens");
const { createRepository } = await import("@/server/services/repos/create-repository");
const { createWebhook } = await import("@/server/services/webhooks/manage-webhooks");
const { SCOPES } = await import("@/server/auth/scopes");
const { handleGitHttp } = await import("@/server/http/git/smart-http");
const { closeJobs } = await import("@/server/jobs");
const { startServer } = await import("../test/helpers");

const home = path.join(bench.dir, "home");
mkdirSync(home);
const ENV = {
  PATH: process.env.PATH,
  HOME: home,
  LANG: "C",
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
} as unknown as NodeJS.ProcessEnv;
const run = promisify(execFile);
const git = async (cwd: string, args: string[]) => (await run("git", args, { cwd, env: ENV })).stdout.trim();

const receiver = createServer((req, res) => req.resume().on("end", () => res.end("ok")));
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const db = await getDb();
const user = await signUp(db, { username: "bench", password: "password123" });
const { token } = await createToken(db, user.id, { name: "bench", scopes: ["repo:read", "repo:write"] });
const actor = { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES } as const;
const server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
const host = new URL(server.url).host;

interface Case {
  label: string;
  work: string;
  repoId: string;
  times: number[];
}

async function setUp(name: string, hooks: number): Promise<Case> {
  const repo = await createRepository(db, actor, { name });
  for (let i = 0; i < hooks; i++) await createWebhook(db, actor, repo, { repoId: repo.id, url: hookUrl, secret: `s${i}`, events: ["*"] });
  const work = path.join(bench.dir, `work-${name}`);
  await git(bench.dir, ["init", "-q", "-b", "main", work]);
  writeFileSync(path.join(work, "a.txt"), "a\n");
  await git(work, ["add", "-A"]);
  await git(work, ["commit", "-qm", "first"]);
  await git(work, ["remote", "add", "origin", `http://git:${token}@${host}/bench/${name}.git`]);
  await git(work, ["push", "-q", "origin", "main"]);
  return { label: `${String(hooks).padStart(2)} webhooks`, work, repoId: repo.id, times: [] };
}

const cases = [await setUp("none", 0), await setUp("hooked", 10)];

/** One commit pushed to main, timed end to end (ms). */
async function push(c: Case, i: number): Promise<number> {
  writeFileSync(path.join(c.work, "a.txt"), `a ${i}\n`);
  await git(c.work, ["commit", "-qam", `push ${i}`]);
  const t = performance.now();
  await git(c.work, ["push", "-q", "origin", "main"]);
  return performance.now() - t;
}

for (const c of cases) await push(c, -1); // warm-up
for (let i = 0; i < RUNS; i++) for (const c of cases) c.times.push(await push(c, i));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
console.log(`push latency (${RUNS} pushes each, ${bench.provider}, load ${(await import("node:os")).loadavg()[0].toFixed(1)})`);
for (const c of cases) {
  const sorted = [...c.times].sort((a, b) => a - b);
  console.log(`  ${c.label}: median ${fmt(median(c.times))} (${fmt(sorted[0]!)}–${fmt(sorted.at(-1)!)})`);
}
const ratio = median(cases[1]!.times) / median(cases[0]!.times);
console.log(`ratio 10 webhooks / none: ${ratio.toFixed(2)}× (goal ≤ 1.2×) ${ratio <= 1.2 ? "PASS" : "FAIL"}`);
console.log("  (the hooked pushes each queued one webhooks.pushEvents job; no worker ran, so no delivery was built or sent)");

await server.close();
await new Promise((r) => receiver.close(r));
await closeJobs();
await closeDb();
await bench.drop();
