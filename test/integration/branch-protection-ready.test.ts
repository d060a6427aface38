/**
 * Branch protection seen from outside the merge box: the inbox's "Ready to merge" applies the
 * target branch's requirements as pulls.checkMergeability does (docs/pulls.md "Inbox"), and admin
 * bypasses are shown — on the pull request's timeline and by branchProtection.bypasses for the
 * settings page (docs/pulls.md "Branch protection").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { eventSentence, type PullEvent } from "@/components/pulls/timeline";
import { actorOf, makeToken } from "../helpers";
import { countingDb } from "./query-count";
import { cloneOf, codeOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;

const protect = (pattern: string, rule: Record<string, unknown> = {}) =>
  t.owner.as.branchProtection.upsert({ repoId: t.repo.id, pattern, ...rule });

/** A pull request by the writer from a new branch `name` (one commit on main) into main. */
async function openPull(name: string) {
  await writerWt.run("fetch", "--quiet", "origin");
  await writerWt.run("checkout", "--quiet", "-B", name, "origin/main");
  const head = await writerWt.commit(`${name}.txt`, `${name}\n`);
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

const postStatus = (sha: string, state: string, context = "ci") =>
  fetch(`${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}/statuses/${sha}`, {
    method: "POST",
    headers: { authorization: `token ${t.writer.token}`, "content-type": "application/json" },
    body: JSON.stringify({ state, context }),
  }).then((r) => r.status);

const ready = async () => (await t.writer.as.pulls.inboxReadyToMerge({ repoId: t.repo.id })).map((p) => p.title);
const mine = async () => (await t.writer.as.pulls.inboxMyPrs({ repoId: t.repo.id })).map((p) => p.title);
const readyCount = async () => (await t.writer.as.pulls.inboxSummary({ repoId: t.repo.id })).readyToMerge;

beforeAll(async () => {
  t = await team("bpr");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("inbox: ready to merge", () => {
  it("holds a pull request into a protected branch only once its approvals and required checks are satisfied", async () => {
    await protect("main", { requiredApprovals: 1, requiredStatusChecks: ["ci"] });
    const pr = await openPull("ready-later");
    const free = await openPull("free");
    await protect("free-target", {}); // a rule of another branch does not apply
    await openPull("unreviewed");
    expect(await ready()).toEqual([]);

    await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "approved" });
    await t.owner.as.pulls.addReview({ prId: free.id, commitSha: free.headSha, state: "approved" });
    // approved, but "ci" has not succeeded: the merge box says no, so does the inbox
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(false);
    expect(await postStatus(pr.headSha, "pending")).toBe(201);
    expect(await postStatus(free.headSha, "success")).toBe(201);
    expect(await ready()).toEqual(["free"]);
    expect(await readyCount()).toBe(1);
    // it waits for others (its checks): in "awaiting others" instead, so the two lists still split them
    expect(new Set(await mine())).toEqual(new Set(["ready-later", "unreviewed"]));
    expect((await t.writer.as.pulls.inboxSummary({ repoId: t.repo.id })).myPrs).toBe(2);
    const paged = async (offset: number) =>
      (await t.writer.as.pulls.inboxMyPrs({ repoId: t.repo.id, limit: 1, offset })).map((p) => p.title);
    expect([...(await paged(0)), ...(await paged(1)), ...(await paged(2))]).toEqual(await mine());

    expect(await postStatus(pr.headSha, "success")).toBe(201);
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(true);
    expect(new Set(await ready())).toEqual(new Set(["free", "ready-later"]));
    expect(await mine()).toEqual(["unreviewed"]);
    expect(await readyCount()).toBe(2);
    expect((await t.writer.as.pulls.inboxReadyToMerge({ repoId: t.repo.id, limit: 1, offset: 1 })).length).toBe(1);

    // changes requested by a writer block again
    await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "changes_requested", body: "wait" });
    expect(await ready()).toEqual(["free"]);
    expect(await readyCount()).toBe(1);
    await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "approved" });
    await t.writer.as.pulls.merge({ prId: free.id });
    await t.writer.as.pulls.merge({ prId: pr.id });
    expect(await ready()).toEqual([]);
  });

  it("takes the same number of queries for one candidate as for three", async () => {
    await protect("main", { requiredApprovals: 1, requiredStatusChecks: ["ci"] });
    const candidate = async (name: string) => {
      const pr = await openPull(name);
      await t.owner.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "approved" });
      expect(await postStatus(pr.headSha, "success")).toBe(201);
    };
    const counting = await countingDb();
    try {
      const caller = createCaller({
        db: counting.db,
        headers: new Headers(),
        actor: actorOf(t.writer.user),
        publicUrl: "http://localhost",
        requestId: "test",
      });
      await candidate("q1");
      const one = await counting.count(() => caller.pulls.inboxReadyToMerge({ repoId: t.repo.id }));
      await candidate("q2");
      await candidate("q3");
      const three = await counting.count(() => caller.pulls.inboxReadyToMerge({ repoId: t.repo.id }));
      expect((await caller.pulls.inboxReadyToMerge({ repoId: t.repo.id })).length).toBe(3);
      expect(three).toBe(one);
      // candidates, cache rows, rules, reviews, the repository, its collaborators, its owner and the
      // owner's members (an organization's grants, docs/orgs.md), statuses and check runs
      expect(three).toBeLessThanOrEqual(11);
    } finally {
      await counting.close();
    }
  });
});

describe("admin bypasses", () => {
  it("are on the timeline and listed per rule for admins (push and merge, newest first)", async () => {
    await protect("main", { requirePullRequest: true, requiredApprovals: 1, requiredStatusChecks: ["ci"], enforceAdmins: false });
    // an admin's push past requirePullRequest
    const adminToken = await makeToken(t.owner.user, ["repo:read", "repo:write", "repo:admin"]);
    await t.wt.run("remote", "set-url", "origin", remoteOf(t.server, adminToken, t.owner.user.username, t.repo.name));
    await t.wt.run("fetch", "--quiet", "origin");
    await t.wt.run("checkout", "--quiet", "-B", "main", "origin/main");
    const pushed = await t.wt.commit("admin-direct.txt", "a\n");
    await t.wt.push("main");

    // an admin's merge past the unmet approvals and checks
    const pr = await openPull("bypassed");
    expect((await t.owner.as.pulls.checkMergeability({ prId: pr.id })).canBypassRequirements).toBe(true);
    const merged = await t.owner.as.pulls.merge({ prId: pr.id, bypassRequirements: true });

    const events = (await t.writer.as.pulls.timeline({ prId: pr.id })) as unknown as PullEvent[];
    const bypass = events.find((e) => e.type === "protection_bypassed")!;
    expect(bypass.data).toMatchObject({ kinds: ["approvals", "status"], pattern: "main" });
    expect(eventSentence(bypass)?.text).toBe(
      'merged without the required reviews/checks (bypassed branch protection "main": 1 approving review required; ci: expected, waiting for its status to be reported)',
    );

    const listed = await t.owner.as.branchProtection.bypasses({ repoId: t.repo.id });
    const main = listed.find((r) => r.pattern === "main")!;
    expect(main.bypasses.slice(0, 2)).toMatchObject([
      {
        kind: "merge",
        user: { username: t.owner.user.username },
        rules: ["approvals", "status"],
        pull: { number: pr.number },
        newSha: merged.mergeSha,
      },
      { kind: "push", user: { username: t.owner.user.username }, rules: ["requirePullRequest"], pull: null, newSha: pushed },
    ]);
    expect(listed.find((r) => r.pattern === "free-target")?.bypasses).toEqual([]);

    expect(await codeOf(t.writer.as.branchProtection.bypasses({ repoId: t.repo.id }))).toBe("FORBIDDEN");
    expect(await codeOf(t.stranger.as.branchProtection.bypasses({ repoId: t.repo.id }))).toBe("NOT_FOUND");
  });
});
