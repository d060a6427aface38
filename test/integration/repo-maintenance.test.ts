/**
 * Repository maintenance (docs/performance.md "Hardening II, item 13"): the `repos.maintenance`
 * job packs a repository littered with loose objects and prunes the unreachable ones older than
 * the grace period (younger ones survive), removes stale quarantines and git's gc.log, keeps refs
 * and objects intact; it is queued after SVC_GIT_GC_PUSHES pushes and by the daily sweep; two runs
 * on one repository never run at once (this process's guard, git's gc.pid across processes).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { enqueue, getJob, startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { REPO_MAINTENANCE, REPO_MAINTENANCE_SWEEP } from "@/server/jobs/names";
import { collectGarbage } from "@/server/git/maintenance";
import { QUARANTINE_PREFIX } from "@/server/git/quarantine";
import { repoGitDir } from "@/server/git/paths";
import { maintainRepository, maintenanceSettingsFromEnv, sweepRepositories } from "@/server/services/repos/maintain-repository";
import { git, initWork, refsOf } from "./merge-fixtures";
import { suggestionWorld } from "./pulls-suggestions-fixtures";
import { member, remoteOf, seededWorkTree, startGitServer } from "./pulls-fixtures";

const DAY_S = 24 * 60 * 60;

function looseCount(gitDir: string): number {
  return Number(/^count: (\d+)$/m.exec(git(gitDir, ["count-objects", "-v"]))![1]);
}

/** Writes one loose blob as git does (zlib of "blob <size>\0<content>" at objects/xx/yyyy…) aged `ageS` seconds; returns its id. */
function looseBlob(gitDir: string, content: string, ageS = 0): string {
  const raw = Buffer.concat([Buffer.from(`blob ${Buffer.byteLength(content)}\0`), Buffer.from(content)]);
  const id = createHash("sha1").update(raw).digest("hex");
  const dir = path.join(gitDir, "objects", id.slice(0, 2));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, id.slice(2));
  writeFileSync(file, deflateSync(raw));
  const t = Date.now() / 1000 - ageS;
  utimesSync(file, t, t);
  return id;
}

/**
 * Litters `gitDir` with `count` unreachable loose blobs 30 days old, 40 of them in objects/17:
 * `gc --auto` estimates the loose count from that one folder (over gc.auto = 6700 means more than
 * 27 there), as in a repository with ~10,000 loose objects. Returns the ids.
 */
function litter(gitDir: string, count = 300): string[] {
  const ids: string[] = [];
  let in17 = 0;
  for (let i = 0; ids.length < count || in17 < 40; i++) {
    const content = `conflicted ${i} ${gitDir}\n`;
    const raw = `blob ${Buffer.byteLength(content)}\0${content}`;
    const is17 = createHash("sha1").update(raw).digest("hex").startsWith("17");
    if (!is17 && ids.length - in17 >= count - 40) continue;
    ids.push(looseBlob(gitDir, content, 30 * DAY_S));
    if (is17) in17++;
  }
  return ids;
}

/** The ids among `ids` that `gitDir` still has (one `git cat-file --batch-check`). */
function presentOf(gitDir: string, ids: string[]): string[] {
  const out = git(gitDir, ["cat-file", "--batch-check=%(objectname)"], "Alice", ids.join("\n") + "\n");
  return out.split("\n").filter((l) => /^[0-9a-f]{40}$/.test(l));
}

afterAll(async () => {
  delete process.env.SVC_GIT_GC_PUSHES;
  await stopJobWorker();
});

describe("repository maintenance", () => {
  it("the maintenance job packs a littered repository: old unreachable objects pruned, young ones, refs and history kept", async () => {
    const w = await suggestionWorld();
    const old = litter(w.gitDir);
    const young = looseBlob(w.gitDir, "written a minute ago by a merge not yet committed\n", 60);
    const stale = path.join(w.gitDir, "objects", `${QUARANTINE_PREFIX}dead01`);
    mkdirSync(stale);
    utimesSync(stale, Date.now() / 1000 - 7200, Date.now() / 1000 - 7200);
    writeFileSync(
      path.join(w.gitDir, "gc.log"),
      "warning: There are too many unreachable loose objects; run 'git prune' to remove them.\n",
    );
    const refs = refsOf(w.gitDir);
    expect(looseCount(w.gitDir)).toBeGreaterThan(300);

    registerJobHandlers();
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    const id = await enqueue(REPO_MAINTENANCE, { repoId: w.repoId }, { singletonKey: w.repoId });
    await expect.poll(async () => (await getJob(REPO_MAINTENANCE, id!))?.state, { timeout: 60_000, interval: 100 }).toBe("completed");

    expect(looseCount(w.gitDir)).toBe(1); // the young unreachable blob: inside the grace period
    expect(presentOf(w.gitDir, [young])).toEqual([young]);
    expect(presentOf(w.gitDir, old)).toEqual([]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(path.join(w.gitDir, "gc.log"))).toBe(false);
    expect(refsOf(w.gitDir)).toBe(refs);
    expect(git(w.gitDir, ["log", "--format=%s", "feature"])).toBe("second\nfirst\ninitial\n");
    expect(git(w.gitDir, ["fsck", "--full", "--no-dangling"])).not.toMatch(/missing|broken|error/i);
  });

  it("every SVC_GIT_GC_PUSHES-th push to a repository queues its maintenance", async () => {
    process.env.SVC_GIT_GC_PUSHES = "2";
    const server = await startGitServer();
    try {
      const owner = await member("gc");
      const repo = await owner.as.repos.create({ name: `gc${Math.random().toString(36).slice(2, 8)}` });
      const wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name)); // push 1
      const gitDir = repoGitDir(owner.user.username, repo.name);
      const old = litter(gitDir);
      // the state of the report: receive-pack's own detached `gc --auto` left its warning in
      // gc.log and refuses to run for a day, so only svc's job cleans up
      writeFileSync(
        path.join(gitDir, "gc.log"),
        "warning: There are too many unreachable loose objects; run 'git prune' to remove them.\n",
      );
      await wt.commit("b.txt", "b\n");
      await wt.push("main"); // push 2: queues the job (the worker runs since the first test)
      // git prunes before it removes gc.log at the end of its run: wait for the run's end, not the prune
      await expect
        .poll(() => ({ loose: looseCount(gitDir), gcLog: existsSync(path.join(gitDir, "gc.log")) }), { timeout: 60_000, interval: 200 })
        .toEqual({ loose: 0, gcLog: false });
      expect(presentOf(gitDir, old)).toEqual([]);
      expect(git(gitDir, ["log", "--format=%s", "main"])).toBe("edit b.txt\nfirst\n");
    } finally {
      delete process.env.SVC_GIT_GC_PUSHES;
      await server.close();
    }
  });

  it("two runs on one repository never run at once: this process's guard, then git's gc.pid for other processes", async () => {
    const work = initWork({ "a.txt": "a\n" });
    const gitDir = path.join(work, ".git");
    litter(gitDir);
    const outcomes = await Promise.all([collectGarbage(gitDir, "2.weeks.ago"), collectGarbage(gitDir, "2.weeks.ago")]);
    expect(outcomes).toEqual(["done", "busy"]);
    expect(looseCount(gitDir)).toBe(0);

    // another process's gc holds gc.pid (a live pid on this host): git leaves the repository alone
    litter(gitDir);
    const littered = looseCount(gitDir);
    writeFileSync(path.join(gitDir, "gc.pid"), `${process.pid} ${os.hostname()}`);
    expect(await collectGarbage(gitDir, "2.weeks.ago")).toBe("done");
    expect(looseCount(gitDir)).toBe(littered);
    rmSync(path.join(gitDir, "gc.pid"));
    expect(await collectGarbage(gitDir, "2.weeks.ago")).toBe("done");
    expect(looseCount(gitDir)).toBe(0);
    await expect(collectGarbage(gitDir, "--aggressive")).rejects.toThrow(RangeError);
  });

  it("a repository with forks is packed but never pruned: a fork may still need what its parent no longer references", async () => {
    const w = await suggestionWorld();
    const fork = await w.as.writer.repos.fork({ repoId: w.repoId });
    const old = litter(w.gitDir);
    const db = await getDb();
    const run = await maintainRepository(db, w.repoId);
    expect(run.outcome).toBe("done");
    expect(run.after!.packs).toBeGreaterThan(0);
    expect(looseCount(w.gitDir)).toBe(old.length); // the reachable loose objects were packed, nothing pruned
    expect(presentOf(w.gitDir, old)).toHaveLength(old.length);
    const forkDir = repoGitDir(w.writer.username, fork.name);
    expect(git(forkDir, ["fsck", "--full", "--no-dangling"])).not.toMatch(/missing|broken|error/i);
    // git's own gc in the parent (as receive-pack's auto gc runs it) never prunes either
    git(w.gitDir, ["config", "--unset", "gc.pruneExpire"]); // a fork made before the rule: the job sets it again
    await maintainRepository(db, w.repoId);
    const more = Array.from({ length: 20 }, (_, i) => looseBlob(w.gitDir, `only a fork may need this ${i}\n`, 30 * DAY_S));
    git(w.gitDir, ["gc", "--quiet"]);
    expect(presentOf(w.gitDir, more)).toHaveLength(more.length);
  });

  it("the daily sweep queues every repository and its own next run; settings come from the environment", async () => {
    const db = await getDb();
    expect(await sweepRepositories(db)).toBeGreaterThan(0);
    // the next sweep is waiting (a day later): another one is dropped
    expect(await enqueue(REPO_MAINTENANCE_SWEEP, {}, { singletonKey: "daily" })).toBeNull();
    expect(maintenanceSettingsFromEnv({})).toEqual({ pushesPerRun: 20, pruneExpire: "2.weeks.ago" });
    expect(maintenanceSettingsFromEnv({ SVC_GIT_GC_PUSHES: "0", SVC_GIT_PRUNE_EXPIRE: "3.days.ago" })).toEqual({
      pushesPerRun: 0,
      pruneExpire: "3.days.ago",
    });
    expect(maintenanceSettingsFromEnv({ SVC_GIT_GC_PUSHES: "-1", SVC_GIT_PRUNE_EXPIRE: "--all" })).toEqual({
      pushesPerRun: 20,
      pruneExpire: "2.weeks.ago",
    });
  });
});
