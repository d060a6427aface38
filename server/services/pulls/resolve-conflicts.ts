/**
 * pulls.resolveConflicts {prId, files: [{path, content}], expectedHeadSha} → {success, commitSha,
 * message} (extension: GitHub's web conflict editor; docs/pulls.md "Resolving
 * conflicts"). Commits a MERGE of the target branch into the source branch whose conflicted
 * files hold the given contents, so the pull request becomes mergeable.
 *
 * Order, so that a refused call commits nothing:
 *   1. the pull request (of the authorized target repository) and its source repository;
 *   2. permission: write on the repository holding the source branch (a fork for
 *      cross-repository pull requests; authorizeSource, as applying suggestions);
 *   3. open, source branch present and at `expectedHeadSha` (= the pull request's head), else
 *      CONFLICT "moved";
 *   4. the merge of the target's tip into the head (`git merge-tree --write-tree`, in the source
 *      repository: a fork borrows the parent's objects; in an object quarantine, so a refused
 *      resolution leaves no objects) and its conflicted files: every one must be a text conflict
 *      (content or add/add) and be given, with no conflict markers left; no other path may be given;
 *   5. the conflicted tree written for real (the same merge-tree), the resolved tree (it with the
 *      given blobs), the merge commit (parents: head, target tip; author and committer: the user);
 *   6. the source branch moves by compare-and-swap from the head (CONFLICT when it moved) and
 *   7. the move is recorded as any push (headSha, refs/pull/N/head, the "pushed" event): both by
 *      services/repos/update-branch.ts `updateBranch` (no database writes of its own, so no
 *      transaction around the compare-and-swap).
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { SHA_RE } from "@/lib/sha";
import { commitTree, hasCommit } from "@/server/git/commits";
import { MergeError, mergeTree } from "@/server/git/merge";
import { getConflictDetails, type ConflictFile } from "@/server/git/merge-conflicts";
import { writeTreeWithChanges } from "@/server/git/edit-files";
import { readRef } from "@/server/git/pull-refs";
import { branchTips } from "@/server/git/ref-files";
import { hasConflictMarkers } from "@/server/ai/conflicts/rules";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { updateBranch } from "@/server/services/repos/update-branch";
import { authorizeSource } from "./apply-suggestion";
import { identityOf } from "./merge";

/** Files one resolution may carry (the conflicts view shows at most 300). */
export const MAX_RESOLVED_FILES = 300;
/** Bytes of one resolved file at most (1 MiB). */
export const MAX_RESOLVED_BYTES = 1024 * 1024;

export interface ResolveConflictsInput {
  files: Array<{ path: string; content: string }>;
  expectedHeadSha: string;
}

export interface ResolvedConflicts {
  success: true;
  /** The merge commit, now the source branch's tip and the pull request's head. */
  commitSha: string;
  message: string;
}

/** Step 4's checks on the conflicted files against what the caller sent. */
function checkFiles(conflicts: ConflictFile[], given: Map<string, string>): void {
  const conflicted = new Set(conflicts.map((f) => f.path));
  const extra = [...given.keys()].filter((p) => !conflicted.has(p));
  if (extra.length) throw new AppError("BAD_REQUEST", `not conflicted, so not part of a resolution: ${extra.slice(0, 10).join(", ")}`);
  for (const f of conflicts) {
    if (f.isBinary) throw new AppError("PRECONDITION_FAILED", `"${f.path}" is a binary file: resolve this conflict on your machine`);
    if (f.kind !== "content" && f.kind !== "add/add")
      throw new AppError(
        "PRECONDITION_FAILED",
        `"${f.path}" conflicts as ${f.kind === "delete/modify" ? "deleted on one side, changed on the other" : "a rename or a file/folder clash"}: resolve it on your machine`,
      );
  }
  const missing = conflicts.filter((f) => !given.has(f.path)).map((f) => f.path);
  if (missing.length)
    throw new AppError(
      "BAD_REQUEST",
      `every conflicted file must be resolved; missing: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? `, and ${missing.length - 10} more` : ""}`,
    );
  const marked = conflicts.filter((f) => hasConflictMarkers(given.get(f.path)!)).map((f) => f.path);
  if (marked.length)
    throw new AppError(
      "BAD_REQUEST",
      `conflict markers remain in ${marked.join(", ")}: remove every <<<<<<<, ======= and >>>>>>> block first`,
    );
}

/**
 * Resolves the conflicts of pull request `prId` of `repo` (read-authorized by the repo tier;
 * write on the source checked here). See the module comment. Errors: NOT_FOUND (no such pull
 * request), UNAUTHORIZED, FORBIDDEN (no write on the source, a fork the user cannot write),
 * BAD_REQUEST (files missing, extra, duplicated, too large, markers left), PRECONDITION_FAILED
 * (closed or merged, source deleted, no conflicts, a conflict that needs a local merge),
 * CONFLICT (the source branch moved: nothing was committed).
 */
export async function resolveConflicts(
  db: Db,
  actor: Actor | null,
  repo: AuthorizedRepo,
  prId: string,
  input: ResolveConflictsInput,
): Promise<ResolvedConflicts> {
  const pr = await db.pullRequest.findFirst({
    where: { id: prId, repoId: repo.id },
    select: {
      id: true,
      number: true,
      state: true,
      sourceRepoId: true,
      sourceBranch: true,
      targetBranch: true,
      headSha: true,
      sourceDeleted: true,
      sourceRepo: { select: { name: true, owner: { select: { username: true } } } },
    },
  });
  if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
  const sourceGitDir = await authorizeSource(db, actor, repo, pr, "resolving conflicts");
  const user = actor!.user;
  if (pr.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `the pull request is ${pr.state}; conflicts are resolved on open pull requests only`);
  if (pr.sourceDeleted) throw new AppError("PRECONDITION_FAILED", `the source branch "${pr.sourceBranch}" was deleted`);
  if (!SHA_RE.test(input.expectedHeadSha)) throw new AppError("BAD_REQUEST", "expectedHeadSha must be a full commit sha (40 or 64 hex)");

  const given = new Map<string, string>();
  if (input.files.length > MAX_RESOLVED_FILES) throw new AppError("BAD_REQUEST", `at most ${MAX_RESOLVED_FILES} files per resolution`);
  for (const f of input.files) {
    if (given.has(f.path)) throw new AppError("BAD_REQUEST", `"${f.path}" is given twice`);
    if (Buffer.byteLength(f.content, "utf8") > MAX_RESOLVED_BYTES)
      throw new AppError("BAD_REQUEST", `"${f.path}" is larger than ${MAX_RESOLVED_BYTES} bytes`);
    given.set(f.path, f.content);
  }

  const branchRef = `refs/heads/${pr.sourceBranch}`;
  const head = await readRef(sourceGitDir, branchRef);
  if (!head) throw new AppError("PRECONDITION_FAILED", `the source branch "${pr.sourceBranch}" was deleted`);
  if (head !== pr.headSha || head !== input.expectedHeadSha) {
    throw new AppError(
      "CONFLICT",
      `the source branch "${pr.sourceBranch}" moved (it is at ${head.slice(0, 12)}, you resolved ${input.expectedHeadSha.slice(0, 12)}); reload and resolve again`,
    );
  }
  const targetTip = (await branchTips(repo.gitDir, [pr.targetBranch])).get(pr.targetBranch);
  if (!targetTip) throw new AppError("PRECONDITION_FAILED", `the target branch "${pr.targetBranch}" no longer exists`);
  if (!(await hasCommit(sourceGitDir, targetTip))) {
    throw new AppError(
      "PRECONDITION_FAILED",
      `the target branch's commit is not in the source repository; merge ${pr.targetBranch} into ${pr.sourceBranch} on your machine`,
    );
  }

  // step 4: merging the target into the head, as `git merge <target>` on the source branch would
  let details;
  try {
    details = await getConflictDetails(sourceGitDir, head, targetTip);
  } catch (e) {
    if (e instanceof MergeError) throw new AppError("PRECONDITION_FAILED", e.message);
    throw e;
  }
  if (!details.files.length)
    throw new AppError("PRECONDITION_FAILED", `the pull request has no conflicts with ${pr.targetBranch}: nothing to resolve`);
  if (details.filesTruncated) throw new AppError("PRECONDITION_FAILED", "too many files conflict to resolve here: merge on your machine");
  checkFiles(details.files, given);

  // step 5: the conflicted tree, now kept (step 4's was quarantined), the resolved tree and the merge commit
  const conflicted = await mergeTree(sourceGitDir, head, targetTip);
  if (conflicted.tree !== details.tree) throw new Error(`git merge-tree wrote ${conflicted.tree}, the listing saw ${details.tree}`);
  const changes = details.files.map((f) => ({
    path: f.path,
    mode: f.ours?.mode ?? f.theirs?.mode ?? "100644",
    content: Buffer.from(given.get(f.path)!, "utf8"),
  }));
  const tree = await writeTreeWithChanges(sourceGitDir, details.tree, changes);
  const who = identityOf(user);
  const sameRepo = pr.sourceRepoId === repo.id;
  const message = `Merge branch '${pr.targetBranch}'${sameRepo ? "" : ` of ${repo.owner}/${repo.name}`} into ${pr.sourceBranch}\n\nConflicts resolved in svc:\n${details.files.map((f) => `  ${f.path}`).join("\n")}`;
  const commitSha = await commitTree(sourceGitDir, { tree, parents: [head, targetTip], message, author: who, committer: who });

  // steps 6 and 7: compare-and-swap, then recorded as any push
  await updateBranch(
    db,
    actor!,
    { id: pr.sourceRepoId, gitDir: sourceGitDir },
    { ref: branchRef, oldSha: head, newSha: commitSha, reason: "resolve conflicts" },
    { conflictMessage: `the source branch "${pr.sourceBranch}" moved while resolving; nothing was committed: reload and resolve again` },
  );
  return { success: true, commitSha, message };
}
