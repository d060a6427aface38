/**
 * After a push, the open pull requests it moved get their mergeability checked again by the
 * `pulls.refreshMergeability` job (docs/architecture.md "Background jobs"): the cache row for the
 * new head appears once the worker runs, without anyone calling checkMergeability.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { execFileSync } from "node:child_process";
import { DIFF_ARGS, DiffParser, threeDotCached } from "@/server/git/diff";
import { gitEnv } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member;
let wt: WorkTree;
let repo: { id: string; name: string };

beforeAll(async () => {
  server = await startGitServer();
  owner = await member("own");
  repo = await owner.as.repos.create({ name: `j${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
});

afterAll(async () => {
  await stopJobWorker();
  await server.close();
});

describe("pulls.refreshMergeability", () => {
  it("a push to the source branch warms the mergeability cache and the diff's counts for the new head", async () => {
    const main = await wt.sha("main");
    await wt.run("checkout", "--quiet", "-B", "topic", "main");
    const first = await wt.commit("topic.txt", "one\n");
    await wt.push("topic");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "Topic",
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: first,
      baseSha: main,
    });
    const second = await wt.commit("topic.txt", "two\n");
    await wt.push("topic");

    const db = await getDb();
    expect((await db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(second);
    expect(await db.pullRequestMergeability.findUnique({ where: { pullRequestId: pr.id } })).toBeNull(); // nobody checked it yet
    registerJobHandlers();
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    await expect
      .poll(async () => (await db.pullRequestMergeability.findUnique({ where: { pullRequestId: pr.id } }))?.headSha ?? null, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(second);
    const row = await db.pullRequestMergeability.findUniqueOrThrow({ where: { pullRequestId: pr.id } });
    expect(row).toMatchObject({ canMerge: true, aheadBy: 2, behindBy: 0, baseTip: main });
    // then the diff's counts for the new head are cached (the Files changed tab's first request
    // stops git at its budget), and the answer is exactly that of a full read
    const gitDir = repoGitDir(owner.user.username, repo.name);
    await expect.poll(() => threeDotCached(gitDir, main, second), { timeout: 60_000, interval: 100 }).toBe(true);
    const p = new DiffParser({ limits: { maxTotalLines: 100 } });
    p.push(execFileSync("git", [...DIFF_ARGS, `${main}...${second}`], { env: gitEnv({ GIT_DIR: gitDir }) }));
    expect(await owner.as.pulls.getDiff({ prId: pr.id, maxLines: 100 })).toMatchObject({ ...p.finish(), headSha: second, baseSha: main });
  });
});
