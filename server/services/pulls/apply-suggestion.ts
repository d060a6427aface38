/**
 * pulls.applySuggestion {commentId} and pulls.applySuggestions {commentIds[]} (docs/pulls.md
 * "Suggestions"): the suggested text replaces exactly the comment's RIGHT-side
 * lines (startLine..endLine, or line) of `path` at the source branch's head, committed by the
 * applier with a `Co-authored-by:` trailer per suggester, as GitHub's "Commit suggestion" /
 * "Commit suggestions" do.
 *
 * Order, so that nothing is committed by a refused call and the database and the branch agree:
 *   1. the comments (one query, with their pull request and both repositories);
 *   2. permission: write on the repository holding the source branch (a fork for cross-repository
 *      pull requests), checked with the effective permission (token scope included);
 *   3. the pull request is open and its source branch exists and is still at `headSha`; every
 *      comment is a published, unapplied RIGHT-side suggestion; batch ranges do not overlap;
 *   4. per comment, its lines at its `commitSha` equal the head's (else outdated);
 *   5. the commit is written (an unreferenced object: harmless if we stop here);
 *   6. services/repos/update-branch.ts `updateBranch`, in one transaction: the comments get
 *      `appliedSha` (guarded on "not applied yet"), their threads are resolved, and, last, the
 *      source branch moves by compare-and-swap from `headSha`; a lost guard or CAS rolls back
 *      and no ref changed (the ref is moved back by CAS if the commit of the transaction fails
 *      after it moved);
 *   7. then updateBranch records it as any push (`recordBranchUpdates`): the pull request's
 *      `headSha`, `refs/pull/N/head` (fetched into the target for forks), the `pushed` event.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Identity } from "@/server/git/commits";
import { commitFileChanges, readFileAt, type FileAt, type FileChange } from "@/server/git/edit-files";
import { readRef } from "@/server/git/pull-refs";
import { repoGitDir } from "@/server/git/paths";
import { looksBinary } from "@/server/git/repository";
import { atLeast, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { updateBranch } from "@/server/services/repos/update-branch";
import { identityOf } from "./merge";
import { applyLineEdits, joinLines, sameLines, splitLines } from "./suggestion-lines";

/** Most suggestions one batch may apply (GitHub has no documented limit; this bounds the work). */
export const MAX_BATCH_SUGGESTIONS = 100;
/** Longest commit message a caller may choose, in characters (as pulls.merge's `message`). */
export const MAX_SUGGESTION_MESSAGE = 65_536;

export interface AppliedSuggestion {
  success: true;
  /** The new commit, now the source branch's tip and the pull request's head. */
  commitSha: string;
  /** The commit's message. */
  message: string;
}

const userSelect = { id: true, username: true, name: true, email: true } as const;
const repoSelect = { id: true, name: true, owner: { select: { username: true } } } as const;

async function loadComments(db: Db, ids: string[]) {
  return db.pullRequestComment.findMany({
    where: { id: { in: ids } },
    include: {
      author: { select: userSelect },
      pullRequest: {
        select: {
          id: true,
          number: true,
          repoId: true,
          sourceRepoId: true,
          sourceBranch: true,
          state: true,
          headSha: true,
          sourceDeleted: true,
          repo: { select: repoSelect },
          sourceRepo: { select: repoSelect },
        },
      },
    },
  });
}
type Comment = Awaited<ReturnType<typeof loadComments>>[number];

/** "comment <id>" for messages naming one comment of a batch. */
const named = (c: Comment, batch: boolean) => (batch ? `comment ${c.id}: ` : "");

/** Lines of a comment's range, 1-based inclusive. */
function rangeOf(c: Comment): { start: number; end: number } {
  const end = c.endLine ?? c.line!;
  return { start: c.startLine ?? end, end };
}

/** Step 3 for one comment (after the pull request checks): a published, unapplied RIGHT-side suggestion with a position. */
function checkSuggestion(c: Comment, batch: boolean, actorId: string): void {
  const who = named(c, batch);
  // a pending comment is seen by its author only: anyone else is told it does not exist
  if (c.deletedAt || (c.isPending && c.authorId !== actorId)) throw new AppError("NOT_FOUND", `${who}comment not found`);
  if (c.isPending)
    throw new AppError("PRECONDITION_FAILED", `${who}the suggestion is part of your review, which is not submitted yet; submit it first`);
  if (c.suggestion === null) throw new AppError("BAD_REQUEST", `${who}the comment has no suggestion`);
  if (c.appliedSha) throw new AppError("PRECONDITION_FAILED", `${who}the suggestion was already applied in ${c.appliedSha}`);
  if (c.side === "LEFT")
    throw new AppError(
      "BAD_REQUEST",
      `${who}a suggestion on the LEFT side (the base's lines) cannot be applied; suggest on the RIGHT side`,
    );
  if (!c.path || c.line === null || c.side !== "RIGHT") throw new AppError("BAD_REQUEST", `${who}the comment is not on lines of a file`);
  const { start, end } = rangeOf(c);
  if (start < 1 || end < start) throw new AppError("BAD_REQUEST", `${who}the comment's line range ${start}-${end} is not valid`);
  if (!c.commitSha)
    throw new AppError("PRECONDITION_FAILED", `${who}the suggestion names no commit, so whether its lines changed cannot be told`);
}

/** Overlapping ranges in one file: BAD_REQUEST listing every overlapping pair. */
function checkOverlaps(comments: Comment[]): void {
  const byPath = new Map<string, Comment[]>();
  for (const c of comments) byPath.set(c.path!, [...(byPath.get(c.path!) ?? []), c]);
  const clashes: string[] = [];
  for (const [file, list] of byPath) {
    const sorted = [...list].sort((a, b) => rangeOf(a).start - rangeOf(b).start);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && rangeOf(sorted[j]).start <= rangeOf(sorted[i]).end; j++) {
        const [a, b] = [rangeOf(sorted[i]), rangeOf(sorted[j])];
        clashes.push(
          `${file}: comment ${sorted[i].id} (lines ${a.start}-${a.end}) and comment ${sorted[j].id} (lines ${b.start}-${b.end})`,
        );
      }
    }
  }
  if (clashes.length) throw new AppError("BAD_REQUEST", `suggestions overlap, so they cannot be applied together: ${clashes.join("; ")}`);
}

/**
 * Step 2: the source branch's repository at write permission, for `actor`; returns its git
 * directory. `doing` names the action in messages (also used by pulls.resolveConflicts).
 * Errors: UNAUTHORIZED (anonymous), FORBIDDEN (no write on the target, or a fork the actor
 * cannot write).
 */
export async function authorizeSource(
  db: Db,
  actor: Actor | null,
  target: AuthorizedRepo,
  pr: { sourceRepoId: string; sourceBranch: string; sourceRepo: { name: string; owner: { username: string } } },
  doing = "applying a suggestion",
): Promise<string> {
  if (!actor) throw new AppError("UNAUTHORIZED", `sign in or send a token: ${doing} commits to the source branch`);
  if (pr.sourceRepoId === target.id) {
    if (!atLeast(target.permission, "write"))
      throw new AppError("FORBIDDEN", `${doing} commits to the source branch: you need write permission on ${target.owner}/${target.name}`);
    return target.gitDir;
  }
  const fork = `${pr.sourceRepo.owner.username}/${pr.sourceRepo.name}`;
  try {
    return (await authorizeRepo(db, actor, { repoId: pr.sourceRepoId }, "write")).gitDir;
  } catch (e) {
    if (e instanceof AppError && (e.code === "NOT_FOUND" || e.code === "FORBIDDEN")) {
      throw new AppError(
        "FORBIDDEN",
        `the source branch "${pr.sourceBranch}" is in the fork ${fork}, which you cannot write to${e.code === "FORBIDDEN" && /scope|token/i.test(e.message) ? ` (${e.message})` : ""}`,
      );
    }
    throw e;
  }
}

/**
 * The commit message: `custom` (the caller's, trimmed) or GitHub's default — "Apply suggestions
 * from code review" for a batch, "Apply suggestion from @<suggester>" for one — plus one
 * Co-authored-by trailer per suggester other than the applier (deduplicated by email; one the
 * custom message already holds is not repeated).
 */
export function suggestionMessage(comments: Pick<Comment, "author">[], applier: Identity, batch: boolean, custom?: string): string {
  const first = comments[0]?.author;
  let message = custom?.trim()
    ? custom.trim()
    : batch
      ? "Apply suggestions from code review"
      : first
        ? `Apply suggestion from @${first.username}`
        : "Apply suggestion from code review";
  const trailers = new Map<string, string>();
  for (const c of comments) {
    if (!c.author) continue;
    const who = identityOf(c.author);
    const key = who.email.toLowerCase();
    const trailer = `Co-authored-by: ${who.name} <${who.email}>`;
    if (key !== applier.email.toLowerCase() && !trailers.has(key) && !message.includes(trailer)) trailers.set(key, trailer);
  }
  if (trailers.size) message = `${message}\n\n${[...trailers.values()].join("\n")}`;
  return message;
}

/**
 * Applies suggestion comment `commentId` of pull request repository `repo` (authorized for read
 * by the repo tier). See the module comment for the order of checks. Errors: NOT_FOUND (no such
 * comment), UNAUTHORIZED (anonymous), FORBIDDEN (no write permission on the source branch's
 * repository, or a fork the applier cannot write), BAD_REQUEST (not a suggestion, LEFT side),
 * PRECONDITION_FAILED (closed or merged, source branch deleted, already applied, pending,
 * outdated), CONFLICT (the source branch moved: nothing was committed; retry). `message`: the
 * commit message chosen by the caller (validated at the edge; the default when absent).
 */
export async function applySuggestion(
  db: Db,
  actor: Actor | null,
  repo: AuthorizedRepo,
  commentId: string,
  message?: string,
): Promise<AppliedSuggestion> {
  const comments = await loadComments(db, [commentId]);
  if (comments.length !== 1 || comments[0].pullRequest.repoId !== repo.id) throw new AppError("NOT_FOUND", "comment not found");
  return apply(db, actor, repo, comments, false, message);
}

/**
 * Applies several suggestions of one pull request as ONE commit ("Apply suggestions from code
 * review", every suggester as co-author). `commentIds`: 1–MAX_BATCH_SUGGESTIONS (duplicates
 * ignored). The target repository is authorized here (read; NOT_FOUND "comment not found" when
 * the caller cannot see it). Errors: as `applySuggestion`, plus BAD_REQUEST when the comments
 * belong to different pull requests or their ranges overlap in a file (listing the pairs); any
 * refusal commits nothing. `message`: as `applySuggestion`'s.
 */
export async function applySuggestions(db: Db, actor: Actor, commentIds: string[], message?: string): Promise<AppliedSuggestion> {
  const ids = [...new Set(commentIds)];
  if (ids.length < 1 || ids.length > MAX_BATCH_SUGGESTIONS)
    throw new AppError("BAD_REQUEST", `commentIds must name 1 to ${MAX_BATCH_SUGGESTIONS} comments`);
  const comments = await loadComments(db, ids);
  if (comments.length !== ids.length)
    throw new AppError("NOT_FOUND", `comment ${ids.find((id) => !comments.some((c) => c.id === id))} not found`);
  // every repository named must be readable before anything else is said about the comments
  const repos = new Map<string, AuthorizedRepo>();
  for (const c of comments) {
    const repoId = c.pullRequest.repoId;
    if (repos.has(repoId)) continue;
    try {
      repos.set(repoId, await authorizeRepo(db, actor, { repoId }, "read"));
    } catch (e) {
      if (e instanceof AppError && e.code === "NOT_FOUND") throw new AppError("NOT_FOUND", `comment ${c.id} not found`);
      throw e;
    }
  }
  if (new Set(comments.map((c) => c.pullRequest.id)).size > 1)
    throw new AppError("BAD_REQUEST", "the suggestions belong to different pull requests; apply each pull request's separately");
  const repo = repos.get(comments[0].pullRequest.repoId)!;
  // keep the caller's order for the message's co-authors
  const ordered = ids.map((id) => comments.find((c) => c.id === id)!);
  return apply(db, actor, repo, ordered, true, message);
}

async function apply(
  db: Db,
  actor: Actor | null,
  repo: AuthorizedRepo,
  comments: Comment[],
  batch: boolean,
  custom?: string,
): Promise<AppliedSuggestion> {
  const pr = comments[0].pullRequest;
  const sourceGitDir = await authorizeSource(db, actor, repo, pr);
  if (pr.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `the pull request is ${pr.state}; suggestions apply to open pull requests only`);
  if (pr.sourceDeleted) throw new AppError("PRECONDITION_FAILED", `the source branch "${pr.sourceBranch}" was deleted`);
  for (const c of comments) checkSuggestion(c, batch, actor!.user.id);
  checkOverlaps(comments);
  const branchRef = `refs/heads/${pr.sourceBranch}`;
  const tip = await readRef(sourceGitDir, branchRef);
  if (!tip) throw new AppError("PRECONDITION_FAILED", `the source branch "${pr.sourceBranch}" was deleted`);
  if (tip !== pr.headSha)
    throw new AppError(
      "CONFLICT",
      `the source branch "${pr.sourceBranch}" moved (it is at ${tip.slice(0, 12)}, the pull request at ${pr.headSha.slice(0, 12)}); reload and try again`,
    );

  // step 4: the head's files, each read once, and every comment's lines at its commit
  const targetGitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  const heads = new Map<string, FileAt>();
  for (const c of comments) {
    const who = named(c, batch);
    let head = heads.get(c.path!);
    if (!head) {
      const found = await readFileAt(targetGitDir, pr.headSha, c.path!);
      if (!found)
        throw new AppError(
          "PRECONDITION_FAILED",
          `${who}the suggestion is outdated: "${c.path}" is no longer a file at the head of the pull request`,
        );
      if (looksBinary(found.content)) throw new AppError("BAD_REQUEST", `${who}"${c.path}" is a binary file`);
      heads.set(c.path!, (head = found));
    }
    const { start, end } = rangeOf(c);
    // a commit missing from the repository (it cannot be after a push) counts as changed
    const then = c.commitSha === pr.headSha ? head : await readFileAt(targetGitDir, c.commitSha!, c.path!).catch(() => null);
    if (!then || !sameLines(splitLines(then.content), splitLines(head.content), start, end)) {
      throw new AppError(
        "PRECONDITION_FAILED",
        `${who}the suggestion is outdated: lines ${start}-${end} of "${c.path}" changed since it was made; suggest again on the current lines`,
      );
    }
  }

  // step 5: the commit
  const changes: FileChange[] = [...heads].map(([file, head]) => {
    const edits = comments.filter((c) => c.path === file).map((c) => ({ ...rangeOf(c), suggestion: c.suggestion! }));
    return { path: file, mode: head.mode, content: joinLines(applyLineEdits(splitLines(head.content), edits)) };
  });
  const applier = identityOf(actor!.user);
  const message = suggestionMessage(comments, applier, batch, custom);
  const commitSha = await commitFileChanges(sourceGitDir, { parent: pr.headSha, changes, message, author: applier, committer: applier });

  // steps 6 and 7: the comments and the branch together, then recorded as any push
  const ids = comments.map((c) => c.id);
  const threads = [...new Set(comments.map((c) => c.replyToId ?? c.id))];
  await updateBranch(
    db,
    actor!,
    { id: pr.sourceRepoId, gitDir: sourceGitDir },
    { ref: branchRef, oldSha: pr.headSha, newSha: commitSha, reason: batch ? "apply suggestions" : "apply suggestion" },
    {
      conflictMessage: `the source branch "${pr.sourceBranch}" moved while applying; nothing was committed: reload and try again`,
      writes: async (tx) => {
        const claimed = await tx.pullRequestComment.updateMany({
          where: { id: { in: ids }, appliedSha: null, deletedAt: null },
          data: { appliedSha: commitSha },
        });
        if (claimed.count !== ids.length)
          throw new AppError(
            "PRECONDITION_FAILED",
            `the suggestion${batch ? "s were" : " was"} applied or deleted meanwhile; nothing was committed`,
          );
        await tx.pullRequestComment.updateMany({
          where: { id: { in: threads }, resolvedAt: null },
          data: { resolvedAt: new Date(), resolvedById: actor!.user.id },
        });
      },
    },
  );
  return { success: true, commitSha, message };
}
