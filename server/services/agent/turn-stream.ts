/**
 * A prepared agent turn as an async iterable of its events (events.ts), for both streaming
 * transports: the `agent.chatStream` subscription and `POST /api/agent/stream` (docs/agent.md
 * "The stream"). The iterable ends after `message` or `error`. When the consumer stops early (the
 * subscription is unsubscribed, the HTTP client goes away) or `signal` aborts, the model call is
 * aborted through the AI SDK and the turn stores what was generated as a "stopped" message; the
 * iterable's `return()` waits until that is stored. A fault that is not an AppError becomes an
 * `error` event "internal error" (logged), never the fault's message.
 */
import { AppError } from "@/server/errors";
import type { AgentStreamEvent } from "./events";
import { runPreparedTurn, type PreparedTurn } from "./run-turn";

/** The events of `turn`, in order; see the module comment. */
export async function* streamTurn(turn: PreparedTurn, signal?: AbortSignal): AsyncGenerator<AgentStreamEvent, void, undefined> {
  const queue: AgentStreamEvent[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  let ended = false;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  const push = (e: AgentStreamEvent) => {
    if (e.type === "message" || e.type === "error") ended = true;
    queue.push(e);
    wake?.();
  };
  const run = runPreparedTurn(turn, { signal: controller.signal, onEvent: push })
    .catch((e: unknown) => {
      if (ended) return; // the turn emitted its error already
      if (!(e instanceof AppError)) console.error("agent turn failed", e);
      push(
        e instanceof AppError
          ? { type: "error", code: e.code, message: e.message }
          : { type: "error", code: "INTERNAL_SERVER_ERROR", message: "internal error: the turn could not finish" },
      );
    })
    .finally(() => {
      done = true;
      wake?.();
    });
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        if (next.type === "message" || next.type === "error") return;
        continue;
      }
      if (done) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    controller.abort(); // a consumer that left early stops the model; after the end it changes nothing
    signal?.removeEventListener("abort", onAbort);
    await run;
  }
}
