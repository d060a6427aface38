/**
 * Agent sessions (spec "Agent"; docs/agent.md "Sessions"): create, get, list, update, delete. A
 * session belongs to one user and one repository; its working branch `agent/<short-id>` is named at
 * creation (unique in the repository, and not an existing branch) and created at the first approval
 * (approve-change.ts). Deleting a session removes its messages and changes (pending or not); the
 * branch and its commits stay: they are the repository's, and a pull request may be open from it.
 */
import { memberReposWhere } from "@/server/services/repos/grants";
import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { readRef } from "@/server/git/pull-refs";
import { authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { ownSession, sessionSelect, sessionView, type AgentMode, type AgentSessionView } from "./model";

const MODE_TITLE: Record<AgentMode, string> = { pm: "New pm session", code: "New code session" };

/** A branch name `agent/<first n hex digits of the id>` free in the repository (database and git). */
async function freeBranch(db: Db, repo: AuthorizedRepo, id: string): Promise<string> {
  const hex = id.replace(/-/g, "");
  for (const n of [8, 12, 16, 32]) {
    const branch = `agent/${hex.slice(0, n)}`;
    const taken = await db.agentSession.findFirst({ where: { repoId: repo.id, branch }, select: { id: true } });
    if (!taken && !(await readRef(repo.gitDir, `refs/heads/${branch}`))) return branch;
  }
  throw new AppError("CONFLICT", "could not name a free agent/ branch for the session; try again");
}

/**
 * createSession {repoId, mode, title?} → the session. `repo` is authorized for read by the
 * router; anonymous callers are UNAUTHORIZED. Default title "New <mode> session".
 */
export async function createSession(
  db: Db,
  actor: Actor | null,
  repo: AuthorizedRepo,
  input: { mode: string; title?: string },
): Promise<AgentSessionView> {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to start an agent session");
  const id = randomUUID();
  const branch = await freeBranch(db, repo, id);
  const mode = input.mode as AgentMode;
  const row = await db.agentSession.create({
    data: { id, repoId: repo.id, userId: actor.user.id, mode, title: input.title ?? MODE_TITLE[mode], branch },
    select: sessionSelect,
  });
  return sessionView(row);
}

/** getSession {sessionId}: the caller's session, else NOT_FOUND. */
export async function getSession(db: Db, actor: Actor, sessionId: string): Promise<AgentSessionView> {
  return sessionView((await ownSession(db, actor, sessionId)).session);
}

/**
 * listSessions {repoId?, limit? (1–100, default 20), offset?}: the caller's sessions, newest
 * first (createdAt, then id), in repositories they can read (a given repoId is authorized:
 * NOT_FOUND when unreadable; without it the readability is folded into the query).
 */
export async function listSessions(
  db: Db,
  actor: Actor,
  input: { repoId?: string; limit?: number; offset?: number },
): Promise<AgentSessionView[]> {
  const userId = actor.user.id;
  let repoWhere: object;
  if (input.repoId) {
    await authorizeRepo(db, actor, { repoId: input.repoId }, "read");
    repoWhere = { repoId: input.repoId };
  } else {
    repoWhere = actor.user.isAdmin ? {} : { repo: { OR: [{ isPrivate: false }, ...memberReposWhere(userId)] } };
  }
  const rows = await db.agentSession.findMany({
    where: { userId, ...repoWhere },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit ?? 20,
    skip: input.offset ?? 0,
    select: sessionSelect,
  });
  return rows.map(sessionView);
}

/** updateSession {sessionId, title?}: renames the caller's session (no title: unchanged). */
export async function updateSession(db: Db, actor: Actor, input: { sessionId: string; title?: string }): Promise<AgentSessionView> {
  const { session } = await ownSession(db, actor, input.sessionId);
  if (input.title === undefined) return sessionView(session);
  return sessionView(await db.agentSession.update({ where: { id: session.id }, data: { title: input.title }, select: sessionSelect }));
}

/** deleteSession {sessionId}: the session, its messages and its changes (one cascading delete). */
export async function deleteSession(db: Db, actor: Actor, sessionId: string): Promise<{ success: true }> {
  const { session } = await ownSession(db, actor, sessionId);
  await db.agentSession.delete({ where: { id: session.id } });
  return { success: true };
}
