/**
 * Push latency against the number of open pull requests into the pushed branch (docs/performance.md
 * "Hardening II, item 12"): `npx tsx bench/push-many-pulls.bench.ts` (not part of the tests).
 *
 * Repositories on one svc server (smart HTTP in this process, test/helpers.ts `startServer`, as
 * the pull request tests run it) with 0, 100 and 1,000 open pull requests into `main` (inserted
 * directly: half of them clean, half conflicting with the pushes to main; their branches and
 * refs/pull/N/head written with one `git update-ref --stdin`, then packed as `git gc` does), and a fourth with the 1,000
 * branches and refs but no pull requests (what the refs cost git itself). Each run pushes one
 * empty commit to `main` of each repository in turn (so load drifts hit all alike) with the real
 * git client; the time is `git push` end to end. The limit is the same push into the repository
 * without pull requests, measured in the same run: goal 1,000 ≤ 1.5× 0.
 * No job worker runs during the pushes (the jobs wait, one per repository and branch); then the
 * job of the 1,000 (and the 100) is run once and timed, with the git processes it started.
 *
 * Env: BENCH_RUNS (15 pushes per repository), BENCH_DATABASE_URL (PostgreSQL, bench/support.ts),
 * BENCH_LOOSE_REFS=1 (leave the refs loose: git's own cost of 2,000 loose refs shows in both
 * 1,000 cases alike).
 * Prints the median and range per case and the ratios to the 0 case.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openBenchDatabase } from "./support";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CASES = [0, 100, 1000];

const bench = await openBenchDatabase("push-pulls");
const { getDb, closeDb } = await import("@/server/db");
const { signUp } = await import("@/server/services/users/sign-up");
const { createToken } = await import("@/server/services/tokens/manage-tokens");
const { createRepository } = await import("@/server/services/repos/create-repository");
const { SCOPES } = await import("@/server/auth/scopes");
const { repoGitDir } = await import("@/server/git/paths");
const { handleGitHttp } = await import("@/server/http/git/smart-http");
const { closeJobs } = await import("@/server/jobs");
const { refreshPullsAfterPush } = await import("@/server/services/pulls/refresh-after-push");
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
// async: the server answering the pushes runs in this process
const run = promisify(execFile);
const git = async (cwd: string, args: string[]) => (await run("git", args, { cwd, env: ENV, maxBuffer: 1 << 28 })).stdout.trim();

const db = await getDb();
const user = await signUp(db, { username: "bench", password: "password123" });
const { token } = await createToken(db, user.id, { name: "bench", scopes: ["repo:read", "repo:write"] });
const actor = { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES } as const;
const server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
const host = new URL(server.url).host;

interface Case {
  label: string;
  pulls: number;
  work: string;
  repoId: string;
  times: number[];
}

/**
 * A repository with `branches` branches and refs/pull/N/head refs (pointing at the clean and the
 * conflicting commit in turn), `pulls` of them open pull requests into main, and a work tree
 * that pushes to it.
 */
async function setUp(label: string, branches: number, pulls: number): Promise<Case> {
  const name = `r${branches}-${pulls}`;
  const repo = await createRepository(db, actor, { name });
  const work = path.join(bench.dir, `work-${name}`);
  await git(bench.dir, ["init", "-q", "-b", "main", work]);
  writeFileSync(path.join(work, "shared.txt"), "one\ntwo\nthree\n");
  await git(work, ["add", "-A"]);
  await git(work, ["commit", "-qm", "base"]);
  const base = await git(work, ["rev-parse", "HEAD"]);
  await git(work, ["checkout", "-qb", "clean"]);
  writeFileSync(path.join(work, "clean.txt"), "clean\n");
  await git(work, ["add", "-A"]);
  await git(work, ["commit", "-qm", "clean"]);
  await git(work, ["checkout", "-qb", "conflicting", "main"]);
  writeFileSync(path.join(work, "shared.txt"), "one\nTWO\nthree\n");
  await git(work, ["commit", "-qam", "conflicting"]);
  await git(work, ["checkout", "-q", "main"]);
  writeFileSync(path.join(work, "shared.txt"), "one\ntwo (main)\nthree\n");
  await git(work, ["commit", "-qam", "main moves"]);
  await git(work, ["remote", "add", "origin", `http://git:${token}@${host}/bench/${name}.git`]);
  await git(work, ["push", "-q", "origin", "main", "clean", "conflicting"]);
  const heads = { clean: await git(work, ["rev-parse", "clean"]), conflicting: await git(work, ["rev-parse", "conflicting"]) };
  const gitDir = repoGitDir("bench", name);
  const refs: string[] = [];
  const rows = [];
  for (let n = 1; n <= branches; n++) {
    const kind = n % 2 ? "clean" : "conflicting";
    refs.push(`create refs/heads/pr-${n} ${heads[kind]}`, `create refs/pull/${n}/head ${heads[kind]}`);
    rows.push({
      repoId: repo.id,
      number: n,
      title: `pull ${n}`,
      sourceRepoId: repo.id,
      sourceBranch: `pr-${n}`,
      targetBranch: "main",
      headSha: heads[kind],
      baseSha: base,
      authorId: user.id,
    });
  }
  if (refs.length) execFileSync("git", ["update-ref", "--stdin"], { env: { ...ENV, GIT_DIR: gitDir }, input: refs.join("\n") + "\n" });
  // as `git gc` leaves them: 2,000 loose ref files cost git itself ~300 ms per push (receive-pack
  // reads them all), whatever svc does; BENCH_LOOSE_REFS=1 keeps them loose
  if (!process.env.BENCH_LOOSE_REFS) execFileSync("git", ["pack-refs", "--all"], { env: { ...ENV, GIT_DIR: gitDir } });
  for (let i = 0; i < pulls; i += 500) await db.pullRequest.createMany({ data: rows.slice(i, Math.min(i + 500, pulls)) });
  await db.repository.update({ where: { id: repo.id }, data: { nextIssueNumber: branches + 1 } });
  return { label, pulls, work, repoId: repo.id, times: [] };
}

const cases: Case[] = [];
for (const n of CASES) cases.push(await setUp(`${String(n).padStart(5)} open pull requests into main`, n, n));
// what the 1,000 pull requests' branches and refs cost git itself (advertisement, connectivity check), without svc's pull requests
cases.push(await setUp("1000 branches, no pull requests", 1000, 0));

/** One empty commit pushed to main, timed end to end (ms). */
async function push(c: Case): Promise<number> {
  await git(c.work, ["commit", "-q", "--allow-empty", "-m", `push ${performance.now()}`]);
  const t = performance.now();
  await git(c.work, ["push", "-q", "origin", "main"]);
  return performance.now() - t;
}

for (const c of cases) await push(c); // warm-up
for (let i = 0; i < RUNS; i++) for (const c of cases) c.times.push(await push(c));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const zero = median(cases[0].times);
console.log(`push latency (${RUNS} pushes each, ${bench.provider}, load ${(await import("node:os")).loadavg()[0].toFixed(1)})`);
for (const c of cases) {
  const sorted = [...c.times].sort((a, b) => a - b);
  console.log(
    `  ${c.label}: median ${fmt(median(c.times))} (${fmt(sorted[0])}–${fmt(sorted.at(-1)!)}), ${(median(c.times) / zero).toFixed(2)}× the 0 case`,
  );
}
const ratio = median(cases[2].times) / zero;
console.log(`ratio 1000/0: ${ratio.toFixed(2)}× (goal ≤ 1.5×) ${ratio <= 1.5 ? "PASS" : "FAIL"}`);
console.log(
  `ratio 1000 pull requests / their 1000 branches without pull requests: ${(median(cases[2].times) / median(cases[3].times)).toFixed(2)}×`,
);

// the jobs the pushes left (one per repository and branch), run once each and timed
for (const c of cases.slice(1, 3)) {
  const t = performance.now();
  const summary = await refreshPullsAfterPush(db, c.repoId, "main", null);
  const ms = performance.now() - t;
  const rows = await db.pullRequestMergeability.groupBy({ by: ["canMerge"], where: { pullRequest: { repoId: c.repoId } }, _count: true });
  console.log(
    `  the job for ${c.pulls}: ${fmt(ms)} (${(ms / c.pulls).toFixed(1)} ms per pull request), checked ${summary.checked}, ` +
      rows.map((r) => `${r._count} ${r.canMerge ? "mergeable" : "not mergeable"}`).join(", "),
  );
}

await server.close();
await closeJobs();
await closeDb();
await bench.drop();
