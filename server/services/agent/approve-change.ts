/**
 * agent.approveChange {changeId}, agent.approveAllChanges {sessionId} and agent.rejectChange
 * {changeId, reason?} (spec "Proposed file change" state table; docs/agent.md).
 *
 * Approving commits on the session branch `agent/<short-id>` — created from the default branch at
 * the first approval, never the default branch itself — as the approving user (author and
 * committer) with a `Co-authored-by: svc agent <agent@users.noreply.svc>` trailer. approveChange
 * makes one commit for one change; approveAllChanges makes ONE commit for every pending change
 * that applies (GitHub's "Commit suggestions" batch), in the order they were proposed. A proposed
 * issue (type "issue", pm mode) makes no commit: it is created through the issue service as the
 * approving user (approve-issue.ts), by approveChange and by approveAllChanges alike.
 *
 * A change applies when its path is still valid and the file is as it was proposed: create — the
 * path is still free; modify/delete — the file's blob is still `baseBlobSha`; in a batch, no earlier
 * change of the batch touched the same path or a folder/file around it. A change that does not
 * apply stays pending, with the reason in `reason`, and is reported `{success: false, path,
 * message}`. Order: checks → the commit object (unreferenced) → services/repos/update-branch.ts
 * `updateBranch`: one transaction claiming the changes (guarded on "still pending") and moving the
 * branch by compare-and-swap from the tip the checks read (created only if still absent); a lost
 * race (CONFLICT) rolls back and is reported as each change's failure, no ref moved. Then the move
 * is recorded as a push (pull requests from the branch follow).
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { commitFileChanges, type FileChange } from "@/server/git/edit-files";
import { updateBranch } from "@/server/services/repos/update-branch";
import { ZERO_SHA } from "@/lib/sha";
import { identityOf } from "@/server/services/pulls/merge";
import { AGENT_IDENTITY, ownChange, ownSession, type OwnSession } from "./model";
import { normaliseAgentPath } from "./paths";
import { pathState, sessionBase } from "./base";
import { approveIssueChange } from "./approve-issue";

type ChangeRow = {
  id: string;
  type: string;
  path: string;
  content: string | null;
  title?: string | null;
  baseBlobSha: string | null;
  status: string;
};

export interface ChangeResult {
  changeId: string;
  success: boolean;
  path: string;
  message: string;
  /** The commit that applied the change (success only). */
  commitSha?: string;
  /** The issue a proposed issue created (success only). */
  issueNumber?: number;
}

export interface ApproveResult {
  success: boolean;
  path: string;
  message: string;
  commitSha?: string;
  /** The session branch the commit is on (success only). */
  branch?: string;
  /** The issue a proposed issue created (success only). */
  issueNumber?: number;
}

export interface ApproveAllResult {
  approved: number;
  failed: number;
  results: ChangeResult[];
  commitSha?: string;
}

const VERB = { create: "Create", modify: "Update", delete: "Delete" } as const;

/** "a/b" clashes with "a" and "a/b/c" (one is inside the other) and with itself. */
function clashes(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Why `change` does not apply on `commit`, or its file change. `earlier`: paths of this batch already taken. */
async function check(
  gitDir: string,
  commit: string,
  branchName: string,
  change: ChangeRow,
  earlier: string[],
): Promise<{ file: FileChange } | { problem: string }> {
  let path: string;
  try {
    path = normaliseAgentPath(change.path);
  } catch (e) {
    return { problem: e instanceof Error ? e.message : "the path is not valid" };
  }
  if (path !== change.path) return { problem: `path "${change.path}" is not in normal form` };
  const clash = earlier.find((p) => clashes(p, path));
  if (clash)
    return {
      problem: `"${path}" clashes with "${clash}", changed earlier in this batch: approve it on its own after this batch, or propose it again`,
    };
  const state = await pathState(gitDir, commit, path, branchName);
  if (state.kind === "blocked") return { problem: state.why };
  if (change.type === "create") {
    if (state.kind === "file")
      return { problem: `"${path}" was created on ${branchName} since the change was proposed: propose a modify instead` };
    return { file: { path, mode: "100644", content: Buffer.from(change.content ?? "", "utf8") } };
  }
  if (state.kind !== "file") return { problem: `"${path}" was deleted from ${branchName} since the change was proposed` };
  if (state.entry.oid !== change.baseBlobSha) {
    return {
      problem: `"${path}" changed on ${branchName} since the change was proposed (it was ${change.baseBlobSha?.slice(0, 12)}, it is ${state.entry.oid.slice(0, 12)} now): propose the change again on the current file`,
    };
  }
  return { file: { path, mode: state.entry.mode, content: change.type === "delete" ? null : Buffer.from(change.content ?? "", "utf8") } };
}

/** The commit message: one change names its path; a batch lists every change. Both name the session. */
export function approvalMessage(session: { id: string; title: string }, changes: { type: string; path: string }[]): string {
  const subject =
    changes.length === 1
      ? `${VERB[changes[0].type as keyof typeof VERB]} ${changes[0].path}`
      : `Apply ${changes.length} changes from agent session`;
  const list =
    changes.length === 1 ? "" : `${changes.map((c) => `* ${VERB[c.type as keyof typeof VERB].toLowerCase()} ${c.path}`).join("\n")}\n\n`;
  return `${subject}\n\n${list}Approved from agent session "${session.title}" (${session.id}).\n\nCo-authored-by: ${AGENT_IDENTITY.name} <${AGENT_IDENTITY.email}>`;
}

/** Applies `changes` (pending, in order) as one commit; see the module comment. Never throws for a change that does not apply. */
async function applyChanges(
  db: Db,
  actor: Actor,
  own: OwnSession,
  all: ChangeRow[],
): Promise<{ results: ChangeResult[]; commitSha?: string }> {
  const { session, repo } = own;
  const changes = all.filter((c) => c.type !== "issue");
  const issues = new Map<string, ChangeResult>();
  for (const c of all.filter((c) => c.type === "issue")) {
    const r = await approveIssueChange(db, actor, repo, { id: c.id, title: c.title ?? null, content: c.content });
    issues.set(c.id, {
      changeId: c.id,
      success: r.success,
      path: c.path,
      message: r.message,
      ...(r.issueNumber ? { issueNumber: r.issueNumber } : {}),
    });
  }
  if (!changes.length) return { results: all.map((c) => issues.get(c.id)!) };
  const base = await sessionBase(repo, session.branch);
  const taken: string[] = [];
  const files: FileChange[] = [];
  const applying: ChangeRow[] = [];
  const failures = new Map<string, string>();
  for (const change of changes) {
    const r = await check(repo.gitDir, base.commit, base.branchName, change, taken);
    if ("problem" in r) {
      failures.set(change.id, r.problem);
      continue;
    }
    taken.push(r.file.path);
    files.push(r.file);
    applying.push(change);
  }

  let commitSha: string | undefined;
  if (applying.length) {
    const approver = identityOf(actor.user);
    const sha = await commitFileChanges(repo.gitDir, {
      parent: base.commit,
      changes: files,
      message: approvalMessage(session, applying),
      author: approver,
      committer: approver,
    });
    const ids = applying.map((c) => c.id);
    try {
      await updateBranch(
        db,
        actor,
        repo,
        { ref: base.ref, oldSha: base.tip ?? ZERO_SHA, newSha: sha, reason: `agent session ${session.id}: approve` },
        {
          conflictMessage: `the branch ${session.branch} moved while approving; nothing was committed: try again`,
          writes: async (tx) => {
            const claimed = await tx.proposedChange.updateMany({
              where: { id: { in: ids }, status: "pending" },
              data: { status: "approved", commitSha: sha, reason: null },
            });
            if (claimed.count !== ids.length)
              throw new AppError("CONFLICT", "a change was approved or rejected meanwhile; nothing was committed: reload and try again");
          },
        },
      );
      commitSha = sha;
    } catch (e) {
      // a lost race (claim or compare-and-swap) is each change's failure, not the call's
      if (!(e instanceof AppError && e.code === "CONFLICT")) throw e;
      for (const c of applying) failures.set(c.id, e.message);
    }
  }

  // a failed change stays pending; its reason says why the last approval failed
  for (const [id, reason] of failures) await db.proposedChange.updateMany({ where: { id, status: "pending" }, data: { reason } });
  const results = all.map((c): ChangeResult => {
    const issue = issues.get(c.id);
    if (issue) return issue;
    const problem = failures.get(c.id);
    if (problem) return { changeId: c.id, success: false, path: c.path, message: problem };
    return { changeId: c.id, success: true, path: c.path, message: `committed ${commitSha!.slice(0, 12)} on ${session.branch}`, commitSha };
  });
  return { results, commitSha };
}

/** Refuses a change that is no longer pending (PRECONDITION_FAILED naming its status). */
function requirePending(change: { status: string; commitSha: string | null }): void {
  if (change.status === "approved")
    throw new AppError("PRECONDITION_FAILED", `the change was already approved in ${change.commitSha?.slice(0, 12)}`);
  if (change.status !== "pending") throw new AppError("PRECONDITION_FAILED", `the change was ${change.status}`);
}

/**
 * approveChange {changeId} → {success, path, message, commitSha?, branch?}. Errors: NOT_FOUND
 * (unknown, or another user's), FORBIDDEN (no write permission or repo:write), PRECONDITION_FAILED
 * (not pending; empty repository). A change that does not apply is `success: false`, not an error.
 */
export async function approveChange(db: Db, actor: Actor, changeId: string): Promise<ApproveResult> {
  const { change, session, repo } = await ownChange(db, actor, changeId, "write");
  requirePending(change);
  const { results, commitSha } = await applyChanges(db, actor, { session, repo }, [change]);
  const r = results[0];
  return {
    success: r.success,
    path: r.path,
    message: r.message,
    ...(commitSha ? { commitSha, branch: session.branch } : {}),
    ...(r.issueNumber ? { issueNumber: r.issueNumber } : {}),
  };
}

/**
 * approveAllChanges {sessionId} → {approved, failed, results: [{changeId, success, path, message,
 * commitSha?}], commitSha?}: every pending change in proposal order, one commit for all that
 * apply. Never fails as a whole for changes that do not apply. Errors as approveChange.
 */
export async function approveAllChanges(db: Db, actor: Actor, sessionId: string): Promise<ApproveAllResult> {
  const own = await ownSession(db, actor, sessionId, "write");
  const pending = await db.proposedChange.findMany({
    where: { sessionId: own.session.id, status: "pending" },
    orderBy: [{ seq: "asc" }, { createdAt: "asc" }],
  });
  if (!pending.length) return { approved: 0, failed: 0, results: [] };
  const { results, commitSha } = await applyChanges(db, actor, own, pending);
  const approved = results.filter((r) => r.success).length;
  return { approved, failed: results.length - approved, results, ...(commitSha ? { commitSha } : {}) };
}

/**
 * rejectChange {changeId, reason?} → {success, id, status: "rejected", reason}: the change is
 * not applied; the reason is kept (the model sees it in its next turn). Rejecting needs no write
 * permission: it changes nothing in the repository. Errors: NOT_FOUND; PRECONDITION_FAILED when
 * not pending.
 */
export async function rejectChange(
  db: Db,
  actor: Actor,
  input: { changeId: string; reason?: string },
): Promise<{ success: true; id: string; status: "rejected"; reason: string | null }> {
  const { change } = await ownChange(db, actor, input.changeId);
  requirePending(change);
  const reason = input.reason?.trim() || null;
  const done = await db.proposedChange.updateMany({ where: { id: change.id, status: "pending" }, data: { status: "rejected", reason } });
  if (done.count !== 1) throw new AppError("PRECONDITION_FAILED", "the change was approved or rejected meanwhile");
  return { success: true, id: change.id, status: "rejected", reason };
}
