/**
 * The coding agent's records as the API returns them (spec "Agent", "Agent message", "Proposed
 * file change"; timestamps as ISO strings) and the one way every agent service finds a session:
 * `ownSession` — the caller's own session in a repository they can still read, else NOT_FOUND
 * (only the session's owner sees or uses it, others get NOT_FOUND: docs/agent.md "Sessions").
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Identity } from "@/server/git/commits";
import { atLeast, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";

export type AgentMode = "pm" | "code";
export const AGENT_MODES: readonly AgentMode[] = ["pm", "code"];
export type ChangeType = "create" | "modify" | "delete";
export const CHANGE_TYPES: readonly ChangeType[] = ["create", "modify", "delete"];
export type ChangeStatus = "pending" | "approved" | "rejected";
/** A proposed change's type: a file change, or (pm mode) a proposed issue. */
export type ProposedType = ChangeType | "issue";

/** The agent's identity in commit trailers (`Co-authored-by: svc agent <agent@users.noreply.svc>`). */
export const AGENT_IDENTITY: Identity = { name: "svc agent", email: "agent@users.noreply.svc" };

export interface AgentSessionView {
  id: string;
  repoId: string;
  userId: string;
  mode: AgentMode;
  title: string;
  /** The working branch (`agent/<short-id>`), created at the first approval. */
  branch: string;
  /** Owner and name of the repository, for links. */
  repo: { owner: string; name: string; defaultBranch: string };
  createdAt: string;
  updatedAt: string;
}

export interface ProposedChangeView {
  id: string;
  sessionId: string;
  messageId: string | null;
  type: ProposedType;
  /** The file's path ("" for a proposed issue). */
  path: string;
  /** The new file content, or a proposed issue's body. */
  content?: string;
  /** A proposed issue's title (type "issue"). */
  title?: string;
  /** The issue created when a proposed issue was approved. */
  issueNumber?: number;
  diff: string;
  status: ChangeStatus;
  /** The blob the change was based on (modify, delete). */
  baseBlobSha: string | null;
  /** Why it was rejected, or why the last approval failed (it is then still pending). */
  reason: string | null;
  /** The commit that applied it. */
  commitSha: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AgentMessageView {
  id: string;
  role: "user" | "assistant" | "tool";
  content: string;
  status: "complete" | "stopped" | "error" | null;
  changes?: ProposedChangeView[];
  createdAt: string;
}

export const sessionSelect = {
  id: true,
  repoId: true,
  userId: true,
  mode: true,
  title: true,
  branch: true,
  createdAt: true,
  updatedAt: true,
  repo: { select: { name: true, defaultBranch: true, owner: { select: { username: true } } } },
} as const;

type SessionRow = {
  id: string;
  repoId: string;
  userId: string;
  mode: string;
  title: string;
  branch: string;
  createdAt: Date;
  updatedAt: Date;
  repo: { name: string; defaultBranch: string; owner: { username: string } };
};

export function sessionView(row: SessionRow): AgentSessionView {
  return {
    id: row.id,
    repoId: row.repoId,
    userId: row.userId,
    mode: row.mode as AgentMode,
    title: row.title,
    branch: row.branch,
    repo: { owner: row.repo.owner.username, name: row.repo.name, defaultBranch: row.repo.defaultBranch },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type ChangeRow = {
  id: string;
  sessionId: string;
  messageId: string | null;
  type: string;
  path: string;
  content: string | null;
  title?: string | null;
  issueNumber?: number | null;
  diff: string;
  status: string;
  baseBlobSha: string | null;
  reason: string | null;
  commitSha: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export function changeView(row: ChangeRow): ProposedChangeView {
  return {
    id: row.id,
    sessionId: row.sessionId,
    messageId: row.messageId,
    type: row.type as ProposedType,
    path: row.path,
    ...(row.content !== null ? { content: row.content } : {}),
    ...(row.title != null ? { title: row.title } : {}),
    ...(row.issueNumber != null ? { issueNumber: row.issueNumber } : {}),
    diff: row.diff,
    status: row.status as ChangeStatus,
    baseBlobSha: row.baseBlobSha,
    reason: row.reason,
    commitSha: row.commitSha,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function messageView(row: {
  id: string;
  role: string;
  content: string;
  status: string | null;
  createdAt: Date;
  changes?: ChangeRow[];
}): AgentMessageView {
  return {
    id: row.id,
    role: row.role as AgentMessageView["role"],
    content: row.content,
    status: row.status as AgentMessageView["status"],
    ...(row.changes?.length ? { changes: row.changes.map(changeView) } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

export const notFoundSession = () => new AppError("NOT_FOUND", "agent session not found");
export const notFoundChange = () => new AppError("NOT_FOUND", "proposed change not found");

export interface OwnSession {
  session: SessionRow;
  repo: AuthorizedRepo;
}

/**
 * The caller's session `sessionId` with its repository authorized for read (the effective
 * permission, token scope included, is in `repo.permission`). `need: "write"` also requires write
 * permission (approving commits to the repository). Errors: NOT_FOUND "agent session not found"
 * for an unknown id, another user's session, or a repository the caller can no longer read;
 * FORBIDDEN naming the repository when write is needed and missing.
 */
export async function ownSession(db: Db, actor: Actor, sessionId: string, need: "read" | "write" = "read"): Promise<OwnSession> {
  const session = await db.agentSession.findUnique({ where: { id: sessionId }, select: sessionSelect });
  if (!session || session.userId !== actor.user.id) throw notFoundSession();
  let repo: AuthorizedRepo;
  try {
    repo = await authorizeRepo(db, actor, { repoId: session.repoId }, "read");
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") throw notFoundSession();
    throw e;
  }
  if (need === "write" && !atLeast(repo.permission, "write")) {
    throw new AppError(
      "FORBIDDEN",
      `approving a change commits to ${repo.owner}/${repo.name}: you need write permission there${actor.via === "pat" ? " and a token with repo:write" : ""}`,
    );
  }
  return { session, repo };
}

/** The change `changeId` of one of the caller's sessions (see `ownSession`). Errors: NOT_FOUND "proposed change not found". */
export async function ownChange(db: Db, actor: Actor, changeId: string, need: "read" | "write" = "read") {
  const change = await db.proposedChange.findUnique({ where: { id: changeId } });
  if (!change) throw notFoundChange();
  try {
    return { change, ...(await ownSession(db, actor, change.sessionId, need)) };
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") throw notFoundChange();
    throw e;
  }
}
