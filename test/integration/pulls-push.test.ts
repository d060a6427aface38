/**
 * Pushes and pull requests (docs/pulls.md "Pushes"): real `git push` over smart HTTP runs
 * recordBranchUpdates, which moves open pull requests' heads (pushed / force_pushed), drops cached
 * mergeability and records deleted and restored source branches before the push answers; the
 * `pulls.refreshAfterPush` job then marks pull requests merged outside svc.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { repoGitDir } from "@/server/git/paths";
import { readRef } from "@/server/git/pull-refs";
import { refreshPullsAfterPush } from "@/server/services/pulls/refresh-after-push";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member;
let repo: { id: string; name: string };
let wt: WorkTree;

async function openPull(name: string) {
  await wt.run("checkout", "--quiet", "-B", name, "main");
  const head = await wt.commit(`${name}.txt`, `${name}\n`);
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  return owner.as.pulls.create({
    repoId: repo.id,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await wt.sha("main"),
  });
}

const get = (number: number) => owner.as.pulls.get({ repoId: repo.id, number });
const events = async (prId: string) =>
  (await owner.as.pulls.timeline({ prId })).map((e) => ({ type: e.type, data: e.data, actor: e.actor?.id ?? null }));

beforeAll(async () => {
  server = await startGitServer();
  owner = await member("psh");
  repo = await owner.as.repos.create({ name: `push${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
});

afterAll(async () => {
  await stopJobWorker();
  await server.close();
});

describe("pushes to a pull request's source branch", () => {
  it("update headSha and refs/pull/N/head, drop the cached mergeability, and record pushed N commits", async () => {
    const pr = await openPull("topic");
    const db = await getDb();
    await db.pullRequestMergeability.create({
      data: { pullRequestId: pr.id, baseTip: pr.baseSha, headSha: pr.headSha, canMerge: true, aheadBy: 1, behindBy: 0 },
    });
    await wt.run("checkout", "--quiet", "topic");
    await wt.commit("t2.txt", "2\n");
    const tip = await wt.commit("t3.txt", "3\n");
    await wt.push("topic");
    expect((await get(pr.number)).headSha).toBe(tip);
    expect(await readRef(repoGitDir(owner.user.username, repo.name), `refs/pull/${pr.number}/head`)).toBe(tip);
    expect(await db.pullRequestMergeability.findUnique({ where: { pullRequestId: pr.id } })).toBeNull();
    expect((await events(pr.id)).at(-1)).toEqual({
      type: "pushed",
      data: { commits: 2, before: pr.headSha, after: tip },
      actor: owner.user.id,
    });

    // a force push (the old head is not an ancestor of the new one)
    await wt.run("reset", "--quiet", "--hard", "HEAD~2");
    const rewritten = await wt.commit("t2.txt", "rewritten\n");
    await wt.push("--force", "topic");
    expect((await get(pr.number)).headSha).toBe(rewritten);
    expect((await events(pr.id)).at(-1)).toEqual({
      type: "force_pushed",
      data: { commits: 1, before: tip, after: rewritten },
      actor: owner.user.id,
    });
    await wt.run("checkout", "--quiet", "main");
  });

  it("marks a pull request merged when its head becomes reachable from the target (merged outside svc)", async () => {
    const pr = await openPull("outside");
    await wt.run("merge", "--quiet", "--no-ff", "-m", "merge outside", "outside");
    const mainTip = await wt.sha("main");
    await wt.push("main");
    expect((await get(pr.number)).state).toBe("open"); // the push answered before the job ran
    registerJobHandlers();
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    await expect.poll(async () => (await get(pr.number)).state, { timeout: 60_000, interval: 100 }).toBe("merged");
    await stopJobWorker();
    const got = await get(pr.number);
    expect(got).toMatchObject({ state: "merged", mergeSha: mainTip, mergeStrategy: "external", mergedBy: null });
    expect(got.mergedAt).not.toBeNull();
    expect((await events(pr.id)).at(-1)).toMatchObject({ type: "merged", data: { mergeSha: mainTip, strategy: "external" } });
    // closed pull requests are left alone
    const other = await openPull("closed-one");
    await owner.as.pulls.close({ prId: other.id });
    await wt
      .run("merge", "--quiet", "--ff-only", "closed-one")
      .catch(async () => wt.run("merge", "--quiet", "--no-ff", "-m", "m", "closed-one"));
    await wt.push("main");
    await refreshPullsAfterPush(await getDb(), repo.id, "main"); // what the job does
    expect((await get(other.number)).state).toBe("closed");
  });

  it("records a deleted source branch and its return", async () => {
    const pr = await openPull("doomed");
    await wt.push(":doomed");
    expect((await get(pr.number)).sourceDeleted).toBe(true);
    expect((await events(pr.id)).at(-1)).toMatchObject({ type: "source_deleted", data: { sha: pr.headSha } });
    expect((await get(pr.number)).state).toBe("open");
    await wt.push(`${pr.headSha}:refs/heads/doomed`);
    expect((await get(pr.number)).sourceDeleted).toBe(false);
    expect((await events(pr.id)).map((e) => e.type)).toEqual(["opened", "source_deleted", "source_restored"]);
  });

  it("leaves pull requests of other branches untouched", async () => {
    const pr = await openPull("quiet");
    await wt.run("checkout", "--quiet", "-B", "unrelated", "main");
    await wt.commit("u.txt", "u\n");
    await wt.push("unrelated");
    await wt.run("checkout", "--quiet", "main");
    expect((await get(pr.number)).headSha).toBe(pr.headSha);
    expect((await events(pr.id)).map((e) => e.type)).toEqual(["opened"]);
  });
});
