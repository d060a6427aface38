/**
 * Code owners requested as reviewers (docs/pulls.md "Merge requirements", Code owners): the
 * owners (CODEOWNERS at the target tip) of the paths the head changes, who exist and can read the
 * repository (the same rule as everyone's access, two-factor requirement included), but not the author; `@org/team` owners that are teams of the organization owning the
 * repository become team review requests (services/pulls/team-reviewers.ts).
 *   - When a pull request is opened: computed before the creating transaction (git work outside
 *     it); the caller writes the requests in it.
 *   - When a push moves its head (services/pulls/after-push.ts): the owners of files newly owned
 *     by the change — owners of the paths changed after the push who owned none of the paths
 *     changed before it — are added, as GitHub does, unless already requested or they reviewed.
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { branchTips } from "@/server/git/ref-files";
import { atLeast } from "@/server/services/repos/access";
import { permissionIn, usersPermissions } from "@/server/services/repos/user-permissions";
import { recordPullEvent } from "@/server/services/pulls/events";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { userPayload } from "@/server/services/webhooks/payloads";
import { findOwnerTeams, writeTeamRequests, type TeamRef } from "@/server/services/pulls/team-reviewers";
import { isTeamOwner, ownersOf } from "./codeowners";
import { changedPathsOf, codeOwnersOfChange, readCodeOwnersAt } from "./pull-requirements";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

/** Most code owners requested at once. */
const MAX_OWNER_REQUESTS = 15;
/** Most owners whose access is checked (the first by username; readers among them are requested). */
const MAX_OWNER_CANDIDATES = 200;

/**
 * The users and teams to request: users [{id, username, name}] (at most MAX_OWNER_REQUESTS, by
 * username) and teams (the `@org/team` owners that are teams of the repository's organization);
 * both empty when there is no CODEOWNERS file, nothing is owned, or git cannot tell.
 * Errors: database errors.
 */
export async function codeOwnerReviewers(
  db: Db,
  repo: { id: string; ownerId: string; isPrivate: boolean; gitDir: string },
  targetTip: string,
  headSha: string,
  authorId: string,
): Promise<{ users: { id: string; username: string; name: string | null }[]; teams: TeamRef[] }> {
  const owned = await codeOwnersOfChange(repo.gitDir, targetTip, headSha).catch(() => null);
  if (!owned) return { users: [], teams: [] };
  const names = new Set(owned.paths.flatMap((p) => ownersOf(owned.rules, p)));
  const [users, teams] = await Promise.all([readableUsers(db, repo, names, [authorId]), findOwnerTeams(db, repo.ownerId, names)]);
  return { users, teams };
}

/**
 * The users named `names` (lower-cased) who can read `repo` (repos/user-permissions.ts: owners
 * without two-factor authentication in an organization requiring it cannot), but none of
 * `excluded` (ids) nor bots: at most MAX_OWNER_REQUESTS, by username. Two statements.
 */
async function readableUsers(
  db: Db,
  repo: { id: string; ownerId: string; isPrivate: boolean },
  names: Set<string>,
  excluded: string[],
): Promise<{ id: string; username: string; name: string | null }[]> {
  const people = [...names].filter((n) => !isTeamOwner(n));
  if (people.length === 0) return [];
  const users = await db.user.findMany({
    where: { usernameLower: { in: people }, id: { notIn: excluded }, isBot: false, isOrg: false },
    select: { id: true, username: true, name: true },
    orderBy: { usernameLower: "asc" },
    take: MAX_OWNER_CANDIDATES,
  });
  // the one access rule for other people (an organization's two-factor requirement included)
  const perms = await usersPermissions(
    db,
    [repo.id],
    users.map((u) => u.id),
  );
  return users.filter((u) => atLeast(permissionIn(perms, repo.id, u.id), "read")).slice(0, MAX_OWNER_REQUESTS);
}

/**
 * After a push moved open pull request `pr`'s head from `before` to `after` (target repository
 * `gitDir`), requests reviews from the code owners of newly owned files (module comment): one
 * transaction writing each request with its timeline event `review_requested` {reviewer,
 * codeOwner: true} and the `pull_request` "review_requested" webhook event, by `actorId` (the
 * pusher), and the team requests of newly owning teams not requested yet. Nothing when the target
 * branch has no CODEOWNERS file. Returns the users requested.
 * Errors: database errors (the caller logs them); git errors count as "nothing to request".
 */
export async function requestCodeOwnersAfterPush(
  db: Db,
  gitDir: string,
  pr: { id: string; repoId: string; targetBranch: string },
  before: string,
  after: string,
  actorId: string | null,
): Promise<{ id: string; username: string; name: string | null }[]> {
  const tip = (await branchTips(gitDir, [pr.targetBranch])).get(pr.targetBranch);
  if (!tip) return [];
  const rules = await readCodeOwnersAt(gitDir, tip);
  if (!rules) return [];
  const [was, now] = await Promise.all([changedPathsOf(gitDir, tip, before), changedPathsOf(gitDir, tip, after)]);
  if (!now) return [];
  const owners = (paths: string[]) => new Set(paths.flatMap((p) => ownersOf(rules, p)));
  const previous = owners(was ?? []);
  const added = new Set([...owners(now)].filter((o) => !previous.has(o)));
  if (added.size === 0) return [];
  const row = await db.pullRequest.findUnique({
    where: { id: pr.id },
    select: {
      authorId: true,
      state: true,
      repo: { select: { id: true, ownerId: true, isPrivate: true } },
      reviewRequests: { select: { reviewerId: true } },
      reviews: { select: { authorId: true } },
    },
  });
  if (!row || row.state !== "open") return [];
  const excluded = [
    ...(row.authorId ? [row.authorId] : []),
    ...row.reviewRequests.map((r) => r.reviewerId),
    ...row.reviews.flatMap((r) => (r.authorId ? [r.authorId] : [])),
  ];
  const [users, teams] = await Promise.all([readableUsers(db, row.repo, added, excluded), findOwnerTeams(db, row.repo.ownerId, added)]);
  if (users.length === 0 && teams.length === 0) return [];
  return inTransaction(db, async (tx) => {
    // team requests already there are skipped inside
    await writeTeamRequests(tx, pr.repoId, pr.id, teams, actorId ? { id: actorId } : null, true);
    const requested: typeof users = [];
    for (const user of users) {
      // a request made meanwhile (pulls.requestReviewers, a racing push) is kept as it is
      const key = { pullRequestId: pr.id, reviewerId: user.id };
      if (await tx.pullRequestReviewRequest.findUnique({ where: { pullRequestId_reviewerId: key }, select: { reviewerId: true } }))
        continue;
      await tx.pullRequestReviewRequest.create({ data: key });
      requested.push(user);
      await recordPullEvent(tx, pr.id, "review_requested", { reviewer: user, codeOwner: true }, null);
      await emitPullRequestEvent(tx, pr.repoId, "review_requested", actorId ? { id: actorId } : null, pr.id, {
        requested_reviewer: userPayload(user),
      });
      await enqueuePullNotification(tx, pr.repoId, pr.id, actorId, "review_requested", { targetUserIds: [user.id] });
    }
    return requested;
  });
}
