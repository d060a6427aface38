/**
 * The events of one streamed agent turn (docs/agent.md "The stream"; spec Events 1). The same union
 * is yielded by the `agent.chatStream` subscription and written by `POST /api/agent/stream` as
 * Server-Sent Events (`event: <type>` + `data: <JSON of the event>`), in this order:
 *
 *   start    once, first: the stored user message
 *   text     any number: a piece of the assistant's reply (`delta`, appended in order)
 *   tool     tool activity as it happens (`summary` such as "reading server/db.ts")
 *   change   each proposed change as the model makes it (pending)
 *   message  once, last on success or stop: the stored assistant message (status "complete" or
 *            "stopped"), with its changes
 *   error    once, last on failure (the partial reply is stored with status "error")
 *
 * The SSE endpoint also writes comment lines (`: ping`) every HEARTBEAT_MS so proxies keep idle
 * streams open; they carry no event. Documented in docs/api.md "Agent stream events".
 */
import type { AgentMessageView, ProposedChangeView } from "./model";

/** Interval of SSE heartbeat comments (ms). */
export const HEARTBEAT_MS = 15_000;

export type AgentStreamEvent =
  | { type: "start"; userMessage: AgentMessageView }
  | { type: "text"; delta: string }
  | { type: "tool"; name: string; summary: string }
  | { type: "change"; change: ProposedChangeView }
  | { type: "message"; message: AgentMessageView }
  | { type: "error"; code: string; message: string };

export type AgentStreamEventType = AgentStreamEvent["type"];
