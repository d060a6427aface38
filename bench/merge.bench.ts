/**
 * Merge engine benchmark (docs/performance.md "Merge engine"): `npx tsx bench/merge.bench.ts` (not
 * part of the tests). One generated pull request in a fresh DATA_DIR (SQLite): a base of
 * BENCH_FILES files (2,000) of 100 lines; the head changes 50 lines in every file over
 * BENCH_COMMITS commits (100k changed lines); the target adds other files meanwhile (a clean,
 * non-fast-forward merge).
 *
 * Baselines, measured in the same run (the physical limit: what git itself must run):
 *   checkMergeability      `git merge-tree --write-tree` then `git rev-list --left-right --count`
 *   merge / squash         `git merge-tree --write-tree` + `git commit-tree` + `git update-ref`
 *   rebase                 `git worktree add --detach` + `git rebase` + `git worktree remove`
 * Goals: checkMergeability ≤ 1.3× (cache miss) and ≤ 0.1× (cache hit: this process's memory of
 * recent answers; the table-only hit is printed too); each strategy's
 * mergePullRequest (mergeability on a cache hit, commit, transaction, CAS) ≤ 2×.
 * Env: BENCH_FILES (2000), BENCH_COMMITS (20), BENCH_RUNS (15; strategies min(RUNS, 7), rebase 3),
 * BENCH_ONLY ("check": mergeability only), BENCH_TRACE (also time the parts of a miss). Prints
 * medians and ratios.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-merge-bench-"));
process.env.DATA_DIR = dir;
process.env.DATABASE_URL = `file:${path.join(dir, "svc.db")}`;
process.env.NEXTAUTH_SECRET = "bench";
process.env.SVC_APP_ROOT = path.resolve(import.meta.dirname, "..");

const { getDb, closeDb } = await import("@/server/db");
const { signUp } = await import("@/server/services/users/sign-up");
const { createCaller } = await import("@/server/api/root");
const { contextFor } = await import("@/server/api/trpc");
const { SCOPES } = await import("@/server/auth/scopes");
const { repoGitDir } = await import("@/server/git/paths");
const { authorizeRepo } = await import("@/server/services/repos/access");
const { checkMergeability, forgetMergeability } = await import("@/server/services/pulls/mergeability");
const { mergePullRequest } = await import("@/server/services/pulls/merge");

const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};
const git = (gitDir: string, args: string[], input?: string) =>
  execFileSync("git", args, { env: { ...env, GIT_DIR: gitDir }, input, maxBuffer: 1 << 30 }).toString("utf8");
const gitIn = (cwd: string, args: string[]) => execFileSync("git", args, { env, cwd, maxBuffer: 1 << 30 }).toString("utf8");

// ---- data ----
const db = await getDb();
const user = await signUp(db, { username: "bencher", password: "password123" });
const actor = { user: { ...user, isAdmin: false }, via: "session" as const, scopes: SCOPES };
const caller = createCaller(await contextFor(actor));
const created = await caller.repos.create({ name: "big", isPrivate: true });
const gitDir = repoGitDir(user.username, "big");

/** A fast-import stream: base on main, head on feature (COMMITS commits changing 50 lines of every file), main gains FILES/10 new files. */
function stream(): string {
  const out: string[] = [];
  let mark = 0;
  const file = (i: number, variant: (line: number) => string) => Array.from({ length: 100 }, (_, l) => variant(l)).join("\n") + "\n";
  const commit = (ref: string, from: number | null, msg: string, files: Array<[string, string]>) => {
    mark += 1;
    out.push(
      `commit ${ref}\nmark :${mark}\ncommitter Bench <bench@example.com> ${1_700_000_000 + mark} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`,
    );
    if (from) out.push(`from :${from}\n`);
    for (const [p, c] of files) out.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(c)}\n${c}\n`);
    return mark;
  };
  const name = (i: number) => `src/d${i % 40}/f${i}.txt`;
  const base = commit(
    "refs/heads/main",
    null,
    "base",
    Array.from({ length: FILES }, (_, i) => [name(i), file(i, (l) => `file ${i} line ${l}`)] as [string, string]),
  );
  let head = base;
  const per = Math.ceil(FILES / COMMITS);
  for (let c = 0; c < COMMITS; c++) {
    const files: Array<[string, string]> = [];
    for (let i = c * per; i < Math.min(FILES, (c + 1) * per); i++)
      files.push([name(i), file(i, (l) => (l % 2 === 0 ? `file ${i} line ${l} changed by the pull request` : `file ${i} line ${l}`))]);
    head = commit("refs/heads/feature", head, `feature part ${c + 1}\n\nFixes #999`, files);
  }
  commit(
    "refs/heads/main",
    base,
    "main moves on",
    Array.from({ length: FILES / 10 }, (_, i) => [`other/n${i}.txt`, `new ${i}\n`] as [string, string]),
  );
  return out.join("");
}
git(gitDir, ["fast-import", "--quiet"], stream());
const main0 = git(gitDir, ["rev-parse", "refs/heads/main"]).trim();
const head = git(gitDir, ["rev-parse", "refs/heads/feature"]).trim();
const pr = await db.pullRequest.create({
  data: {
    repoId: created.id,
    number: 1,
    title: "Big change",
    sourceRepoId: created.id,
    sourceBranch: "feature",
    targetBranch: "main",
    headSha: head,
    baseSha: main0,
    authorId: user.id,
  },
});
await db.repository.update({ where: { id: created.id }, data: { nextIssueNumber: 2 } });
const repo = await authorizeRepo(db, actor, { repoId: created.id }, "write");
const changed = git(gitDir, ["diff", "--shortstat", `${main0}...${head}`]).trim();
console.log(`pull request: ${changed}; ${COMMITS} commits; target ahead by 1 commit (${FILES / 10} new files)`);

// ---- timing ----
/**
 * Medians of `base` and `ours`, run alternately (base, ours, base, ours, …) so both see the same
 * machine load; `before` (untimed) runs before each call of `ours`, `beforeBase` before `base`.
 * The first pair warms up and is not counted.
 */
async function compare(
  runs: number,
  base: () => unknown,
  ours: () => unknown,
  before?: () => unknown,
  beforeBase?: () => unknown,
): Promise<[number, number]> {
  const tb: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    if (beforeBase) await beforeBase();
    let t = performance.now();
    await base();
    if (i > 0) tb.push(performance.now() - t);
    if (before) await before();
    t = performance.now();
    await ours();
    if (i > 0) to.push(performance.now() - t);
  }
  const med = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  return [med(to), med(tb)];
}
const rows: Array<[string, number, number, number]> = [];
const report = (what: string, ours: number, base: number, goal: number) => rows.push([what, ours, base, goal]);

const resetMain = () => git(gitDir, ["update-ref", "refs/heads/main", main0]);
const resetPull = async () => {
  resetMain();
  await db.pullRequest.update({
    where: { id: pr.id },
    data: { state: "open", mergedAt: null, mergedById: null, mergeSha: null, mergeStrategy: null },
  });
  await db.pullRequestEvent.deleteMany({ where: { pullRequestId: pr.id } });
};

const cliCheck = () => {
  git(gitDir, ["merge-tree", "--write-tree", main0, head]);
  git(gitDir, ["rev-list", "--left-right", "--count", `${main0}...${head}`]);
};
if (process.env.BENCH_TRACE) {
  const { mergeTree, checkMerge } = await import("@/server/git/merge");
  const { aheadBehind } = await import("@/server/git/commits");
  const t: Record<string, number[]> = {};
  const time = async (k: string, fn: () => unknown) => {
    const s = performance.now();
    await fn();
    (t[k] ??= []).push(performance.now() - s);
  };
  for (let i = 0; i < RUNS; i++) {
    await time("cli both", cliCheck);
    await time("parallel", () => checkMerge(gitDir, main0, head));
    await time("sequential", async () => {
      await mergeTree(gitDir, main0, head);
      await aheadBehind(gitDir, main0, head);
    });
    await time("miss", async () => {
      forgetMergeability(pr.id);
      await db.pullRequestMergeability.deleteMany({ where: { pullRequestId: pr.id } });
      await checkMergeability(db, repo, pr);
    });
    await time("db read", () => db.pullRequestMergeability.findUnique({ where: { pullRequestId: pr.id } }));
  }
  for (const [k, v] of Object.entries(t)) console.log(`trace ${k}: ${v.sort((a, b) => a - b)[v.length >> 1]!.toFixed(1)} ms`);
}
const [miss, baseMiss] = await compare(
  RUNS,
  cliCheck,
  () => checkMergeability(db, repo, pr),
  async () => {
    forgetMergeability(pr.id);
    await db.pullRequestMergeability.deleteMany({ where: { pullRequestId: pr.id } });
  },
);
report("checkMergeability (cache miss)", miss, baseMiss, 1.3);
await checkMergeability(db, repo, pr);
const [hit, baseCheck] = await compare(RUNS, cliCheck, () => checkMergeability(db, repo, pr));
const [tableHit, baseTable] = await compare(
  RUNS,
  cliCheck,
  () => checkMergeability(db, repo, pr),
  () => forgetMergeability(pr.id),
);
report("checkMergeability (cache hit)", hit, baseCheck, 0.1);
report("checkMergeability (cache hit in the table only: another process, a restart)", tableHit, baseTable, 0.1);

const cliMerge = (parents: number) => () => {
  resetMain();
  const tree = git(gitDir, ["merge-tree", "--write-tree", main0, head]).trim();
  const sha = git(gitDir, ["commit-tree", tree, "-p", main0, ...(parents === 2 ? ["-p", head] : []), "-m", "merge"]).trim();
  git(gitDir, ["update-ref", "refs/heads/main", sha, main0]);
};
const wt = path.join(dir, "cli-worktree");
const cliRebase = () => {
  resetMain();
  git(gitDir, ["worktree", "add", "--detach", "--quiet", wt, head]);
  gitIn(wt, ["-c", "core.hooksPath=/dev/null", "rebase", "--quiet", main0]);
  git(gitDir, ["worktree", "remove", "--force", wt]);
};
if (process.env.BENCH_TRACE) {
  const { inTransaction } = await import("@/server/db/transaction");
  const t: Record<string, number[]> = {};
  const time = async (k: string, fn: () => unknown) => {
    const s = performance.now();
    await fn();
    (t[k] ??= []).push(performance.now() - s);
  };
  for (let i = 0; i < RUNS; i++) {
    await time("cli merge", cliMerge(2));
    await time("load row", () =>
      db.pullRequest.findFirst({
        where: { id: pr.id },
        include: { author: true, labels: { include: { label: true } }, sourceRepo: { select: { owner: { select: { username: true } } } } },
      }),
    );
    await time("transaction (claim, event, restack, issue, commit)", () =>
      inTransaction(db, async (tx) => {
        await tx.pullRequest.updateMany({ where: { id: pr.id }, data: { title: `Big change ${i}` } });
        await tx.pullRequestEvent.create({ data: { pullRequestId: pr.id, type: "trace" } });
        await tx.pullRequest.findMany({ where: { repoId: repo.id, state: "open", targetBranch: "feature" }, select: { id: true } });
        await tx.issue.findUnique({ where: { repoId_number: { repoId: repo.id, number: 999 } } });
      }),
    );
  }
  for (const [k, v] of Object.entries(t)) console.log(`trace ${k}: ${v.sort((a, b) => a - b)[v.length >> 1]!.toFixed(1)} ms`);
  await db.pullRequestEvent.deleteMany({ where: { pullRequestId: pr.id } });
}
for (const [strategy, cli] of process.env.BENCH_ONLY === "check" || process.env.BENCH_TRACE
  ? []
  : ([
      ["merge", cliMerge(2)],
      ["squash", cliMerge(1)],
      ["rebase", cliRebase],
    ] as const)) {
  const runs = strategy === "rebase" ? 3 : Math.min(RUNS, 7);
  const [ours, base] = await compare(runs, cli, () => mergePullRequest(db, actor, repo, pr.id, { strategy }), resetPull);
  report(`merge strategy ${strategy}`, ours, base, 2);
}

console.log(`\n| operation | svc (ms, median) | git CLI (ms, median) | ratio | goal |\n|---|---|---|---|---|`);
for (const [what, ours, base, goal] of rows)
  console.log(
    `| ${what} | ${ours.toFixed(1)} | ${base.toFixed(1)} | ${(ours / base).toFixed(2)}× | ≤ ${goal}× ${ours / base <= goal ? "✓" : "✗"} |`,
  );
await new Promise((r) => setTimeout(r, 200)); // the last cache-miss answer writes its table row after answering
await closeDb();
rmSync(dir, { recursive: true, force: true });
