/**
 * Fixtures shared by the router-wide access harnesses (test/integration/access-harness.test.ts and
 * access-harness-orgs.test.ts): entities that procedures locate their repository through, the
 * "poison" input that stops a call let through the gate at validation, and the rules services add
 * on top of a procedure's tier.
 */
import { getDb } from "@/server/db";

/** A permission rank, as server/services/repos/access.ts ranks them. */
export const RANK = { none: 0, read: 1, write: 2, admin: 3 } as const;
export type Perm = keyof typeof RANK;
/** Fixture ids of one repository, named as procedure inputs name them. */
export type Fixture = Record<string, unknown>;

/**
 * A pull request row (no git behind it: the gate never reaches git), a stack and an inline pull
 * request comment in `repoId`, for the procedures located through prId, stackId and (pulls.*)
 * commentId. `authorId` authors the pull request and the comment.
 */
export async function pullEntities(
  repoId: string,
  authorId: string,
  tag = "",
): Promise<{ prId: string; stackId: string; pullCommentId: string; reviewId: string }> {
  const db = await getDb();
  const counter = await db.repository.update({
    where: { id: repoId },
    data: { nextIssueNumber: { increment: 1 } },
    select: { nextIssueNumber: true },
  });
  const pr = await db.pullRequest.create({
    data: {
      repoId,
      sourceRepoId: repoId,
      number: counter.nextIssueNumber - 1,
      title: "fixture",
      sourceBranch: `topic${tag}`,
      targetBranch: "main",
      headSha: "a".repeat(40),
      baseSha: "b".repeat(40),
      authorId,
    },
  });
  const stack = await db.stack.create({
    data: {
      repoId,
      name: `stack${tag}`,
      nameLower: `stack${tag}`,
      baseBranch: "main",
      branches: { create: [{ repoId, branchName: `topic${tag}`, position: 0 }] },
    },
  });
  const review = await db.pullRequestReview.create({
    data: { pullRequestId: pr.id, authorId, state: "approved", commitSha: "a".repeat(40) },
  });
  return { prId: pr.id, stackId: stack.id, pullCommentId: await pullComment(pr.id, authorId), reviewId: review.id };
}

/** An inline comment on the fixture pull request (its commit is the fixture's head, so no git runs). */
export async function pullComment(prId: string, authorId: string): Promise<string> {
  const db = await getDb();
  const c = await db.pullRequestComment.create({
    data: { pullRequestId: prId, authorId, body: "fixture", path: "a.txt", line: 1, side: "RIGHT", commitSha: "a".repeat(40) },
  });
  return c.id;
}

/** The fixture as `path` reads it: pull request procedures' `commentId` names a pull request comment. */
export function forPath(f: Fixture, path: string): Fixture {
  return path.startsWith("pulls.") ? { ...f, commentId: f.pullCommentId } : f;
}

/**
 * Wrong-typed values for every field but the locators: a call the gate lets through stops at
 * input validation (BAD_REQUEST) instead of changing anything.
 */
export const POISON: Record<string, unknown> = {
  strategy: 5,
  deleteBranch: "x",
  number: "x",
  title: 5,
  body: 5,
  color: 5,
  status: 5,
  priority: 5,
  state: 5,
  description: 5,
  isPrivate: "x",
  username: 5,
  role: 5,
  labels: 5,
  filters: "x",
  limit: "x",
  offset: "x",
  ref: 5,
  path: 5,
  type: 5,
  reason: 5,
  days: "x",
  estimate: "x",
  dueDate: 5,
  parentNumber: "x",
  sourceNumber: "x",
  targetNumber: "x",
  defaultBranch: 5,
  label: 5,
  labelName: 5,
  assigneeId: 5,
  project: 5,
  cycle: "x",
  sort: 5,
  sessionId: 5,
  password: 5,
  position: "x",
  beforeNumber: "x",
  afterNumber: "x",
  startsAt: 5,
  endsAt: 5,
  templateName: 5,
  comment: 5,
  email: 5,
  currentPassword: 5,
  newPassword: 5,
  projectId: 5,
  cycleId: 5,
  sourceBranch: 5,
  targetBranch: 5,
  headSha: 5,
  baseSha: 5,
  isDraft: "x",
  sourceRepoId: 5,
  authorId: 5,
  baseBranch: 5,
  branches: 5,
};

/**
 * Rules the services add on top of a procedure's tier, checked with the effective permission:
 * changing another user's comment needs write; a new issue with planning fields (status,
 * assignee, parent, project, cycle, estimate) needs write, since read-only issues go to triage.
 * `input` makes the call reach that check; `authorMay`: the author (here the owner, who wrote
 * the fixture's comment) may act whatever the permission.
 */
export const SERVICE_RULES: Record<string, { level: Perm; input: Record<string, unknown>; authorMay?: true; authorOnly?: true }> = {
  "issues.updateComment": { level: "write", input: { body: "edited" }, authorMay: true },
  "issues.deleteComment": { level: "write", input: {}, authorMay: true },
  // pull requests: the author (the owner wrote the fixture's) or write permission
  "pulls.update": { level: "write", input: { title: "edited", body: undefined, isDraft: undefined }, authorMay: true },
  "pulls.close": { level: "write", input: {}, authorMay: true },
  "pulls.reopen": { level: "write", input: {}, authorMay: true },
  // a viewed mark belongs to a signed-in user: anonymous callers of a public repository are refused
  "pulls.setFileViewed": { level: "read", input: { path: "a.txt", viewed: true, blobSha: undefined } },
  // applying a suggestion commits to the source branch: write permission there
  "pulls.applySuggestion": { level: "write", input: {} },
  // deleting or restoring a pull request's branch: write permission on the branch's repository
  "pulls.deleteBranch": { level: "write", input: {} },
  "pulls.restoreBranch": { level: "write", input: {} },
  // review part: the comment's author only; the author or write (the thread's author for
  // resolving)
  "pulls.updateComment": { level: "admin", input: { body: "edited" }, authorMay: true, authorOnly: true },
  "pulls.deleteComment": { level: "write", input: {}, authorMay: true },
  "pulls.resolveComment": { level: "write", input: {}, authorMay: true },
  "pulls.unresolveComment": { level: "write", input: {}, authorMay: true },
  // AI review: a re-run is for the author or write permission
  "pulls.triggerAIReview": { level: "write", input: {}, authorMay: true },
  // AI writing helpers: any reader, but signed in (a model call may spend the repository's key)
  "ai.generatePRDescription": { level: "read", input: {} },
  "ai.summarizeForSquash": { level: "read", input: {} },
  "ai.chat": { level: "read", input: {} },
  "issues.create": {
    level: "write",
    input: {
      title: "planned",
      status: "todo",
      estimate: 3,
      body: undefined,
      labels: undefined,
      priority: undefined,
      dueDate: undefined,
      project: undefined,
      cycle: undefined,
      assigneeId: undefined,
      parentNumber: undefined,
    },
  },
};
