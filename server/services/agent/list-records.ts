/** agent.getMessages and agent.getPendingChanges (spec "Agent router"): a session's history and its changes. */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { changeView, messageView, ownSession, type AgentMessageView, type ProposedChangeView } from "./model";

/**
 * getMessages {sessionId, limit? (1–100, default 50), offset?, latest?}: the messages oldest first
 * (createdAt, then id), each with the changes it proposed. `latest` (beyond the spec) takes the
 * page from the newest end — `offset` then skips the newest ones — so a long session's chat shows
 * its recent turns; the page is still returned oldest first.
 */
export async function getMessages(
  db: Db,
  actor: Actor,
  input: { sessionId: string; limit?: number; offset?: number; latest?: boolean },
): Promise<AgentMessageView[]> {
  const { session } = await ownSession(db, actor, input.sessionId);
  const dir = input.latest ? "desc" : "asc";
  const rows = await db.agentMessage.findMany({
    where: { sessionId: session.id },
    orderBy: [{ createdAt: dir }, { id: dir }],
    take: input.limit ?? 50,
    skip: input.offset ?? 0,
    include: { changes: { orderBy: [{ seq: "asc" }, { createdAt: "asc" }] } },
  });
  if (input.latest) rows.reverse();
  return rows.map(messageView);
}

/**
 * getPendingChanges {sessionId}: every change of the session in the order proposed, each with its
 * status (pending, approved or rejected; spec "Proposed file change"). A failed approval leaves
 * the change pending with the failure in `reason`.
 */
export async function getPendingChanges(db: Db, actor: Actor, sessionId: string): Promise<ProposedChangeView[]> {
  const { session } = await ownSession(db, actor, sessionId);
  const rows = await db.proposedChange.findMany({ where: { sessionId: session.id }, orderBy: [{ seq: "asc" }, { createdAt: "asc" }] });
  return rows.map(changeView);
}
