/**
 * The one path by which a branch or tag of a repository moves (docs/git-http.md "How refs move").
 *
 * Two writers move refs/heads/* and refs/tags/*:
 *   - `git push` (git smart HTTP receive-pack): git itself moves the refs. Its pre-receive hook
 *     (server/http/git/push-hook.ts → services/repos/push-policy.ts `checkPush`) calls
 *     `checkBranchUpdates`; after receive-pack, server/http/git/smart-http.ts calls
 *     `recordBranchUpdates` with the updates that took effect.
 *   - svc's own commits (merge, apply suggestion(s), resolve conflicts, agent approvals, deleting
 *     a merged source branch) call `updateBranch`, which runs the same check, moves the ref by
 *     compare-and-swap together with the caller's database writes, then records the update.
 * So a rule (branch protection, push protection for svc's own commits, webhooks …) is added at
 * one place each: a refusal in `checkBranchUpdates`, a reaction in `recordBranchUpdates`, and it
 * applies to pushes and to svc's commits alike.
 *
 * Not here: svc's bookkeeping refs `refs/pull/<n>/head` (server/git/pull-refs.ts `movePullHead`, moved
 * by pulls/create-pull-request.ts and pulls/after-push.ts). They are not branches: no user moves
 * them, no rule applies to them, and moving one is not a push; `checkBranchUpdates` refuses them.
 * HEAD (the default branch, git/repository.ts `setHead`) is a symbolic ref, not a branch move.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { inTransaction, type Tx } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { casDeleteRef, casUpdateRef } from "@/server/git/update-ref";
import type { RefUpdate } from "@/server/git/push-commands";
import { pushRefProblem } from "@/server/git/refs";
import { branchTips } from "@/server/git/ref-files";
import { listBranches, setHead } from "@/server/git/repository";
import { updatePullsAfterPush } from "@/server/services/pulls/after-push";
import { queueSearchIndexAfterPush } from "@/server/services/search/after-push";
import { queueMaintenanceAfterPush } from "./maintain-repository";
import { queuePushEvents } from "@/server/services/webhooks/push-events";
import { peelToCommits, reachableBlobs, scanDiffLines } from "@/server/git/added-lines";
import { objectInfo } from "@/server/git/objects";
import { isLiveToken } from "@/server/services/tokens/verify-token";
import { isZeroSha, ZERO_SHA } from "@/lib/sha";
import { ALLOW_SECRET_OPTION, describeFindings, MAX_SCAN_BYTES, SecretDetector } from "./secret-scan";
import { protectionProblems, type UpdateVia } from "@/server/services/branch-protection/check-updates";

/**
 * A ref change svc makes itself: `reason` is the reflog message (git-update-ref(1) `-m`);
 * `pullMerge` marks the merge of a pull request into its target branch, which branch protection's
 * `requirePullRequest` lets through (the merge checked the pull request's requirements).
 */
export interface BranchUpdate extends RefUpdate {
  reason: string;
  pullMerge?: UpdateVia["pullMerge"];
}

/** The repository whose refs move: its id and bare repository (absolute path). */
export interface BranchRepo {
  id: string;
  gitDir: string;
}

const shortName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, "");

/** Why `checkBranchUpdates` refused: the ref names or branch protection. */
export interface BranchProblems {
  /** Ref name refusals, each `refusing "<ref>": <rule>` (server/git/refs.ts `pushRefProblem`). */
  names: string[];
  /** Branch protection refusals, each `<branch> is protected: <rule>` (branch-protection/check-updates.ts). */
  protection: string[];
}

/**
 * The rules a ref update must pass, for `git push` (pre-receive, before git moves any ref) and for
 * svc's own writers (`updateBranch`, before the transaction) alike. Returns the refusals, each
 * naming the ref and the rule (both lists empty: all may proceed). `actor` is who moves the
 * refs (null when unknown); `repo.id` is null when the caller does not know the row (checkPush
 * called directly, as tests do: then only names are checked); `repo.env` lets git read a push's
 * quarantined objects; `via` says what kind of move it is (a pull request merge). The rules:
 *   1. ref names (server/git/refs.ts `pushRefProblem`: valid branches and tags only, never
 *      `refs/pull/*`); when one is refused, nothing else is checked;
 *   2. branch protection (services/branch-protection/check-updates.ts `protectionProblems`:
 *      deletion, force-push, pull request required, push allowlist; admin bypass recorded).
 * Secret scanning stays in push-policy.ts for `git push` only: it reads the pushed objects from
 * receive-pack's quarantine.
 */
export async function checkBranchUpdates(
  db: Db,
  actor: Actor | null,
  repo: { id: string | null; gitDir: string; env?: Record<string, string> },
  updates: RefUpdate[],
  via: UpdateVia = {},
): Promise<BranchProblems> {
  const names = updates
    .map((u) => pushRefProblem(u.ref, isZeroSha(u.newSha)))
    .filter((p): p is string => p !== null)
    .map((p) => `refusing ${p}`);
  if (names.length > 0 || !repo.id) return { names, protection: [] };
  return { names, protection: await protectionProblems(db, actor, { id: repo.id, gitDir: repo.gitDir, env: repo.env }, updates, via) };
}

/**
 * Push protection for a commit svc writes itself (apply suggestion(s), agent approvals, resolve
 * conflicts, merges): the lines `u.newSha` adds relative to `u.oldSha` (the old tip; when the
 * ref is created, relative to the new commit's first parent), whatever commits lie between —
 * so the lines a conflict resolution writes into a merge are scanned too. A finding in a file
 * whose new content (blob) another ref reaches already (`reachableBlobs`: pushed earlier, so
 * scanned then or allowed with `git push -o allow-secret`) does not count: merging a pull
 * request is not refused for what its pushed commits carry. That lookup walks the other refs'
 * history only when there are findings. Bounded like the push: MAX_SCAN_BYTES of patch, at most
 * MAX_TOKEN_LOOKUPS token lookups; what is beyond is not scanned (logged). Returns the refusal
 * (the push's heading and `path:line` list) or null. Errors: plain Error when git fails.
 */
async function secretsProblem(db: Db, repo: BranchRepo, u: RefUpdate): Promise<string | null> {
  if (isZeroSha(u.newSha)) return null;
  const [tip] = await peelToCommits(repo.gitDir, [u.newSha]);
  if (!tip) return null;
  const [from] = isZeroSha(u.oldSha) ? [null] : await peelToCommits(repo.gitDir, [u.oldSha]);
  const detector = new SecretDetector((token) => isLiveToken(db, token));
  const blobOf = new Map<string, string>();
  const scan = await scanDiffLines(repo.gitDir, from ?? null, tip, { maxBytes: MAX_SCAN_BYTES }, (l) => {
    if (l.blob) blobOf.set(l.path, l.blob);
    detector.feed(l);
  });
  if (scan.truncated || detector.skippedCandidates > 0)
    console.warn(`updateBranch: secret scanning of ${u.ref} ${tip} stopped after ${scan.bytes} bytes / the token lookup limit`);
  let findings = await detector.findings();
  if (findings.length === 0) return null;
  const base = from ?? (await objectInfo(repo.gitDir, [`${tip}^1`]))[0]?.id ?? null;
  const known = await reachableBlobs(repo.gitDir, new Set(findings.map((f) => blobOf.get(f.path) ?? "")), base);
  findings = findings.filter((f) => !known.has(blobOf.get(f.path) ?? ""));
  if (findings.length === 0) return null;
  const { heading, listed } = describeFindings(findings, "this commit");
  return [
    heading,
    ...listed,
    `remove them and revoke any exposed token; to commit them anyway, push the commit yourself with: git push -o ${ALLOW_SECRET_OPTION}`,
  ].join("\n");
}

/** Options of `updateBranch`. */
export interface UpdateBranchOptions {
  /**
   * The caller's database writes that belong to this ref move (claims, events, restacks …): run
   * in the transaction before the compare-and-swap, so they are committed with the move or not
   * at all. Throwing rolls them back and the ref does not move. Without it no transaction opens.
   */
  writes?: (tx: Tx) => Promise<void>;
  /** The CONFLICT message when the ref is no longer at `oldSha` (default: names the branch). */
  conflictMessage?: string;
  /**
   * Record the move as a push (`recordBranchUpdates`) once committed; default true. False only
   * where the caller's transaction is the whole bookkeeping: deleting a merged pull request's
   * source branch (its pull requests are marked sourceDeleted there). A move of a branch other
   * pull requests target must be recorded, or they never learn of it (mergeability, auto-merge).
   */
  record?: boolean;
}

/** Moves `u.ref` by compare-and-swap (create when oldSha is zeros, delete when newSha is zeros). False when it was not at oldSha. */
function casMove(gitDir: string, u: BranchUpdate): Promise<boolean> {
  if (isZeroSha(u.newSha)) return casDeleteRef(gitDir, u.ref, u.oldSha);
  return casUpdateRef(gitDir, u.ref, u.newSha, isZeroSha(u.oldSha) ? null : u.oldSha, u.reason);
}

/** Puts `u.ref` back to oldSha, only while it is still at newSha (a later push is never undone). */
async function undoMove(gitDir: string, u: BranchUpdate): Promise<void> {
  const back: BranchUpdate = { ref: u.ref, oldSha: u.newSha, newSha: u.oldSha, reason: `undo: ${u.reason}` };
  try {
    if (!(await casMove(gitDir, back))) console.error(`updateBranch: ${u.ref} moved again before its move could be undone; left as it is`);
  } catch (e) {
    console.error(`updateBranch: undoing the move of ${u.ref} failed`, e);
  }
}

/**
 * Moves branch or tag `update.ref` of `repo` from `oldSha` to `newSha` for `actor` (svc's own
 * commit; the commit object must exist already). Steps, in this order:
 *   1. `checkBranchUpdates`: a refusal is FORBIDDEN with its line ("refusing \"<ref>\": …" or
 *      "main is protected: changes must go through a pull request"), nothing changed; then
 *      push protection (`secretsProblem`): a new commit that adds a live svc token or a private
 *      key block is FORBIDDEN with the push's "push protection: … adds secrets:" list, nothing
 *      changed. svc's writers have no override (the push's `-o allow-secret`): a secret meant to
 *      be committed is pushed with git, where the pusher sees and confirms what is allowed;
 *   2. one transaction (when `options.writes` is given): the caller's writes, then, last, the
 *      compare-and-swap of the ref (git-update-ref(1) with the old value), so the transaction
 *      only commits with the ref moved. A ref no longer at `oldSha` is CONFLICT
 *      (`options.conflictMessage`) and the writes roll back. If the transaction fails after the
 *      ref moved (a write or the commit fails), the ref is moved back by compare-and-swap — only
 *      while it is still at `newSha`, so a later push is never undone — and the error is rethrown;
 *   3. `recordBranchUpdates` (unless `options.record` is false), after the commit: what a push
 *      triggers happens only for a move that stays.
 * Errors: FORBIDDEN (a rule or push protection refused it), CONFLICT (the ref moved meanwhile), whatever `writes`
 * throws; database errors of step 3 propagate (the ref has moved by then).
 */
export async function updateBranch(
  db: Db,
  actor: Actor,
  repo: BranchRepo,
  update: BranchUpdate,
  options: UpdateBranchOptions = {},
): Promise<void> {
  const { names, protection } = await checkBranchUpdates(db, actor, repo, [update], { pullMerge: update.pullMerge });
  if (names.length || protection.length) throw new AppError("FORBIDDEN", [...names, ...protection].join("; "));
  const secrets = await secretsProblem(db, repo, update);
  if (secrets) throw new AppError("FORBIDDEN", secrets);
  const lost = () =>
    new AppError(
      "CONFLICT",
      options.conflictMessage ?? `the branch "${shortName(update.ref)}" moved meanwhile; nothing was changed: reload and try again`,
    );
  const writes = options.writes;
  if (writes) {
    let moved = false;
    try {
      await inTransaction(db, async (tx) => {
        await writes(tx);
        moved = await casMove(repo.gitDir, update);
        if (!moved) throw lost();
      });
    } catch (e) {
      if (moved) await undoMove(repo.gitDir, update);
      throw e;
    }
  } else if (!(await casMove(repo.gitDir, update))) {
    throw lost();
  }
  if (options.record !== false) await recordBranchUpdates(db, actor, repo, [update]);
}

/**
 * Records ref updates of `repo` that took effect — after receive-pack (git moved the refs) or
 * after `updateBranch`'s commit. `updates` may be empty (a push whose commands are unknown);
 * zeros of any length count as created/deleted. `actor` is the pusher (pull request timeline
 * events name them; null when unknown). In order:
 *   1. the repository row's `pushedAt`/`updatedAt` (database errors propagate);
 *   2. pull requests (services/pulls/after-push.ts `updatePullsAfterPush`): sources that moved get
 *      headSha, `refs/pull/N/head`, a "pushed"/"force_pushed" event and live notices; deleted
 *      sources are recorded; each moved branch with open pull requests into or out of it gets
 *      ONE `pulls.refreshAfterPush` job (whatever their number): mergeability, and heads now in
 *      their target marked merged outside svc (failures are logged);
 *   3. the default branch fix-up: a repository whose default branch does not exist (typically
 *      the first push of `master` into a repository created with `main`) gets HEAD and
 *      `defaultBranch` moved to a branch that does (failures are logged);
 *   4. the semantic search index jobs of the moved branches (services/search/after-push.ts;
 *      failures are logged);
 *   5. the push is counted for repository maintenance: every SVC_GIT_GC_PUSHES-th queues a
 *      `git gc --auto` job (maintain-repository.ts; failures are logged);
 *   6. webhooks (services/webhooks/push-events.ts `queuePushEvents`): when the repository has an
 *      active hook, one job that emits `push` for every update and `create`/`delete` for created
 *      and deleted refs; nothing is built or sent here (failures are logged).
 * This is THE place for every later "a branch moved" reaction (webhooks …); not the HTTP layer.
 */
export async function recordBranchUpdates(db: Db, actor: Actor | null, repo: BranchRepo, updates: RefUpdate[]): Promise<void> {
  const moved = updates.map((u) => ({
    ref: u.ref,
    oldSha: isZeroSha(u.oldSha) ? ZERO_SHA : u.oldSha,
    newSha: isZeroSha(u.newSha) ? ZERO_SHA : u.newSha,
  }));
  const now = new Date();
  const row = await db.repository.update({
    where: { id: repo.id },
    data: { pushedAt: now, updatedAt: now },
    select: { defaultBranch: true },
  });
  await updatePullsAfterPush(db, repo.id, repo.gitDir, moved, actor?.user.id ?? null).catch((e) =>
    console.error("recordBranchUpdates: pull request update failed", e),
  );
  const defaultBranch = await fixDefaultBranch(db, repo, row.defaultBranch, moved);
  await queueSearchIndexAfterPush(db, repo.id, defaultBranch, moved);
  await queueMaintenanceAfterPush(repo.id);
  await queuePushEvents(db, actor?.user ?? null, repo, moved).catch((e) => console.error("recordBranchUpdates: webhook events failed", e));
}

/** Moves HEAD and defaultBranch to a branch that exists when the default one does not; → the default branch after. */
async function fixDefaultBranch(db: Db, repo: BranchRepo, current: string, updates: RefUpdate[]): Promise<string> {
  try {
    // the usual case, the default branch exists, is read from the ref files: no git process, and
    // no listing of every branch (a repository with thousands of pull request branches)
    if ((await branchTips(repo.gitDir, [current])).has(current)) return current;
    const branches = await listBranches(repo.gitDir);
    if (branches.length === 0 || branches.some((b) => b.name === current)) return current;
    const pushed = updates
      .filter((u) => u.ref.startsWith("refs/heads/") && u.newSha !== ZERO_SHA)
      .map((u) => u.ref.slice("refs/heads/".length));
    const pick =
      pushed.find((b) => b === "main") ??
      pushed.find((b) => b === "master") ??
      pushed[0] ??
      branches.find((b) => b.name === "main")?.name ??
      branches.find((b) => b.name === "master")?.name ??
      branches[0].name;
    await setHead(repo.gitDir, pick);
    await db.repository.update({ where: { id: repo.id }, data: { defaultBranch: pick } });
    return pick;
  } catch (e) {
    console.error("recordBranchUpdates: default branch fix-up failed", e);
    return current;
  }
}
