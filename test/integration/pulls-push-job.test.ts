/**
 * A push to a branch that many open pull requests target (docs/pulls.md "Pushes",
 * docs/performance.md "Hardening II, item 12"): the push answers after the ref update and the
 * heads of the pull requests whose source moved; the mergeability of the pull requests into the
 * branch is ONE `pulls.refreshAfterPush` job per (repository, branch) — not one per pull request,
 * and not twice for a burst of pushes — and that job checks them all with one
 * `git merge-tree --stdin` process and a number of queries that does not grow with them.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { pullChannel, subscribe } from "@/server/events/bus";
import { REFRESH_MERGEABILITY, REFRESH_PULLS_AFTER_PUSH } from "@/server/jobs/names";
import { refreshPullsAfterPush } from "@/server/services/pulls/refresh-after-push";
import { countingDb, type CountingDb } from "./query-count";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
let counting: CountingDb;
/** Pull requests into main: [id, clean?]. */
const intoMain: { id: string; clean: boolean }[] = [];
const intoDev: { id: string; clean: boolean }[] = [];

/** Jobs of `name` (optionally only those waiting for their first run) whose payload passes `match`. */
async function jobs(name: string, match: (payload: Record<string, unknown>) => boolean, waiting = false): Promise<number> {
  const db = await getDb();
  const rows =
    getConfig().provider === "postgresql"
      ? await db.$queryRawUnsafe<{ payload: string }[]>(
          `SELECT data::text AS payload FROM pgboss.job WHERE name = $1 ${waiting ? "AND state = 'created'" : ""}`,
          name,
        )
      : await db.$queryRawUnsafe<{ payload: string }[]>(
          `SELECT "payload" FROM "_svc_jobs" WHERE "name" = ? ${waiting ? `AND "state" = 'created'` : ""}`,
          name,
        );
  return rows.filter((r) => match(JSON.parse(r.payload) as Record<string, unknown>)).length;
}

/** The merge-tree processes svc starts while `fn` runs (a `git` on PATH that logs its arguments, then runs git). */
async function mergeTreeRuns(fn: () => Promise<unknown>): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-git-log-"));
  const log = path.join(dir, "log");
  const realGit = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
  writeFileSync(path.join(dir, "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(path.join(dir, "git"), 0o755);
  writeFileSync(log, "");
  const before = process.env.PATH;
  process.env.PATH = `${dir}:${before}`;
  try {
    await fn();
  } finally {
    process.env.PATH = before;
  }
  const runs = readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("merge-tree"));
  rmSync(dir, { recursive: true, force: true });
  return runs;
}

/** Opens pull requests from new branches off `base`: clean ones add a file, conflicting ones edit shared.txt. */
async function openPulls(base: string, clean: number, conflicting: number, into: { id: string; clean: boolean }[]) {
  const baseSha = await wt.sha(base);
  const made: { branch: string; head: string; clean: boolean }[] = [];
  for (let i = 0; i < clean + conflicting; i++) {
    const branch = `${base}-${i}`;
    await wt.run("checkout", "--quiet", "-B", branch, base);
    const isClean = i < clean;
    const head = isClean ? await wt.commit(`${branch}.txt`, `${i}\n`) : await wt.commit("shared.txt", `one\nTWO from ${branch}\nthree\n`);
    made.push({ branch, head, clean: isClean });
  }
  await wt.push(...made.map((m) => m.branch));
  await wt.run("checkout", "--quiet", base);
  for (const m of made) {
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: m.branch,
      sourceBranch: m.branch,
      targetBranch: base,
      headSha: m.head,
      baseSha,
    });
    into.push({ id: pr.id, clean: m.clean });
  }
}

beforeAll(async () => {
  server = await startGitServer();
  owner = await member("pj");
  repo = await owner.as.repos.create({ name: `pj${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  await wt.commit("shared.txt", "one\ntwo\nthree\n");
  await wt.run("branch", "dev");
  await wt.push("main", "dev");
  await openPulls("main", 3, 3, intoMain);
  await openPulls("dev", 1, 1, intoDev);
  counting = await countingDb();
});

afterAll(async () => {
  await counting?.close();
  await server.close();
});

describe("a push to a branch many pull requests target", () => {
  it("answers before their mergeability is computed, with one job for the branch (not one per pull request, not one per push)", async () => {
    const db = await getDb();
    await wt.run("checkout", "--quiet", "main");
    await wt.commit("shared.txt", "one\ntwo (main)\nthree\n");
    await wt.push("main");
    const ids = intoMain.map((p) => p.id);
    expect(await db.pullRequestMergeability.count({ where: { pullRequestId: { in: ids } } })).toBe(0);
    expect(await jobs(REFRESH_MERGEABILITY, (p) => ids.includes(p.prId as string))).toBe(0);
    const waitingForMain = () => jobs(REFRESH_PULLS_AFTER_PUSH, (p) => p.repoId === repo.id && p.branch === "main", true);
    expect(await waitingForMain()).toBe(1);
    // a second push while the job waits: still one job (it reads the tips when it runs)
    await wt.commit("other.txt", "x\n");
    await wt.push("main");
    expect(await waitingForMain()).toBe(1);
    // a branch no pull request goes into or comes out of queues nothing
    await wt.push("main:refs/heads/lonely");
    expect(await jobs(REFRESH_PULLS_AFTER_PUSH, (p) => p.repoId === repo.id && p.branch === "lonely")).toBe(0);
  });

  it("one job checks them all (clean and conflicting) with one merge-tree process and constant queries", async () => {
    const db = await getDb();
    const mainTip = await wt.sha("main");
    const notices = new Map<string, string[]>();
    const unsubscribe = intoMain.map((p) => subscribe(pullChannel(p.id), (e) => notices.set(p.id, [...(notices.get(p.id) ?? []), e.type])));
    let summary: Awaited<ReturnType<typeof refreshPullsAfterPush>> | undefined;
    let queries = 0;
    const runs = await mergeTreeRuns(async () => {
      queries = await counting.count(async () => (summary = await refreshPullsAfterPush(counting.db, repo.id, "main")));
    });
    unsubscribe.forEach((u) => u());
    expect(summary).toMatchObject({ pulls: 6, checked: 6, merged: 0 });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toContain("--stdin");
    for (const p of intoMain) {
      const row = await db.pullRequestMergeability.findUniqueOrThrow({ where: { pullRequestId: p.id } });
      expect(row).toMatchObject({ baseTip: mainTip, canMerge: p.clean, aheadBy: 1, behindBy: 2 });
      expect(JSON.parse(row.conflicts)).toEqual(p.clean ? [] : ["shared.txt"]);
      // what the merge box reads afterwards is that answer
      const answer = await owner.as.pulls.checkMergeability({ prId: p.id });
      expect(answer).toMatchObject({ canMerge: p.clean, conflicts: p.clean ? [] : ["shared.txt"], aheadBy: 1, behindBy: 2 });
      expect(notices.get(p.id)).toEqual(["mergeability"]);
    }

    // the number of queries does not grow with the pull requests: 2 into dev cost what 6 into main cost
    await wt.run("checkout", "--quiet", "dev");
    await wt.commit("shared.txt", "one\ntwo (dev)\nthree\n");
    await wt.push("dev");
    await wt.run("checkout", "--quiet", "main");
    const devQueries = await counting.count(() => refreshPullsAfterPush(counting.db, repo.id, "dev"));
    expect(queries).toBe(devQueries);
    expect(queries).toBeLessThanOrEqual(8);

    // run again (jobs are delivered at least once): nothing to check, no git
    let again: typeof summary;
    expect(await mergeTreeRuns(async () => (again = await refreshPullsAfterPush(counting.db, repo.id, "main")))).toEqual([]);
    expect(again).toMatchObject({ pulls: 6, checked: 0 });
  });

  // 1,000 ahead/behind counts: ~20 s on the loaded 2-core reference machine, hence the longer timeout
  it("caches more answers than one statement can bind (SQLite's 999 variables)", { timeout: 180_000 }, async () => {
    const db = await getDb();
    const clean = intoMain.find((p) => p.clean)!;
    const template = await db.pullRequest.findUniqueOrThrow({ where: { id: clean.id } });
    const base = (await db.repository.findUniqueOrThrow({ where: { id: repo.id } })).nextIssueNumber + 1000;
    await db.pullRequest.createMany({
      data: Array.from({ length: 1000 }, (_, i) => ({
        repoId: repo.id,
        number: base + i,
        title: `bulk ${i}`,
        sourceRepoId: repo.id,
        sourceBranch: template.sourceBranch,
        targetBranch: "main",
        headSha: template.headSha,
        baseSha: template.baseSha,
        authorId: template.authorId,
      })),
    });
    const summary = await refreshPullsAfterPush(db, repo.id, "main");
    expect(summary.pulls).toBe(1006);
    expect(summary.merged).toBe(0);
    const rows = await db.pullRequestMergeability.count({
      where: { pullRequest: { repoId: repo.id, number: { gte: base } }, canMerge: true },
    });
    expect(rows).toBe(1000);
  });
});
