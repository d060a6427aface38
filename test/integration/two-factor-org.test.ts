/**
 * Organizations requiring two-factor authentication (docs/security.md "Organizations requiring
 * two-factor authentication"): orgs.update {requireTwoFactor}; members, team members and outside
 * collaborators without 2FA lose access to the organization's repositories (private: NOT_FOUND;
 * public: read only) through sessions and personal access tokens alike (the same grants.ts
 * conditions serve git HTTP and SSH) until they enable it. Checks about other people follow the
 * same rule: such a member cannot be requested as a reviewer or assigned, CODEOWNERS skips them,
 * their approvals stop counting toward required approvals, a team review request neither notifies
 * them nor is answered by their review (pulls.teamReviewers, the inbox).
 */
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "otplib";
import { resolveActor } from "@/server/auth/actor";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser } from "../helpers";
import { getDb } from "@/server/db";
import { decideRecipients } from "@/server/services/notifications/recipients";
import { cloneOf, member, remoteOf, seededWorkTree, startGitServer, type Member, type Server } from "./pulls-fixtures";

const as = (u: Profile) => callerFor(actorOf(u));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? "ERROR",
  );

/** Turns TOTP on for `user` (codes computed here). */
async function enableTotp(user: Profile): Promise<void> {
  const me = await as(user);
  const { secret } = await me.users.twoFactor.setup();
  await me.users.twoFactor.confirm({ code: await generate({ secret }) });
}

/** A caller authenticated by a real personal access token (resolveActor). */
async function patCaller(user: Profile) {
  const token = await makeToken(user, ["repo:read", "repo:write"]);
  return callerFor(await resolveActor({ headers: new Headers({ authorization: `Bearer ${token}` }) }));
}

describe("orgs.update {requireTwoFactor}", () => {
  it("needs two-factor authentication of the owner turning it on", async () => {
    const owner = await makeUser("o2fa");
    const name = `tfo${Math.random().toString(36).slice(2, 8)}`;
    await (await as(owner)).orgs.create({ name });
    await expect((await as(owner)).orgs.update({ name, requireTwoFactor: true })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("two-factor"),
    });
    await enableTotp(owner);
    expect(await (await as(owner)).orgs.update({ name, requireTwoFactor: true })).toMatchObject({ requireTwoFactor: true });
    expect(await (await as(owner)).orgs.get({ name })).toMatchObject({ requireTwoFactor: true });
  });

  it("members, team members and collaborators without 2FA lose access until they enable it", async () => {
    const owner = await makeUser("own");
    await enableTotp(owner);
    const member = await makeUser("mem");
    const teamie = await makeUser("team");
    const outside = await makeUser("coll");
    const name = `tfa${Math.random().toString(36).slice(2, 8)}`;
    const o = await as(owner);
    await o.orgs.create({ name });
    await o.orgs.addMember({ name, username: member.username });
    await o.orgs.addMember({ name, username: teamie.username });
    await o.orgs.update({ name, basePermission: "none" });
    const secret = await o.repos.create({ owner: name, name: "secret", isPrivate: true });
    const open = await o.repos.create({ owner: name, name: "open" });
    await o.teams.create({ org: name, name: "devs", permission: "write" });
    await o.teams.addMember({ org: name, slug: "devs", username: teamie.username });
    await o.teams.addRepo({ org: name, slug: "devs", repo: "secret", permission: "write" });
    await o.repos.addCollaborator({ repoId: secret.id, username: outside.username, role: "write" });
    await o.repos.addCollaborator({ repoId: open.id, username: outside.username, role: "write" });
    await o.orgs.update({ name, basePermission: "read" });

    const perm = async (caller: Awaited<ReturnType<typeof as>>, repo: string) =>
      caller.repos.get({ owner: name, name: repo }).then(
        (r) => r.permission,
        (e: { code: string }) => e.code,
      );
    const listed = async (u: Profile) => (await (await as(u)).repos.list({ owner: name })).map((r) => r.name).sort();
    expect(await perm(await as(member), "secret")).toBe("read");
    expect(await perm(await as(teamie), "secret")).toBe("write");
    expect(await perm(await as(outside), "secret")).toBe("write");

    await o.orgs.update({ name, requireTwoFactor: true });
    for (const u of [member, teamie, outside]) {
      expect(await perm(await as(u), "secret")).toBe("NOT_FOUND");
      expect(await perm(await patCaller(u), "secret")).toBe("NOT_FOUND");
      expect(await listed(u)).toEqual(["open"]);
    }
    // a public repository stays readable, but no grant above read counts
    expect(await perm(await as(outside), "open")).toBe("read");
    expect(await codeOf((await as(outside)).repos.update({ repoId: open.id, description: "x" }))).toBe("FORBIDDEN");
    expect(await perm(await as(owner), "secret")).toBe("admin");

    for (const u of [member, teamie, outside]) await enableTotp(u);
    expect(await perm(await as(member), "secret")).toBe("read");
    expect(await perm(await patCaller(member), "secret")).toBe("read");
    expect(await perm(await as(teamie), "secret")).toBe("write");
    expect(await perm(await patCaller(outside), "secret")).toBe("write");
    expect(await listed(member)).toEqual(["open", "secret"]);

    // turning the requirement off restores access without 2FA
    const late = await makeUser("late");
    await o.orgs.addMember({ name, username: late.username });
    expect(await perm(await as(late), "secret")).toBe("NOT_FOUND");
    await o.orgs.update({ name, requireTwoFactor: false });
    expect(await perm(await as(late), "secret")).toBe("read");
  });
});

describe("checks about other people apply the requirement (repos/user-permissions.ts)", () => {
  let server: Server | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it("reviewer requests, CODEOWNERS, assignees and counted approvals skip a member without 2FA", async () => {
    server = await startGitServer();
    // nof: a member writing through a team, col: an outside collaborator (write); neither has 2FA
    const [owner, author, sec, nof, col, outsider] = await Promise.all(
      ["tfoo", "tfoa", "tfos", "tfon", "tfoc", "tfox"].map((p) => member(p)),
    );
    for (const m of [owner, author, sec]) await enableTotp(m.user);
    const org = `tfr${Math.random().toString(36).slice(2, 8)}`;
    const o = owner.as;
    await o.orgs.create({ name: org });
    await o.orgs.update({ name: org, basePermission: "none" });
    for (const m of [author, sec, nof]) await o.orgs.addMember({ name: org, username: m.user.username });
    const repoId = (await o.repos.create({ owner: org, name: "svc", isPrivate: true })).id;
    await o.teams.create({ org, name: "Core", permission: "write" });
    for (const m of [author, sec, nof]) await o.teams.addMember({ org, slug: "core", username: m.user.username });
    await o.teams.addRepo({ org, slug: "core", repo: "svc", permission: "write" });
    await o.repos.addCollaborator({ repoId, username: col.user.username, role: "write" });
    const ownerWt = await seededWorkTree(remoteOf(server, owner.token, org, "svc"));
    await ownerWt.commit(".github/CODEOWNERS", `*.txt @${sec.user.username} @${nof.user.username} @${col.user.username}\n`);
    await ownerWt.push("main");
    await o.branchProtection.upsert({ repoId, pattern: "main", requiredApprovals: 1, requireCodeOwnerReview: false, enforceAdmins: false });
    const authorWt = await cloneOf(remoteOf(server, author.token, org, "svc"));
    const openPull = async (name: string) => {
      await authorWt.run("fetch", "--quiet", "origin");
      await authorWt.run("checkout", "--quiet", "-B", name, "origin/main");
      const headSha = await authorWt.commit(`${name}.txt`, `${name}\n`);
      await authorWt.push(name);
      const baseSha = await authorWt.sha("origin/main");
      return author.as.pulls.create({ repoId, title: name, sourceBranch: name, targetBranch: "main", headSha, baseSha });
    };
    const requested = async (prId: string) => (await author.as.pulls.reviewers({ prId })).filter((r) => r.requested).map((r) => r.user.id);
    const approvals = async (prId: string) =>
      (await author.as.pulls.checkMergeability({ prId })).requirements.find((r) => r.kind === "approvals")?.satisfied;
    const assignees = async () => (await o.repos.assignees({ repoId })).map((a) => a.id);

    // before the requirement: every owner is requested, approvals by nof and col count, both are assignable
    const first = await openPull("first");
    expect((await requested(first.id)).sort()).toEqual([sec.user.id, nof.user.id, col.user.id].sort());
    for (const m of [nof, col]) await m.as.pulls.addReview({ prId: first.id, commitSha: first.headSha, state: "approved" });
    expect(await approvals(first.id)).toBe(true);
    expect(await assignees()).toEqual(expect.arrayContaining([nof.user.id, col.user.id]));

    await o.orgs.update({ name: org, requireTwoFactor: true });
    // the approvals given before the requirement stop counting (team and collaborator grants alike)
    expect(await approvals(first.id)).toBe(false);
    // nof and col cannot be requested: the error of someone without access
    await o.pulls.removeReviewRequest({ prId: first.id, reviewerId: sec.user.id });
    const outsiderError = await o.pulls.requestReview({ prId: first.id, reviewerId: outsider.user.id }).catch((e: Error) => e);
    expect(outsiderError).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("cannot read") });
    for (const m of [nof, col]) {
      expect(await o.pulls.requestReview({ prId: first.id, reviewerId: m.user.id }).catch((e: Error) => e)).toMatchObject({
        code: "BAD_REQUEST",
        message: `${m.user.username} cannot read ${org}/svc: add them as a collaborator first`,
      });
    }
    expect(await o.pulls.requestReview({ prId: first.id, reviewerId: sec.user.id })).toEqual(
      expect.arrayContaining([expect.objectContaining({ user: expect.objectContaining({ id: sec.user.id }), requested: true })]),
    );
    // CODEOWNERS: nof and col are skipped like owners without access
    const second = await openPull("second");
    expect(await requested(second.id)).toEqual([sec.user.id]);
    // neither assignable nor listed among the people to assign / request
    expect(await assignees()).not.toContain(nof.user.id);
    expect(await assignees()).not.toContain(col.user.id);
    expect(await assignees()).toContain(sec.user.id);
    expect(await codeOf(o.issues.create({ repoId, title: "x", assigneeId: nof.user.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(o.issues.create({ repoId, title: "x", assigneeId: col.user.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(o.issues.create({ repoId, title: "y", assigneeId: sec.user.id }))).toBe("OK");

    // with 2FA, nof's access — and the old approval — count again
    await enableTotp(nof.user);
    expect(await approvals(first.id)).toBe(true);
    expect(await assignees()).toContain(nof.user.id);
    expect(await codeOf(o.pulls.requestReview({ prId: second.id, reviewerId: nof.user.id }))).toBe("OK");
  }, 120_000);

  it("a team review request: a member without 2FA is not notified, and their review does not satisfy it", async () => {
    server ??= await startGitServer();
    // core (write on the private repository): sec with 2FA, nof without
    const [owner, author, sec, nof] = await Promise.all(["tftoo", "tftoa", "tftos", "tfton"].map((p) => member(p)));
    for (const m of [owner, author, sec]) await enableTotp(m.user);
    const org = `tft${Math.random().toString(36).slice(2, 8)}`;
    const o = owner.as;
    await o.orgs.create({ name: org });
    await o.orgs.update({ name: org, basePermission: "none" });
    for (const m of [sec, nof]) await o.orgs.addMember({ name: org, username: m.user.username });
    const repoId = (await o.repos.create({ owner: org, name: "svc", isPrivate: true })).id;
    await o.teams.create({ org, name: "Core", permission: "write" });
    for (const m of [sec, nof]) await o.teams.addMember({ org, slug: "core", username: m.user.username });
    await o.teams.addRepo({ org, slug: "core", repo: "svc", permission: "write" });
    await o.repos.addCollaborator({ repoId, username: author.user.username, role: "write" });
    await (await seededWorkTree(remoteOf(server, owner.token, org, "svc"))).push("main");
    const authorWt = await cloneOf(remoteOf(server, author.token, org, "svc"));
    await authorWt.run("checkout", "--quiet", "-b", "feature");
    const headSha = await authorWt.commit("feature.txt", "feature\n");
    await authorWt.push("feature");
    const baseSha = await authorWt.sha("origin/main");
    const pr = await author.as.pulls.create({ repoId, title: "feature", sourceBranch: "feature", targetBranch: "main", headSha, baseSha });
    await o.pulls.requestReview({ prId: pr.id, teams: ["core"] });
    const teamRequest = async () => {
      const [t] = await o.pulls.teamReviewers({ prId: pr.id });
      return { reviewedBy: t.reviewedBy, satisfied: t.satisfied };
    };
    const inInbox = async (m: Member) => (await m.as.pulls.inboxAwaitingReview({})).map((i) => i.id).includes(pr.id);
    /** Who the team request's notification reaches (notifications/recipients.ts, as the fan-out job decides). */
    const db = await getDb();
    const core = (await db.team.findFirst({ where: { org: { username: org }, slug: "core" }, select: { id: true } }))!;
    const notified = async () => {
      const event = { repoId, subjectType: "pull_request", subjectId: pr.id, kind: "review_requested", actorId: owner.user.id } as const;
      const subject = {
        repoId,
        number: pr.number,
        title: pr.title,
        authorId: null,
        participantIds: [],
        assigneeIds: [],
        reviewerIds: [],
        text: "",
      };
      const reasons = await decideRecipients(db, { ...event, at: new Date().toISOString(), targetTeamIds: [core.id] }, subject);
      return [...reasons.keys()].sort();
    };

    // before the requirement: nof is notified, and nof's review satisfies the request for the team
    expect(await notified()).toEqual([sec.user.id, nof.user.id].sort());
    expect(await inInbox(sec)).toBe(true);
    await nof.as.pulls.addReview({ prId: pr.id, commitSha: headSha, state: "approved" });
    expect(await teamRequest()).toEqual({ reviewedBy: [nof.user.username], satisfied: true });
    expect(await inInbox(sec)).toBe(false);

    // with the requirement on, nof is someone without access: not notified, and the old review no
    // longer answers the team's request (as it no longer counts as an approval)
    await o.orgs.update({ name: org, requireTwoFactor: true });
    expect(await notified()).toEqual([sec.user.id]);
    expect(await teamRequest()).toEqual({ reviewedBy: [], satisfied: false });
    expect(await inInbox(sec)).toBe(true);

    // a review by sec (with 2FA) satisfies it; nof's counts again once nof enables 2FA
    await sec.as.pulls.addReview({ prId: pr.id, commitSha: headSha, state: "commented", body: "looks fine" });
    expect(await teamRequest()).toEqual({ reviewedBy: [sec.user.username], satisfied: true });
    expect(await inInbox(sec)).toBe(false);
    await enableTotp(nof.user);
    expect(await teamRequest()).toEqual({ reviewedBy: [nof.user.username, sec.user.username].sort(), satisfied: true });
  }, 120_000);
});
