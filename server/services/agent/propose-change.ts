/**
 * agent.proposeChange {sessionId, type, path, content?} (extension; docs/agent.md "Proposed changes
 * and approval"): stores a pending change of the caller's session. The same function serves edits
 * drafted by hand in the page and the model's `proposeChange` tool. Nothing touches the repository:
 * the change records the blob it was based on (`baseBlobSha`, for modify and delete) read from the
 * session branch if it exists, else the default branch, and a unified `diff`.
 *
 * Refusals (BAD_REQUEST unless said): the path rule (paths.ts); create of an existing path;
 * modify or delete of a missing path, a folder, a symlink or a submodule, or a path inside a
 * file; modify of a binary file; content over 1 MiB (schema); PRECONDITION_FAILED for an empty
 * repository or a session with MAX_PENDING_CHANGES pending changes.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { looksBinary } from "@/server/git/repository";
import { textDiff } from "@/server/git/text-diff";
import { changeView, ownSession, type ProposedChangeView } from "./model";
import { normaliseAgentPath } from "./paths";
import { fileBytes, pathState, sessionBase } from "./base";
import type { ProposeChangeInput } from "./schemas";

/** Most pending changes one session may hold (bounds approve-all's work). */
export const MAX_PENDING_CHANGES = 200;

/** Proposes one change; `messageId` links it to the assistant message that made it (model path). */
export async function proposeChange(
  db: Db,
  actor: Actor,
  input: ProposeChangeInput,
  opts: { messageId?: string } = {},
): Promise<ProposedChangeView> {
  const { session, repo } = await ownSession(db, actor, input.sessionId);
  const path = normaliseAgentPath(input.path);
  const [pending, total] = await Promise.all([
    db.proposedChange.count({ where: { sessionId: session.id, status: "pending" } }),
    db.proposedChange.count({ where: { sessionId: session.id } }),
  ]);
  if (pending >= MAX_PENDING_CHANGES)
    throw new AppError("PRECONDITION_FAILED", `the session already has ${pending} pending changes: approve or reject some first`);
  const base = await sessionBase(repo, session.branch);
  const state = await pathState(repo.gitDir, base.commit, path, base.branchName);
  if (state.kind === "blocked") throw new AppError("BAD_REQUEST", state.why);
  const content = input.content === undefined ? null : Buffer.from(input.content, "utf8");
  let before: Buffer | null = null;
  let mode = "100644";
  if (input.type === "create") {
    if (state.kind === "file")
      throw new AppError("BAD_REQUEST", `"${path}" already exists on ${base.branchName}: propose a modify instead`);
  } else {
    if (state.kind !== "file") throw new AppError("BAD_REQUEST", `"${path}" does not exist on ${base.branchName}`);
    mode = state.entry.mode;
    before = await fileBytes(repo.gitDir, base.commit, path);
    if (input.type === "modify" && looksBinary(before))
      throw new AppError("BAD_REQUEST", `"${path}" is a binary file; the agent edits text files only`);
  }
  const diff =
    before && looksBinary(before)
      ? `diff --git a/${path} b/${path}\ndeleted file mode ${mode}\nBinary files a/${path} and /dev/null differ\n`
      : await textDiff(path, before, content, { mode });
  const row = await db.proposedChange.create({
    data: {
      sessionId: session.id,
      seq: total,
      messageId: opts.messageId ?? null,
      type: input.type,
      path,
      content: input.content ?? null,
      baseBlobSha: state.kind === "file" ? state.entry.oid : null,
      diff,
    },
  });
  await db.agentSession.update({ where: { id: session.id }, data: { updatedAt: new Date() } });
  return changeView(row);
}

/** Longest proposed issue title and body (characters), as issues.create allows. */
export const MAX_ISSUE_TITLE = 256;
export const MAX_ISSUE_BODY = 65_536;

/**
 * Proposes an issue (pm mode's proposeIssue tool; a proposed issue is a pending change like a file,
 * docs/agent.md "Proposed changes and approval"): a pending change of type "issue" with `title` and
 * the body in `content`, no path and no diff. Nothing is created until the session's owner approves
 * it (approve-issue.ts). Errors: NOT_FOUND (not the caller's session); BAD_REQUEST for an empty or
 * too long title or body, or a session not in pm mode; PRECONDITION_FAILED at MAX_PENDING_CHANGES.
 */
export async function proposeIssue(
  db: Db,
  actor: Actor,
  input: { sessionId: string; title: string; body?: string },
  opts: { messageId?: string } = {},
): Promise<ProposedChangeView> {
  const { session } = await ownSession(db, actor, input.sessionId);
  if (session.mode !== "pm") throw new AppError("BAD_REQUEST", "only pm sessions propose issues");
  const title = input.title.replace(/\s+/g, " ").trim();
  if (!title) throw new AppError("BAD_REQUEST", "an issue needs a title");
  if (title.length > MAX_ISSUE_TITLE) throw new AppError("BAD_REQUEST", `an issue title is at most ${MAX_ISSUE_TITLE} characters`);
  const body = input.body?.trim() || null;
  if (body && body.length > MAX_ISSUE_BODY) throw new AppError("BAD_REQUEST", `an issue body is at most ${MAX_ISSUE_BODY} characters`);
  const [pending, total] = await Promise.all([
    db.proposedChange.count({ where: { sessionId: session.id, status: "pending" } }),
    db.proposedChange.count({ where: { sessionId: session.id } }),
  ]);
  if (pending >= MAX_PENDING_CHANGES)
    throw new AppError("PRECONDITION_FAILED", `the session already has ${pending} pending changes: approve or reject some first`);
  const row = await db.proposedChange.create({
    data: { sessionId: session.id, seq: total, messageId: opts.messageId ?? null, type: "issue", path: "", title, content: body, diff: "" },
  });
  await db.agentSession.update({ where: { id: session.id }, data: { updatedAt: new Date() } });
  return changeView(row);
}
