/**
 * Branch protection (docs/pulls.md "Branch protection", docs/git-http.md "Refused pushes: branch
 * protection"): rules enforced for real `git push` over smart HTTP (pre-receive) and for svc's own
 * commits (merge, suggestions), the merge requirements of pulls.checkMergeability / pulls.merge,
 * pulls.dismissReview and stale approvals dismissed by a push.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { makeToken } from "../helpers";
import { cloneOf, codeOf, messageOf, remoteOf, team, type Member, type Team, type WorkTree } from "./pulls-fixtures";

let t: Team;
let writerWt: WorkTree;

/** The stderr of a git push that must fail. */
async function refusedPush(wt: WorkTree, ...refspecs: string[]): Promise<string> {
  const e = await wt.push(...refspecs).then(
    () => null,
    (err: Error) => err,
  );
  expect(e, `push ${refspecs.join(" ")} should be refused`).not.toBeNull();
  return e!.message;
}

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

const review = (m: Member, prId: string, commitSha: string, state: "approved" | "changes_requested") =>
  m.as.pulls.addReview({ prId, commitSha, state, body: state === "approved" ? undefined : "please fix" });

beforeAll(async () => {
  t = await team("bp");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
});

afterAll(async () => {
  await t.server.close();
});

describe("branchProtection rules", () => {
  it("are upserted, listed most specific first, and need admin", async () => {
    const rule = await protect("release/*", {
      requiredApprovals: 2,
      requiredStatusChecks: ["ci", "ci"],
      pushAllowlist: [t.writer.user.username],
    });
    expect(rule).toMatchObject({
      pattern: "release/*",
      requiredApprovals: 2,
      requiredStatusChecks: ["ci"],
      pushAllowlist: [t.writer.user.username],
    });
    await protect("release/*", { requiredApprovals: 1 }); // absent fields keep their value
    await protect("*");
    const list = await t.owner.as.branchProtection.list({ repoId: t.repo.id });
    expect(list.map((r) => [r.pattern, r.requiredApprovals, r.pushAllowlist.length])).toEqual([
      ["release/*", 1, 1],
      ["*", 0, 0],
    ]);
    expect(await codeOf(protect("x", { requiredApprovals: 11 }))).toBe("BAD_REQUEST");
    expect(await codeOf(protect("refs/heads/x"))).toBe("BAD_REQUEST");
    expect(await messageOf(protect("x", { pushAllowlist: ["nobody-here"] }))).toMatch(/no user named "nobody-here"/);
    expect(await codeOf(t.writer.as.branchProtection.upsert({ repoId: t.repo.id, pattern: "x" }))).toBe("FORBIDDEN");
    expect(await codeOf(t.stranger.as.branchProtection.list({ repoId: t.repo.id }))).toBe("NOT_FOUND");
    await t.owner.as.branchProtection.delete({ repoId: t.repo.id, pattern: "*" });
    await t.owner.as.branchProtection.delete({ repoId: t.repo.id, pattern: "release/*" });
    expect(await codeOf(t.owner.as.branchProtection.get({ repoId: t.repo.id, pattern: "*" }))).toBe("NOT_FOUND");
  });
});

describe("git push to a protected branch", () => {
  it("is refused without a pull request; an admin bypasses (recorded) only when enforceAdmins is off", async () => {
    await protect("main", { requirePullRequest: true });
    await writerWt.run("checkout", "--quiet", "-B", "main", "origin/main");
    const direct = await writerWt.commit("direct.txt", "x\n");
    const err = await refusedPush(writerWt, "main");
    expect(err).toContain("remote: error: main is protected: changes must go through a pull request");
    expect(err).toContain("pre-receive hook declined");

    // the owner passes, with a token allowed to act as admin (repo:admin), and the bypass is recorded
    const adminToken = await makeToken(t.owner.user, ["repo:read", "repo:write", "repo:admin"]);
    await t.wt.run("remote", "set-url", "origin", remoteOf(t.server, adminToken, t.owner.user.username, t.repo.name));
    await t.wt.run("pull", "--quiet", "--ff-only", "origin", "main");
    const adminTip = await t.wt.commit("admin.txt", "a\n");
    await t.wt.push("main");
    const db = await getDb();
    const bypass = await db.branchProtectionBypass.findFirstOrThrow({ where: { repoId: t.repo.id, newSha: adminTip } });
    expect(bypass).toMatchObject({ pattern: "main", userId: t.owner.user.id, ref: "refs/heads/main", rules: '["requirePullRequest"]' });

    await protect("main", { enforceAdmins: true });
    await t.wt.commit("admin2.txt", "b\n");
    expect(await refusedPush(t.wt, "main")).toContain("main is protected: changes must go through a pull request");
    await t.wt.run("reset", "--quiet", "--hard", "origin/main");
    await writerWt.run("reset", "--quiet", "--hard", "origin/main");
    expect(direct).not.toBe(adminTip);
  });

  it("force-push and deletion are refused unless allowed; a push allowlist limits who pushes", async () => {
    await protect("release/*", { pushAllowlist: [t.writer.user.username], enforceAdmins: true });
    await writerWt.run("checkout", "--quiet", "-B", "release/1", "origin/main");
    await writerWt.commit("r.txt", "1\n");
    await writerWt.push("release/1"); // creating and fast-forwarding are plain pushes
    await writerWt.run("reset", "--quiet", "--hard", "HEAD~1");
    await writerWt.commit("r.txt", "rewritten\n");
    expect(await refusedPush(writerWt, "--force", "release/1")).toContain("release/1 is protected: force-pushes are not allowed");
    expect(await refusedPush(writerWt, ":release/1")).toContain("release/1 is protected: it cannot be deleted");
    await protect("release/*", { allowForcePush: true, allowDeletion: true });
    await writerWt.push("--force", "release/1");
    await writerWt.push(":release/1");

    // the owner is not on the allowlist (and enforceAdmins is on)
    await t.wt.run("fetch", "--quiet", "origin");
    await t.wt.run("checkout", "--quiet", "-B", "release/2", "origin/main");
    expect(await refusedPush(t.wt, "release/2")).toContain(
      "release/2 is protected: only the users on its push allowlist may push or merge to it",
    );
    await t.wt.run("checkout", "--quiet", "main");
    await t.owner.as.branchProtection.delete({ repoId: t.repo.id, pattern: "release/*" });
  });
});

describe("merge requirements", () => {
  it("block the merge until an approval by a writer; a reader's approval does not count", async () => {
    await protect("main", { requirePullRequest: true, requiredApprovals: 1, enforceAdmins: true });
    const pr = await openPull("needs-review");
    const before = await t.writer.as.pulls.checkMergeability({ prId: pr.id });
    expect(before).toMatchObject({
      canMerge: false,
      canBypassRequirements: false,
      error: "merge requirements are not met: 1 approving review required",
      requirements: [{ kind: "approvals", satisfied: false, message: "1 approving review required" }],
    });
    const refused = t.writer.as.pulls.merge({ prId: pr.id });
    expect(await codeOf(refused)).toBe("PRECONDITION_FAILED");
    expect(await messageOf(t.writer.as.pulls.merge({ prId: pr.id }))).toMatch(/1 approving review required/);

    await review(t.reader, pr.id, pr.headSha, "approved");
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(false);
    await review(t.owner, pr.id, pr.headSha, "approved");
    const after = await t.writer.as.pulls.checkMergeability({ prId: pr.id });
    expect(after).toMatchObject({ canMerge: true, requirements: [{ kind: "approvals", satisfied: true }] });
    const merged = await t.writer.as.pulls.merge({ prId: pr.id });
    expect(merged.state).toBe("merged"); // requirePullRequest lets the pull request's merge through
  });

  it("a required status check blocks until the head's status (or check run) of that context succeeds", async () => {
    await protect("main", { requirePullRequest: true, requiredApprovals: 0, requiredStatusChecks: ["ci"], enforceAdmins: true });
    const pr = await openPull("needs-ci");
    const status = { kind: "status", satisfied: false, context: "ci" };
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).requirements).toMatchObject([status]);
    const post = (state: string, context = "ci") =>
      fetch(`${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}/statuses/${pr.headSha}`, {
        method: "POST",
        headers: { authorization: `token ${t.writer.token}`, "content-type": "application/json" },
        body: JSON.stringify({ state, context }),
      }).then((r) => r.status);
    expect(await post("success", "lint")).toBe(201); // another context does not count
    expect(await post("pending")).toBe(201);
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(false);
    expect(await codeOf(t.writer.as.pulls.merge({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
    expect(await post("success")).toBe(201);
    const after = await t.writer.as.pulls.checkMergeability({ prId: pr.id });
    expect(after).toMatchObject({ canMerge: true, requirements: [{ ...status, satisfied: true }] });
    expect((await t.writer.as.pulls.merge({ prId: pr.id })).state).toBe("merged");
    await protect("main", { requirePullRequest: true, requiredStatusChecks: [], enforceAdmins: true }); // the later tests' rule
  });

  it("changes requested blocks until dismissed; a push dismisses stale approvals", async () => {
    await protect("main", { requiredApprovals: 1, dismissStaleApprovals: true, enforceAdmins: false });
    const pr = await openPull("changes");
    const blocked = await review(t.owner, pr.id, pr.headSha, "changes_requested");
    const unmet = (await t.writer.as.pulls.checkMergeability({ prId: pr.id })).requirements.filter((r) => !r.satisfied);
    expect(unmet.map((r) => r.message)).toEqual(["1 approving review required", `Changes requested by ${t.owner.user.username}`]);
    expect(await codeOf(t.reader.as.pulls.dismissReview({ reviewId: blocked.id, reason: "done" }))).toBe("FORBIDDEN");
    const dismissed = await t.writer.as.pulls.dismissReview({ reviewId: blocked.id, reason: "addressed in person" });
    expect(dismissed.dismissal).toMatchObject({ reason: "addressed in person" });
    expect(await codeOf(t.writer.as.pulls.dismissReview({ reviewId: blocked.id, reason: "again" }))).toBe("PRECONDITION_FAILED");
    const timeline = await t.writer.as.pulls.timeline({ prId: pr.id });
    expect(timeline.at(-1)).toMatchObject({ type: "review_dismissed", data: { reviewId: blocked.id, reason: "addressed in person" } });

    const approval = await review(t.owner, pr.id, pr.headSha, "approved");
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(true);
    // a push that changes the diff dismisses the approval
    await writerWt.run("checkout", "--quiet", "changes");
    await writerWt.commit("changes.txt", "changed\n");
    await writerWt.push("changes");
    const reviews = await t.writer.as.pulls.reviews({ prId: pr.id });
    expect(reviews.find((r) => r.id === approval.id)?.dismissal).toMatchObject({ reason: "stale" });
    expect((await t.writer.as.pulls.checkMergeability({ prId: pr.id })).canMerge).toBe(false);

    // an admin may merge past the requirements when enforceAdmins is off; recorded on the timeline
    const check = await t.owner.as.pulls.checkMergeability({ prId: pr.id });
    expect(check.canBypassRequirements).toBe(true);
    await t.owner.as.pulls.merge({ prId: pr.id, bypassRequirements: true });
    const events = await t.owner.as.pulls.timeline({ prId: pr.id });
    expect(events.map((e) => e.type)).toContain("protection_bypassed");
  });

  it("svc's own commits to a branch that requires pull requests are refused (a suggestion)", async () => {
    await protect("main", { requiredApprovals: 0 });
    const pr = await openPull("suggest-here");
    await protect("suggest-*", { requirePullRequest: true, enforceAdmins: true });
    const c = await t.writer.as.pulls.addSuggestion({
      prId: pr.id,
      path: "suggest-here.txt",
      line: 1,
      body: "",
      suggestion: "better\n",
      commitSha: pr.headSha,
    });
    const applied = t.writer.as.pulls.applySuggestion({ commentId: c.id });
    expect(await messageOf(applied)).toBe("suggest-here is protected: changes must go through a pull request");
    expect(await codeOf(t.writer.as.pulls.applySuggestion({ commentId: c.id }))).toBe("FORBIDDEN");
  });

  it("code owners (CODEOWNERS at the target branch) must approve the paths they own", async () => {
    await protect("main", { requireCodeOwnerReview: true, requiredApprovals: 0, enforceAdmins: false });
    await t.wt.run("checkout", "--quiet", "main");
    await t.wt.run("pull", "--quiet", "--ff-only", "origin", "main");
    await t.wt.commit(".github/CODEOWNERS", `*.txt @${t.owner.user.username}\n`);
    await t.wt.push("main"); // the owner bypasses requirePullRequest (recorded)
    const pr = await openPull("owned");
    // the owner of the changed path was requested as a reviewer when the pull request was opened
    const db = await getDb();
    expect(await db.pullRequestReviewRequest.findMany({ where: { pullRequestId: pr.id }, select: { reviewerId: true } })).toEqual([
      { reviewerId: t.owner.user.id },
    ]);
    const waiting = (await t.writer.as.pulls.checkMergeability({ prId: pr.id })).requirements;
    expect(waiting).toEqual([
      { kind: "codeOwners", satisfied: false, message: `Code owner review required from @${t.owner.user.username.toLowerCase()} (1 file)` },
    ]);
    await review(t.owner, pr.id, pr.headSha, "approved");
    const check = await t.writer.as.pulls.checkMergeability({ prId: pr.id });
    expect(check).toMatchObject({ canMerge: true, requirements: [{ kind: "codeOwners", satisfied: true }] });
  });

  it("a push that makes newly owned files part of the change requests their owners, once; pulls.codeOwners lists each file's owners", async () => {
    await protect("main", { requireCodeOwnerReview: true, requiredApprovals: 0, enforceAdmins: false });
    await t.wt.run("checkout", "--quiet", "main");
    await t.wt.run("pull", "--quiet", "--ff-only", "origin", "main");
    const [own, rea, reb] = [t.owner, t.reader, t.reader2].map((m) => m.user.username);
    await t.wt.commit(".github/CODEOWNERS", `*.txt @${own}\n/docs/ @${rea}\n/src/ @${reb} @${t.writer.user.username}\n`);
    await t.wt.push("main");
    const pr = await openPull("grows");
    const db = await getDb();
    const requested = async () =>
      (await db.pullRequestReviewRequest.findMany({ where: { pullRequestId: pr.id }, select: { reviewerId: true } }))
        .map((r) => r.reviewerId)
        .sort();
    expect(await requested()).toEqual([t.owner.user.id]);
    await review(t.owner, pr.id, pr.headSha, "approved"); // a review answers the request

    // docs/ joins the change: its owner is requested (and announced), the owner who reviewed is not asked again
    await writerWt.commit("docs/guide.md", "guide\n");
    await writerWt.push("grows");
    expect(await requested()).toEqual([t.reader.user.id]);
    const timeline = await t.writer.as.pulls.timeline({ prId: pr.id });
    expect(
      timeline.filter((e) => e.type === "review_requested").map((e) => (e.data as { reviewer: { username: string } }).reviewer.username),
    ).toEqual([own, rea]);

    // a removed request stays removed: docs/ was already part of the change
    await t.owner.as.pulls.removeReviewRequest({ prId: pr.id, reviewerId: t.reader.user.id });
    await writerWt.commit("docs/more.md", "more\n");
    await writerWt.push("grows");
    expect(await requested()).toEqual([]);

    // src/ is owned by reader2, who has reviewed already, and the author: nobody is requested
    await t.reader2.as.pulls.addReview({ prId: pr.id, commitSha: await writerWt.sha("grows"), state: "commented", body: "a look" });
    await writerWt.commit("src/a.ts", "export {};\n");
    await writerWt.push("grows");
    expect(await requested()).toEqual([]);

    // the Files tab's "Owned by" lines: every owned changed file's owners, for readers only
    const lower = (n: string) => n.toLowerCase();
    expect((await t.reader.as.pulls.codeOwners({ prId: pr.id })).owners).toEqual({
      "grows.txt": [lower(own)],
      "docs/guide.md": [lower(rea)],
      "docs/more.md": [lower(rea)],
      "src/a.ts": [lower(reb), lower(t.writer.user.username)],
    });
    expect(await codeOf(t.stranger.as.pulls.codeOwners({ prId: pr.id }))).toBe("NOT_FOUND");
  });
});
