/**
 * Team review requests (docs/pulls.md "Review", docs/orgs.md "Teams"): a review can be requested
 * from a team of the organization owning the repository — by hand (pulls.requestReview `teams`)
 * or as a CODEOWNERS `@org/team` owner. A team request is satisfied once any member of the team
 * (not the author) has reviewed; it stays listed, marked so (GitHub replaces it by the member's
 * review). Events review_requested / review_request_removed {team {id, org, slug, name}}.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction, type Tx } from "@/server/db/transaction";
import { loadPull } from "./locate";
import { recordPullEvent } from "./events";
import type { ReviewRepo } from "./review-context";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";
import { atLeast } from "@/server/services/repos/access";
import { permissionIn, usersPermissions } from "@/server/services/repos/user-permissions";

/** A team as review requests name it. */
export interface TeamRef {
  id: string;
  org: string;
  slug: string;
  name: string;
}

/** A team review request as pulls.teamReviewers answers it. */
export interface TeamReviewerView {
  team: TeamRef;
  /** Members of the team (not the author) who reviewed, by username. */
  reviewedBy: string[];
  /** True once any member reviewed. */
  satisfied: boolean;
}

const teamRefSelect = { id: true, slug: true, name: true, org: { select: { username: true } } } as const;
const toRef = (t: { id: string; slug: string; name: string; org: { username: string } }): TeamRef => ({
  id: t.id,
  org: t.org.username,
  slug: t.slug,
  name: t.name,
});

/**
 * The teams named by `slugs` (case-insensitive; "org/slug" or "slug") of organization `orgId`.
 * Errors: NOT_FOUND naming the first unknown one (a team of another organization is unknown here).
 */
export async function findRepoTeams(db: Db, orgId: string, slugs: string[]): Promise<TeamRef[]> {
  const wanted = [...new Set(slugs.map((s) => s.toLowerCase().split("/").pop()!))];
  if (wanted.length === 0) return [];
  const rows = await db.team.findMany({ where: { orgId, slug: { in: wanted } }, select: teamRefSelect });
  const found = new Set(rows.map((r) => r.slug));
  const missing = wanted.find((s) => !found.has(s));
  if (missing) throw new AppError("NOT_FOUND", `team ${missing} not found in the organization owning this repository`);
  return rows.map(toRef);
}

/**
 * The teams among CODEOWNERS owners `owners` (lower-cased; team owners are "org/slug") that are
 * teams of organization `orgId` (a team of another organization, or an unknown one, is dropped,
 * as GitHub ignores owners without access). One query; none without team owners.
 */
export async function findOwnerTeams(db: Db, orgId: string, owners: Set<string>): Promise<TeamRef[]> {
  const named = [...owners].filter((o) => o.includes("/"));
  if (named.length === 0) return [];
  const rows = await db.team.findMany({ where: { orgId, slug: { in: named.map((o) => o.split("/")[1]) } }, select: teamRefSelect });
  return rows.map(toRef).filter((t) => owners.has(`${t.org.toLowerCase()}/${t.slug}`));
}

/**
 * Writes team review requests for `teams` on pull request `prId` inside transaction `tx`, each with
 * its timeline event and webhook event; teams already requested are skipped. Returns the teams
 * requested. `actorId`: who asked (null: svc, for code owners). Unless `notify` is false (the
 * pull request is being opened: its "opened" notification already tells requested teams), the
 * members are notified (review_requested, docs/notifications.md) after commit.
 */
export async function writeTeamRequests(
  tx: Tx | Db,
  repoId: string,
  prId: string,
  teams: TeamRef[],
  actor: { id: string; username?: string } | null,
  codeOwner = false,
  notify = true,
): Promise<TeamRef[]> {
  const done: TeamRef[] = [];
  for (const team of teams) {
    const key = { pullRequestId: prId, teamId: team.id };
    if (await tx.pullRequestTeamReviewRequest.findUnique({ where: { pullRequestId_teamId: key }, select: { teamId: true } })) continue;
    await tx.pullRequestTeamReviewRequest.create({ data: key });
    await recordPullEvent(tx, prId, "review_requested", { team, ...(codeOwner ? { codeOwner: true } : {}) }, actor?.id ?? null);
    await emitPullRequestEvent(tx, repoId, "review_requested", actor ? { id: actor.id } : null, prId, {
      requested_team: { id: team.id, name: team.name, slug: team.slug },
    });
    done.push(team);
  }
  if (notify && done.length)
    await enqueuePullNotification(tx, repoId, prId, actor?.id ?? null, "review_requested", { targetTeamIds: done.map((t) => t.id) });
  return done;
}

/**
 * pulls.requestReview `teams`: requests reviews from teams (slugs) of the organization owning
 * the repository. Errors: BAD_REQUEST when the repository is not an organization's; NOT_FOUND
 * (team); CONFLICT when every named team is already requested; PRECONDITION_FAILED (not open).
 */
export async function requestTeamReviews(db: Db, actor: Actor, repo: ReviewRepo, prId: string, slugs: string[]): Promise<void> {
  const pr = await loadPull(db, repo, prId);
  if (pr.state !== "open")
    throw new AppError(
      "PRECONDITION_FAILED",
      `pull request #${pr.number} is ${pr.state}: reviews can only be requested on an open pull request`,
    );
  const owner = await db.user.findUnique({ where: { id: repo.ownerId }, select: { isOrg: true } });
  if (!owner?.isOrg) throw new AppError("BAD_REQUEST", `${repo.owner}/${repo.name} is not an organization's repository: it has no teams`);
  const teams = await findRepoTeams(db, repo.ownerId, slugs);
  const done = await inTransaction(db, (tx) => writeTeamRequests(tx, repo.id, pr.id, teams, actor.user));
  if (done.length === 0)
    throw new AppError("CONFLICT", `a review from ${teams.map((t) => `@${t.org}/${t.slug}`).join(", ")} is already requested`);
}

/** pulls.removeReviewRequest `teams`: removes the requests of teams (slugs); absent ones change nothing. PRECONDITION_FAILED (not open). */
export async function removeTeamReviews(db: Db, actor: Actor, repo: ReviewRepo, prId: string, slugs: string[]): Promise<void> {
  const pr = await loadPull(db, repo, prId);
  if (pr.state !== "open") throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}`);
  const wanted = slugs.map((s) => s.toLowerCase().split("/").pop()!);
  await inTransaction(db, async (tx) => {
    const rows = await tx.pullRequestTeamReviewRequest.findMany({
      where: { pullRequestId: pr.id, team: { slug: { in: wanted } } },
      select: { team: { select: teamRefSelect } },
    });
    for (const { team } of rows) {
      await tx.pullRequestTeamReviewRequest.delete({ where: { pullRequestId_teamId: { pullRequestId: pr.id, teamId: team.id } } });
      await recordPullEvent(tx, pr.id, "review_request_removed", { team: toRef(team) }, actor.user.id);
      await emitPullRequestEvent(tx, repo.id, "review_request_removed", actor.user, pr.id, {
        requested_team: { id: team.id, name: team.name, slug: team.slug },
      });
    }
  });
}

/**
 * pulls.teamReviewers {prId} → the team review requests, oldest first, each with the members who
 * reviewed (any state, not the author) and `satisfied`. Only members who can read the repository
 * now count (repos/user-permissions.ts `usersPermissions`, the rule that decides who may be
 * requested as a reviewer): a member without two-factor authentication in an organization that
 * requires it is someone without access, so their review — even one given before the requirement
 * was switched on — does not answer the team's request (as it does not count as an approval,
 * branch-protection/pull-requirements.ts); it counts again once they enable 2FA. At most four
 * statements whatever the team sizes: requests, the reviewers' ids, their memberships of the
 * requested teams, the members' permissions.
 */
export async function listTeamReviewers(db: Db, repo: Pick<ReviewRepo, "id">, prId: string): Promise<TeamReviewerView[]> {
  const pr = await loadPull(db, repo, prId);
  const requests = await db.pullRequestTeamReviewRequest.findMany({
    where: { pullRequestId: pr.id },
    orderBy: { createdAt: "asc" },
    select: { team: { select: teamRefSelect } },
  });
  if (requests.length === 0) return [];
  const reviews = await db.pullRequestReview.findMany({
    where: { pullRequestId: pr.id, authorId: { not: null } },
    distinct: ["authorId"],
    select: { authorId: true },
  });
  const reviewerIds = reviews.map((r) => r.authorId!).filter((id) => id !== pr.authorId);
  const members = reviewerIds.length
    ? await db.teamMember.findMany({
        where: { teamId: { in: requests.map((r) => r.team.id) }, userId: { in: reviewerIds } },
        select: { teamId: true, userId: true, user: { select: { username: true } } },
      })
    : [];
  // the one access rule for other people (an organization's two-factor requirement included)
  const perms = await usersPermissions(
    db,
    [repo.id],
    members.map((m) => m.userId),
  );
  const canReview = (userId: string) => atLeast(permissionIn(perms, repo.id, userId), "read");
  return requests.map(({ team }) => {
    const reviewedBy = members
      .filter((m) => m.teamId === team.id && canReview(m.userId))
      .map((m) => m.user.username)
      .sort();
    return { team: toRef(team), reviewedBy, satisfied: reviewedBy.length > 0 };
  });
}
