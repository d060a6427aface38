/**
 * Auto-merge (docs/pulls.md "Auto-merge"): pulls.enableAutoMerge / pulls.disableAutoMerge through
 * the real router, with real git pushes over HTTP and statuses through the REST API; the
 * `pulls.autoMerge` job runs in this process's job worker (polled, no sleeps), and is also called
 * directly (`runAutoMerge`) where a test needs to know that a run happened and merged nothing.
 */
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { runAutoMerge } from "@/server/services/pulls/run-auto-merge";
import { callerFor } from "../helpers";
import { cloneOf, codeOf, messageOf, remoteOf, team, type Member, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;
let receiver: HttpServer;

const protect = (rule: Record<string, unknown>) =>
  t.owner.as.branchProtection.upsert({
    repoId: t.repo.id,
    pattern: "main",
    requiredApprovals: 0,
    requiredStatusChecks: [],
    enforceAdmins: true,
    ...rule,
  });

/**
 * A pull request by the writer from a new branch `name` (one commit on main, writing `file` with
 * `content`: by default `<name>.txt` with the name) into main.
 */
async function openPull(name: string, file = `${name}.txt`, content = `${name}\n`) {
  await writerWt.run("fetch", "--quiet", "origin");
  await writerWt.run("checkout", "--quiet", "-B", name, "origin/main");
  const head = await writerWt.commit(file, content);
  await writerWt.push(name);
  return t.writer.as.pulls.create({
    repoId: t.repo.id,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await writerWt.sha("origin/main"),
  });
}

/** POST /api/v3/repos/{owner}/{repo}/statuses/{sha} with the writer's token → the HTTP status. */
const postStatus = (sha: string, state: string, context = "ci") =>
  fetch(`${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}/statuses/${sha}`, {
    method: "POST",
    headers: { authorization: `token ${t.writer.token}`, "content-type": "application/json" },
    body: JSON.stringify({ state, context }),
  }).then((r) => r.status);

/** The pull request's row once `done` holds for it (polled while the job worker runs). */
async function until(prId: string, done: (row: { state: string; autoMergeStrategy: string | null }) => boolean) {
  const db = await getDb();
  await expect
    .poll(async () => done(await db.pullRequest.findUniqueOrThrow({ where: { id: prId } })), { timeout: 30_000, interval: 100 })
    .toBe(true);
  return db.pullRequest.findUniqueOrThrow({ where: { id: prId } });
}

/** The webhook deliveries of `pull_request` with `action` for pull request `number`, their bodies parsed. */
async function pullRequestHooks(action: string, number: number) {
  const db = await getDb();
  const rows = await db.webhookDelivery.findMany({ where: { event: "pull_request", action }, orderBy: { createdAt: "asc" } });
  return rows
    .map((r) => JSON.parse(r.requestBody) as { number: number; reason?: string; pull_request: Record<string, unknown> })
    .filter((b) => b.number === number);
}

const review = (m: Member, prId: string, commitSha: string) => m.as.pulls.addReview({ prId, commitSha, state: "approved" });

beforeAll(async () => {
  process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS = "1";
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  t = await team("am");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
  await t.owner.as.webhooks.create({
    repoId: t.repo.id,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ["pull_request"],
  });
  registerJobHandlers();
  await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
});

afterAll(async () => {
  delete process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS;
  await stopJobWorker();
  await t.server.close();
  await new Promise((r) => receiver.close(r));
});

describe("pulls.enableAutoMerge", () => {
  it("waits while a required status is missing, then the job merges as the enabler once it succeeds", async () => {
    await protect({ requiredStatusChecks: ["ci"] });
    const pr = await openPull("am-status");
    const enabled = await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "squash", message: "Squashed by auto-merge" });
    expect(enabled).toMatchObject({
      merged: false,
      mergeSha: null,
      autoMerge: { strategy: "squash", message: "Squashed by auto-merge", enabledBy: { username: t.writer.user.username } },
    });
    const check = await t.reader.as.pulls.checkMergeability({ prId: pr.id });
    expect(check).toMatchObject({ canMerge: false, autoMerge: { strategy: "squash", enabledBy: { id: t.writer.user.id } } });

    // a run now merges nothing: the status is missing, then pending, then failing
    const db = await getDb();
    expect(await runAutoMerge(db, pr.id)).toBe("waiting");
    expect(await postStatus(pr.headSha, "pending")).toBe(201);
    expect(await postStatus(pr.headSha, "failure")).toBe(201);
    expect(await runAutoMerge(db, pr.id)).toBe("waiting");
    expect((await db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).state).toBe("open");

    expect(await postStatus(pr.headSha, "success")).toBe(201);
    const merged = await until(pr.id, (r) => r.state === "merged");
    expect(merged).toMatchObject({ mergedById: t.writer.user.id, mergeStrategy: "squash" });
    const main = await t.wt.run("ls-remote", "origin", "refs/heads/main");
    expect(main.split(/\s/)[0]).toBe(merged.mergeSha);
    await t.wt.run("fetch", "--quiet", "origin");
    expect(await t.wt.run("log", "-1", "--format=%B", "origin/main")).toMatch(/^Squashed by auto-merge/);

    const timeline = await t.writer.as.pulls.timeline({ prId: pr.id });
    const types = timeline.map((e) => [e.type, e.actor?.username ?? null]);
    expect(types).toContainEqual(["auto_merge_enabled", t.writer.user.username]);
    expect(types.at(-1)).toEqual(["merged", t.writer.user.username]);
    expect(timeline.find((e) => e.type === "auto_merge_enabled")?.data).toEqual({ strategy: "squash" });
    expect(await runAutoMerge(db, pr.id)).toBe("none"); // a repeated delivery of the job does nothing

    // the webhooks: auto_merge_enabled with GitHub's auto_merge object, then closed (merged) as for any merge
    const [hook] = await pullRequestHooks("auto_merge_enabled", pr.number);
    expect(hook.pull_request.auto_merge).toEqual({
      enabled_by: expect.objectContaining({ login: t.writer.user.username }),
      merge_method: "squash",
      commit_title: "Squashed by auto-merge",
      commit_message: "",
    });
    const [closed] = await pullRequestHooks("closed", pr.number);
    expect(closed.pull_request).toMatchObject({ merged: true, merged_by: expect.objectContaining({ login: t.writer.user.username }) });
  });

  it("merges when the required approval arrives; a reader's approval does not count", async () => {
    await protect({ requiredApprovals: 1 });
    const pr = await openPull("am-review");
    expect((await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" })).merged).toBe(false);
    await review(t.reader, pr.id, pr.headSha);
    const db = await getDb();
    expect(await runAutoMerge(db, pr.id)).toBe("waiting");
    await review(t.owner, pr.id, pr.headSha);
    const merged = await until(pr.id, (r) => r.state === "merged");
    expect(merged).toMatchObject({ mergedById: t.writer.user.id, mergeStrategy: "merge" });
  });

  it("merges at once when nothing blocks (as gh pr merge --auto); refuses drafts, closed and merged pull requests", async () => {
    await protect({});
    const pr = await openPull("am-now");
    const now = await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "rebase" });
    expect(now).toMatchObject({ merged: true, autoMerge: null });
    expect(now.mergeSha).toMatch(/^[0-9a-f]{40}$/);
    expect(await messageOf(t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" }))).toMatch(
      /is merged: auto-merge is only for open pull requests/,
    );

    const draft = await openPull("am-draft");
    await t.writer.as.pulls.update({ prId: draft.id, isDraft: true });
    const refused = t.writer.as.pulls.enableAutoMerge({ prId: draft.id, strategy: "merge" });
    expect(await codeOf(refused)).toBe("PRECONDITION_FAILED");
    expect(await messageOf(t.writer.as.pulls.enableAutoMerge({ prId: draft.id, strategy: "merge" }))).toMatch(/is a draft/);
    await t.writer.as.pulls.close({ prId: draft.id });
    expect(await codeOf(t.writer.as.pulls.enableAutoMerge({ prId: draft.id, strategy: "merge" }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf(t.writer.as.pulls.enableAutoMerge({ prId: draft.id, strategy: "octopus" as "merge" }))).toBe("BAD_REQUEST");
  });

  it("needs write permission: readers are refused, strangers and anonymous callers do not see the pull request", async () => {
    await protect({ requiredApprovals: 1 });
    const pr = await openPull("am-perm");
    expect(await codeOf(t.reader.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" }))).toBe("FORBIDDEN");
    expect(await codeOf(t.stranger.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" }))).toBe("NOT_FOUND");
    const anon = await callerFor(null);
    expect(await codeOf(anon.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" }))).toBe("NOT_FOUND");
    expect(await codeOf(t.writer.as.pulls.disableAutoMerge({ prId: pr.id }))).toBe("PRECONDITION_FAILED"); // not enabled

    await t.owner.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "squash" });
    expect(await codeOf(t.reader.as.pulls.disableAutoMerge({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await t.writer.as.pulls.disableAutoMerge({ prId: pr.id })).toEqual({ autoMerge: null });
    expect((await t.reader.as.pulls.checkMergeability({ prId: pr.id })).autoMerge).toBeNull();
    const last = (await t.writer.as.pulls.timeline({ prId: pr.id })).at(-1);
    expect(last).toMatchObject({
      type: "auto_merge_disabled",
      data: { reason: "disabled manually" },
      actor: { username: t.writer.user.username },
    });
  });
});

describe("auto-merge is disabled", () => {
  it("when the pull request is closed", async () => {
    await protect({ requiredApprovals: 1 });
    const pr = await openPull("am-close");
    await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" });
    await t.owner.as.pulls.close({ prId: pr.id });
    const row = await (await getDb()).pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect(row).toMatchObject({ autoMergeStrategy: null, autoMergeById: null, autoMergeEnabledAt: null });
    const last = (await t.writer.as.pulls.timeline({ prId: pr.id })).at(-1);
    expect(last).toMatchObject({ type: "auto_merge_disabled", data: { reason: "the pull request was closed" } });
    const [hook] = await pullRequestHooks("auto_merge_disabled", pr.number);
    expect(hook).toMatchObject({ reason: "the pull request was closed", pull_request: { auto_merge: null } });
    // reopened, it does not merge by itself
    await t.owner.as.pulls.reopen({ prId: pr.id });
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).autoMerge).toBeNull();
  });

  it("when someone without write permission pushes to the head (a fork's branch); a writer's push keeps it", async () => {
    await protect({ requiredApprovals: 1 });
    // the writer's own push keeps auto-merge
    const own = await openPull("am-push-own");
    await t.owner.as.pulls.enableAutoMerge({ prId: own.id, strategy: "merge" });
    await writerWt.commit("am-push-own.txt", "more\n");
    await writerWt.push("am-push-own");
    expect((await t.writer.as.pulls.checkMergeability({ prId: own.id })).autoMerge).toMatchObject({ strategy: "merge" });

    // a reader's fork: the reader pushes to the pull request's head without write permission on the target
    const fork = await t.reader.as.repos.fork({ repoId: t.repo.id });
    const mine = await cloneOf(remoteOf(t.server, t.reader.token, t.reader.user.username, fork.name));
    await mine.run("checkout", "--quiet", "-b", "from-fork");
    const head = await mine.commit("fork.txt", "from a fork\n");
    await mine.push("from-fork");
    const pr = await t.reader.as.pulls.create({
      repoId: t.repo.id,
      title: "from a fork",
      sourceBranch: "from-fork",
      targetBranch: "main",
      headSha: head,
      baseSha: await mine.sha("origin/main"),
      sourceRepoId: fork.id,
    });
    await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "squash" });
    await mine.commit("fork.txt", "changed after auto-merge was enabled\n");
    await mine.push("from-fork");
    const row = await (await getDb()).pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect(row.autoMergeStrategy).toBeNull();
    const last = (await t.writer.as.pulls.timeline({ prId: pr.id })).at(-1);
    expect(last).toMatchObject({
      type: "auto_merge_disabled",
      actor: null,
      data: { reason: `@${t.reader.user.username}, who has no write permission, pushed to the head branch` },
    });
    // an approval now does not merge it
    await review(t.owner, pr.id, row.headSha);
    expect(await runAutoMerge(await getDb(), pr.id)).toBe("none");
  });

  it("when the user who enabled it lost write permission (by the job)", async () => {
    await protect({ requiredApprovals: 1 });
    const pr = await openPull("am-demoted");
    await t.writer.as.pulls.enableAutoMerge({ prId: pr.id, strategy: "merge" });
    await t.owner.as.repos.addCollaborator({ repoId: t.repo.id, username: t.writer.user.username, role: "read" });
    try {
      expect(await runAutoMerge(await getDb(), pr.id)).toBe("disabled");
      const last = (await t.owner.as.pulls.timeline({ prId: pr.id })).at(-1);
      expect(last).toMatchObject({ type: "auto_merge_disabled", actor: null });
      expect(String(last?.data.reason)).toMatch(/no longer has write permission/);
    } finally {
      await t.owner.as.repos.addCollaborator({ repoId: t.repo.id, username: t.writer.user.username, role: "write" });
    }
  });
});

describe("auto-merge after svc moves the target branch", () => {
  it("merging another pull request into main re-queues the job: a conflict it resolves lets the waiting pull request merge", async () => {
    await protect({ requiredApprovals: 1, requireUpToDate: false });
    const db = await getDb();
    // B adds shared-am.txt; X, merged first, adds it with other content: B now conflicts with main
    const b = await openPull("am-chain-b", "shared-am.txt", "from b\n");
    const x = await openPull("am-chain-x", "shared-am.txt", "from x\n");
    await review(t.owner, x.id, x.headSha);
    await t.writer.as.pulls.merge({ prId: x.id });
    await review(t.owner, b.id, b.headSha);
    expect((await t.writer.as.pulls.enableAutoMerge({ prId: b.id, strategy: "merge" })).merged).toBe(false);
    await expect
      .poll(async () => (await t.writer.as.pulls.checkMergeability({ prId: b.id })).conflicts.length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await runAutoMerge(db, b.id)).toBe("waiting");

    // A (from the new main) gives the file B's content: once A is merged through pulls.merge,
    // nothing is pushed and nobody touches B, yet the target's move re-queues B's job and it merges
    const a = await openPull("am-chain-a", "shared-am.txt", "from b\n");
    await review(t.owner, a.id, a.headSha);
    await t.writer.as.pulls.merge({ prId: a.id });
    const merged = await until(b.id, (r) => r.state === "merged");
    expect(merged).toMatchObject({ mergedById: t.writer.user.id, mergeStrategy: "merge" });
    await t.wt.run("fetch", "--quiet", "origin");
    expect(await t.wt.run("show", "origin/main:shared-am.txt")).toMatch(/^from b\s*$/);
  });
});
