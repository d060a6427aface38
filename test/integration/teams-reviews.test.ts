/**
 * Team review requests (docs/orgs.md "Teams", docs/pulls.md "Merge requirements"): a CODEOWNERS
 * `@org/team` owner becomes a team review request when the pull request is opened, a member's
 * approval satisfies the code owner requirement and the request, the inbox of each member lists it
 * (`viaTeam`) until then, and reviews can be requested from teams by hand (pulls.requestReview
 * `teams`) next to the old `reviewerId` input. Real git over smart HTTP; the repository is an
 * organization's, its writers write through a team.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import {
  cloneOf,
  codeOf,
  member,
  remoteOf,
  seededWorkTree,
  startGitServer,
  type Member,
  type Server,
  type WorkTree,
} from "./pulls-fixtures";

let server: Server;
let alice: Member; // organization owner
let author: Member; // on team core
let bob: Member; // on team core
let carol: Member; // on team core
let dave: Member; // organization member (base read), on no team
let org: string;
let repoId: string;
let ownerWt: WorkTree;
let authorWt: WorkTree;

beforeAll(async () => {
  server = await startGitServer();
  [alice, author, bob, carol, dave] = await Promise.all(["trva", "trvau", "trvb", "trvc", "trvd"].map((p) => member(p)));
  org = `trorg${Math.random().toString(36).slice(2, 8)}`;
  await alice.as.orgs.create({ name: org });
  await alice.as.orgs.update({ name: org, basePermission: "read" });
  for (const m of [author, bob, carol, dave]) await alice.as.orgs.addMember({ name: org, username: m.user.username });
  repoId = (await alice.as.repos.create({ owner: org, name: "svc", isPrivate: true })).id;
  await alice.as.teams.create({ org, name: "Core", permission: "write" });
  await alice.as.teams.create({ org, name: "Ops" });
  for (const m of [author, bob, carol]) await alice.as.teams.addMember({ org, slug: "core", username: m.user.username });
  await alice.as.teams.addRepo({ org, slug: "core", repo: "svc" });
  ownerWt = await seededWorkTree(remoteOf(server, alice.token, org, "svc"));
  await ownerWt.commit(".github/CODEOWNERS", `*.txt @${org.toUpperCase()}/Core @nobody-org/else\n`);
  await ownerWt.push("main");
  await alice.as.branchProtection.upsert({
    repoId,
    pattern: "main",
    requireCodeOwnerReview: true,
    requiredApprovals: 0,
    enforceAdmins: false,
  });
  // the author writes through team core: the push is allowed
  authorWt = await cloneOf(remoteOf(server, author.token, org, "svc"));
}, 120_000);

afterAll(async () => {
  await server.close();
});

/** A pull request by the author from a new branch `name` adding `<name>.txt`. */
async function openPull(name: string) {
  await authorWt.run("fetch", "--quiet", "origin");
  await authorWt.run("checkout", "--quiet", "-B", name, "origin/main");
  const head = await authorWt.commit(`${name}.txt`, `${name}\n`);
  await authorWt.push(name);
  return author.as.pulls.create({
    repoId,
    title: name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await authorWt.sha("origin/main"),
  });
}

const awaiting = async (m: Member) => (await m.as.pulls.inboxAwaitingReview({})).map((p) => ({ number: p.number, viaTeam: p.viaTeam }));

describe("CODEOWNERS teams", () => {
  it("a team owner is requested on open, shows in its members' inboxes, and any member's approval satisfies it", async () => {
    const pr = await openPull("owned");
    const db = await getDb();
    // the team (of the repository's organization) is requested; no user is; the unknown team is dropped
    expect(await db.pullRequestReviewRequest.count({ where: { pullRequestId: pr.id } })).toBe(0);
    const teams = await db.pullRequestTeamReviewRequest.findMany({
      where: { pullRequestId: pr.id },
      select: { team: { select: { slug: true } } },
    });
    expect(teams.map((t) => t.team.slug)).toEqual(["core"]);
    expect(await author.as.pulls.teamReviewers({ prId: pr.id })).toEqual([
      { team: expect.objectContaining({ org, slug: "core", name: "Core" }), reviewedBy: [], satisfied: false },
    ]);
    const timeline = await author.as.pulls.timeline({ prId: pr.id });
    expect(timeline.filter((e) => e.type === "review_requested").map((e) => e.data)).toEqual([
      { team: expect.objectContaining({ slug: "core" }), codeOwner: true },
    ]);

    // inboxes: team members but the author, marked viaTeam; not an organization member off the team
    expect(await awaiting(bob)).toEqual([{ number: pr.number, viaTeam: `${org}/core` }]);
    expect(await awaiting(carol)).toEqual([{ number: pr.number, viaTeam: `${org}/core` }]);
    expect(await awaiting(author)).toEqual([]);
    expect(await awaiting(dave)).toEqual([]);
    expect((await bob.as.pulls.inboxSummary({})).awaitingReview).toBe(1);
    expect((await bob.as.pulls.inboxAwaitingCount()).awaitingReview).toBe(1);

    // the requirement names the team
    expect((await author.as.pulls.checkMergeability({ prId: pr.id })).requirements).toEqual([
      { kind: "codeOwners", satisfied: false, message: `Code owner review required from @${org}/core, @nobody-org/else (1 file)` },
    ]);
    // an approval by someone off the team does not satisfy it
    await dave.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "approved" });
    expect((await author.as.pulls.checkMergeability({ prId: pr.id })).requirements[0]).toMatchObject({ satisfied: false });
    // a member's approval does (bob writes through the team)
    await bob.as.pulls.addReview({ prId: pr.id, commitSha: pr.headSha, state: "approved" });
    expect(await author.as.pulls.checkMergeability({ prId: pr.id })).toMatchObject({
      canMerge: true,
      requirements: [{ kind: "codeOwners", satisfied: true }],
    });
    expect(await author.as.pulls.teamReviewers({ prId: pr.id })).toEqual([
      { team: expect.objectContaining({ slug: "core" }), reviewedBy: [bob.user.username], satisfied: true },
    ]);
    // satisfied: off every member's inbox
    expect(await awaiting(carol)).toEqual([]);
    expect((await carol.as.pulls.inboxSummary({})).awaitingReview).toBe(0);
  });

  it("a direct request wins over the team mark; a push that newly owns files requests the team", async () => {
    // CODEOWNERS owns docs/ by team ops only
    await ownerWt.run("pull", "--quiet", "--ff-only", "origin", "main");
    await ownerWt.commit(".github/CODEOWNERS", `/docs/ @${org}/ops\n`);
    await ownerWt.push("main");
    await alice.as.teams.addMember({ org, slug: "ops", username: carol.user.username });
    const pr = await openPull("later");
    const db = await getDb();
    const requested = async () =>
      (
        await db.pullRequestTeamReviewRequest.findMany({ where: { pullRequestId: pr.id }, select: { team: { select: { slug: true } } } })
      ).map((r) => r.team.slug);
    expect(await requested()).toEqual([]);
    await authorWt.commit("docs/guide.md", "guide\n");
    await authorWt.push("later");
    expect(await requested()).toEqual(["ops"]);
    expect(await awaiting(carol)).toEqual([{ number: pr.number, viaTeam: `${org}/ops` }]);
    await alice.as.pulls.requestReview({ prId: pr.id, reviewerId: carol.user.id });
    expect(await awaiting(carol)).toEqual([{ number: pr.number, viaTeam: undefined }]);
    expect((await carol.as.pulls.inboxSummary({})).awaitingReview).toBe(1);
  });
});

describe("pulls.requestReview teams", () => {
  it("requests and removes team reviews by hand; the reviewerId input keeps working", async () => {
    const pr = await openPull("manual");
    expect(await codeOf(alice.as.pulls.requestReview({ prId: pr.id, teams: ["nope"] }))).toBe("NOT_FOUND");
    expect(await codeOf(alice.as.pulls.requestReview({ prId: pr.id }))).toBe("BAD_REQUEST");
    expect(await codeOf(dave.as.pulls.requestReview({ prId: pr.id, teams: ["ops"] }))).toBe("FORBIDDEN");
    await alice.as.pulls.requestReview({ prId: pr.id, teams: [`${org}/ops`], reviewerId: dave.user.id });
    expect((await alice.as.pulls.teamReviewers({ prId: pr.id })).map((t) => t.team.slug)).toEqual(["ops"]);
    expect((await alice.as.pulls.reviewers({ prId: pr.id })).map((r) => r.user.username)).toEqual([dave.user.username]);
    expect(await codeOf(alice.as.pulls.requestReview({ prId: pr.id, teams: ["ops"] }))).toBe("CONFLICT");
    const timeline = await alice.as.pulls.timeline({ prId: pr.id });
    expect(timeline.some((e) => e.type === "review_requested" && (e.data as { team?: { slug: string } }).team?.slug === "ops")).toBe(true);
    await alice.as.pulls.removeReviewRequest({ prId: pr.id, teams: ["ops"] });
    expect(await alice.as.pulls.teamReviewers({ prId: pr.id })).toEqual([]);
    await alice.as.pulls.removeReviewRequest({ prId: pr.id, reviewerId: dave.user.id });
    expect(await alice.as.pulls.reviewers({ prId: pr.id })).toEqual([]);
    // deleting a team removes its requests
    await alice.as.pulls.requestReview({ prId: pr.id, teams: ["ops"] });
    await alice.as.teams.delete({ org, slug: "ops" });
    expect(await alice.as.pulls.teamReviewers({ prId: pr.id })).toEqual([]);
  });
});
