/**
 * agent.chat (spec "Agent router"; docs/agent.md "A turn"): one turn run to the end (run-turn.ts) →
 * the stored assistant message {id, role: "assistant", content, status, changes?, createdAt}.
 * Without a model: PRECONDITION_FAILED naming the environment variables to set (status.ts
 * NO_MODEL_MESSAGE), and nothing is stored. A provider failure stores the partial reply with status
 * "error" and answers SERVICE_UNAVAILABLE with the provider's message (never its key).
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import type { AgentMessageView } from "./model";
import { runAgentTurn } from "./run-turn";
import type { ChatInput } from "./schemas";

export type { ChatInput } from "./schemas";

/** One chat turn → the stored assistant message. Errors: NOT_FOUND (not the caller's session), PRECONDITION_FAILED (no model), SERVICE_UNAVAILABLE (the provider failed). */
export async function chat(db: Db, actor: Actor, input: ChatInput, opts: { signal?: AbortSignal } = {}): Promise<AgentMessageView> {
  return runAgentTurn(db, actor, input, opts);
}
