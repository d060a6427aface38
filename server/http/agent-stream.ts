/**
 * POST /api/agent/stream — one coding-agent turn as Server-Sent Events (docs/agent.md "The stream";
 * spec "Agent router" and Events 1; docs/api.md "Agent stream events"). Body: the agent.chat
 * input {sessionId, message, context?}. Response `text/event-stream`, one SSE event per
 * AgentStreamEvent (server/services/agent/events.ts):
 *
 *   event: <type>\ndata: <the event as JSON>\n\n     start, text, tool, change, then message or error
 *   : ping\n\n                                       every HEARTBEAT_MS while the turn runs
 *
 * Authenticated like the other REST routes: the session cookie (same-origin POST only) or
 * `Authorization: Bearer svc_…` with the repo:read scope; the session must be the caller's own.
 * Rate-limited with agent.chat and agent.chatStream (one bucket, `agentChat`). Everything that
 * can be refused is refused BEFORE the stream starts, as a JSON error with its 4xx status
 * (server/http/respond.ts): 401, 403 (scope, cross-site), 400 (body), 404 (not the caller's
 * session), 412 (no model), 429. A client that disconnects (req.signal) aborts the model call;
 * the reply is stored with status "stopped".
 */
import { ZodError } from "zod";
import { getDb } from "@/server/db";
import { requireScope, resolveActor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";
import { consume } from "@/server/rate-limit";
import { callerKey } from "@/server/api/procedure-limits";
import { chatInput } from "@/server/services/agent/schemas";
import { HEARTBEAT_MS, type AgentStreamEvent } from "@/server/services/agent/events";
import { prepareAgentTurn, type PreparedTurn } from "@/server/services/agent/run-turn";
import { streamTurn } from "@/server/services/agent/turn-stream";
import { handle, readJson } from "./respond";

/** One SSE frame for `event`. JSON never holds a raw newline, so `data:` is one line. */
export function sseFrame(event: AgentStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The handler (app/api/agent/stream/route.ts). */
export function agentStream(req: Request): Promise<Response> {
  return handle(async () => {
    const actor = await resolveActor(req);
    if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send Authorization: Bearer <token>");
    assertSameOrigin(actor, req.method, req.headers, getConfig().publicUrl);
    requireScope(actor, "repo:read");
    const key = callerKey(actor, req.headers);
    if (key) await consume("agentChat", key);
    let input;
    try {
      input = chatInput.parse(await readJson(req));
    } catch (e) {
      if (e instanceof ZodError)
        throw new AppError(
          "BAD_REQUEST",
          e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; "),
        );
      throw e;
    }
    const turn = await prepareAgentTurn(await getDb(), actor, input);
    return new Response(eventStream(req, turn), {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no", // nginx: deliver each event as it is written
      },
    });
  }, req);
}

/** The heartbeat interval (ms): HEARTBEAT_MS, or SVC_AGENT_HEARTBEAT_MS (10–60000) where set (tests). */
export function heartbeatMs(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.SVC_AGENT_HEARTBEAT_MS);
  return Number.isInteger(n) && n >= 10 && n <= 60_000 ? n : HEARTBEAT_MS;
}

function eventStream(req: Request, turn: PreparedTurn): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const onAbort = () => stop.abort();
  const run = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    let open = true;
    const send = (text: string) => {
      if (!open) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        open = false;
        stop.abort();
      }
    };
    if (req.signal.aborted) stop.abort();
    else req.signal.addEventListener("abort", onAbort, { once: true });
    heartbeat = setInterval(() => send(": ping\n\n"), heartbeatMs());
    try {
      for await (const event of streamTurn(turn, stop.signal)) send(sseFrame(event));
    } finally {
      clearInterval(heartbeat);
      req.signal.removeEventListener("abort", onAbort);
      if (open) {
        open = false;
        try {
          controller.close();
        } catch {
          // the consumer cancelled meanwhile
        }
      }
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // not awaited: the turn runs while the consumer reads
      void run(controller).catch((e: unknown) => console.error("agent stream failed", e));
    },
    cancel() {
      // the response body was cancelled (the client went away): stop the model; the turn stores "stopped"
      stop.abort();
      clearInterval(heartbeat);
    },
  });
}
