/**
 * agent.chat and agent.chatStream (issue #11). This version answers honestly without a model:
 * PRECONDITION_FAILED naming the environment variables to set (status.ts NO_MODEL_MESSAGE), and
 * stores nothing. The model-driven turn (tools, streaming, stored replies) is the next part of
 * issue #11; until it lands, a configured model is also PRECONDITION_FAILED, saying so, rather
 * than a pretended answer.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { ownSession, type AgentMessageView } from "./model";
import { requireModel } from "./status";

export interface ChatInput {
  sessionId: string;
  message: string;
  context?: { files?: string[]; selection?: { file: string; startLine: number; endLine: number } };
}

/** One chat turn → the stored assistant message. Errors: NOT_FOUND (not the caller's session), PRECONDITION_FAILED (no model). */
export async function chat(db: Db, actor: Actor, input: ChatInput): Promise<AgentMessageView> {
  const { session } = await ownSession(db, actor, input.sessionId);
  const engine = await requireModel(db, session.repoId);
  throw new AppError("PRECONDITION_FAILED", `a model is configured (${engine.engine}), but chatting with it is not part of this version of svc yet; propose edits by hand meanwhile`);
}
