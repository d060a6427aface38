/**
 * One model-driven agent turn (docs/agent.md "A turn" and "The stream"; spec Events 1).
 *
 *   prepareAgentTurn  the checks that answer before anything is stored or streamed: the caller's
 *                     session (NOT_FOUND), a model for its repository (PRECONDITION_FAILED
 *                     naming the variables to set)
 *   runAgentTurn      stores the user message (`start`), runs the model with the tools
 *                     (tools.ts) up to AGENT_MAX_STEPS steps, emitting `text` deltas, `tool`
 *                     activity and each `change`; then stores the reply and emits `message`
 *
 * Endings: complete (status "complete"; when the step limit ended a model still calling tools,
 * the reply says so); aborted through `signal` (the client unsubscribed or went away: what was
 * generated is stored with status "stopped", and `message` emitted); a provider failure (the
 * partial reply is stored with status "error", `error` is emitted with a clear message that never
 * holds the key, and the AppError SERVICE_UNAVAILABLE is thrown). Changes proposed in the turn
 * are linked to the stored reply in every ending.
 */
import { InvalidToolInputError, NoSuchToolError, stepCountIs, streamText } from "ai";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { acquireLease } from "@/server/db/lease";
import { aiFailure } from "@/server/ai/structured";
import { shownTo } from "@/server/ai/redact";
import { chargeEngine } from "@/server/services/ai/budget";
import type { ModelEngine } from "@/server/ai/engine";
import { messageView, ownSession, type AgentMessageView, type AgentMode, type OwnSession, type ProposedChangeView } from "./model";
import { requireModel } from "./status";
import { agentTools } from "./tools";
import { historyMessages, systemPrompt, turnPrompt } from "./prompt";
import type { AgentStreamEvent } from "./events";
import type { ChatInput } from "./schemas";

/** Model steps in one turn (each step: one model call, then its tool calls). */
export const AGENT_MAX_STEPS = 12;
/** Longest stored reply (characters); a longer one is cut with a note. */
export const MAX_REPLY_CHARS = 100_000;

export interface PreparedTurn {
  db: Db;
  actor: Actor;
  own: OwnSession;
  engine: ModelEngine;
  input: ChatInput;
}

export interface TurnOptions {
  /** Aborts the model call (the stream closed, the subscription ended). */
  signal?: AbortSignal;
  /** Receives each event of the turn, in order (events.ts). */
  onEvent?: (event: AgentStreamEvent) => void;
  /** Overrides AGENT_MAX_STEPS (tests). */
  maxSteps?: number;
}

/**
 * The checks before a turn, then one request of the repository key's daily budget (a turn counts
 * once, whatever its steps: server/services/ai/budget.ts). Errors: NOT_FOUND (not the caller's
 * session), PRECONDITION_FAILED (no model), TOO_MANY_REQUESTS (the budget is used up).
 */
export async function prepareAgentTurn(db: Db, actor: Actor, input: ChatInput): Promise<PreparedTurn> {
  const own = await ownSession(db, actor, input.sessionId);
  const engine = await requireModel(db, own.session.repoId);
  await chargeEngine(db, own.session.repoId, engine);
  return { db, actor, own, engine, input };
}

/**
 * A tool-error part the model caused: a tool it does not have, or input that does not match the
 * tool's schema. The SDK gives these as the error or, in the full stream, as its string form
 * ("AI_NoSuchToolError: …").
 */
function isModelToolMistake(error: unknown): boolean {
  if (NoSuchToolError.isInstance(error) || InvalidToolInputError.isInstance(error)) return true;
  return typeof error === "string" && /^AI_(NoSuchToolError|InvalidToolInputError)\b/.test(error);
}

/** runAgentTurn for an input not yet checked: prepareAgentTurn, then the turn. */
export async function runAgentTurn(db: Db, actor: Actor, input: ChatInput, opts: TurnOptions = {}): Promise<AgentMessageView> {
  return runPreparedTurn(await prepareAgentTurn(db, actor, input), opts);
}

/**
 * How long a session's turn lease lasts without renewal (ms): it is renewed every third of it while
 * the turn runs, so a turn whose process died frees its session after at most this long.
 */
export const AGENT_TURN_LEASE_MS = 30_000;

/**
 * The turn of a prepared input; see the module comment. One turn at a time per session, across
 * every svc process on the database: the turn holds the lease `agent-turn:<sessionId>`
 * (server/db/lease.ts) from before the user's message is stored until the reply is; were the lease
 * lost (this process stalled past its expiry), the turn stops as if the client had left. Errors:
 * CONFLICT while another turn of the same session is under way, in this process or another
 * (nothing stored); AppError SERVICE_UNAVAILABLE after a provider failure (stored and emitted first).
 */
export async function runPreparedTurn(turn: PreparedTurn, opts: TurnOptions = {}): Promise<AgentMessageView> {
  const lease = await acquireLease(turn.db, `agent-turn:${turn.own.session.id}`, { ttlMs: AGENT_TURN_LEASE_MS });
  if (!lease)
    throw new AppError(
      "CONFLICT",
      "the agent is still answering in this session: wait for the reply, or stop it, before sending another message",
    );
  try {
    const signal = opts.signal ? AbortSignal.any([opts.signal, lease.signal]) : lease.signal;
    return await runTurn(turn, { ...opts, signal });
  } finally {
    await lease.release();
  }
}

async function runTurn(turn: PreparedTurn, opts: TurnOptions): Promise<AgentMessageView> {
  const { db, actor, own, engine, input } = turn;
  const { session, repo } = own;
  const emit = (e: AgentStreamEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener's failure (a closed stream) must not end the turn
    }
  };
  const maxSteps = opts.maxSteps ?? AGENT_MAX_STEPS;

  const history = await historyMessages(db, session.id);
  const prompt = await turnPrompt(db, repo, session, input);
  const userRow = await db.agentMessage.create({ data: { sessionId: session.id, role: "user", content: input.message } });
  await db.agentSession.update({ where: { id: session.id }, data: { updatedAt: new Date() } });
  emit({ type: "start", userMessage: messageView(userRow) });

  const proposed: ProposedChangeView[] = [];
  const tools = agentTools({ db, actor, session, repo, emit, proposed });
  let text = "";
  let steps = 0;
  let lastFinish: string | undefined;
  let failure: AppError | null = null;
  let aborted = false;
  try {
    const result = streamText({
      model: engine.model,
      instructions: systemPrompt(session.mode as AgentMode, repo, session.branch),
      messages: [...history, { role: "user", content: prompt }],
      tools,
      stopWhen: stepCountIs(maxSteps),
      toolCallConcurrency: 1,
      maxRetries: 1,
      onError: () => {}, // the error part in fullStream is handled below (not logged with the provider's body)
      ...(opts.signal ? { abortSignal: opts.signal } : {}),
    });
    // text of a later step starts a new block (the model wrote "Let me look." or a list before its tool call)
    let stepStart = false;
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") {
        if (!part.text) continue;
        const delta = stepStart ? `${stepSeparator(text)}${part.text}` : part.text;
        stepStart = false;
        text += delta;
        emit({ type: "text", delta });
      } else if (part.type === "start-step") {
        stepStart = true;
      } else if (part.type === "finish-step") {
        steps++;
        lastFinish = part.finishReason;
      } else if (part.type === "abort") {
        aborted = true;
      } else if (part.type === "error") {
        if (opts.signal?.aborted) aborted = true;
        else failure = aiFailure(engine, part.error);
      } else if (part.type === "tool-error") {
        // the model asked for a tool it does not have, or with input that does not parse: its own
        // mistake, which it is told; anything else is an unexpected fault inside a tool (AppErrors
        // are results), logged
        if (!isModelToolMistake(part.error)) console.error(`agent tool ${part.toolName} failed`, part.error);
      }
    }
  } catch (e) {
    if (opts.signal?.aborted) aborted = true;
    else failure = aiFailure(engine, e);
  }
  if (opts.signal?.aborted) aborted = true;

  let content = text;
  let status: "complete" | "stopped" | "error" = "complete";
  if (aborted) {
    status = "stopped";
    content = `${text}${text ? "\n\n" : ""}_Stopped before the reply was finished._`;
  } else if (failure) {
    status = "error";
    // redacted by aiFailure (server/ai/redact.ts); the provider's words only for a repository admin
    failure = shownTo(repo.permission, failure) as AppError;
    content = `${text}${text ? "\n\n" : ""}_The reply failed: ${failure.message}_`;
  } else if (lastFinish === "tool-calls" && steps >= maxSteps) {
    content = `${text}${text ? "\n\n" : ""}_Stopped after ${maxSteps} tool steps, the limit of one turn: the model was still working. Review what it proposed, then send a message to continue._`;
  } else if (!text.trim()) {
    content = proposed.length
      ? `Proposed ${proposed.length} change${proposed.length === 1 ? "" : "s"} for your review.`
      : "(The model sent no text.)";
  }
  if (content.length > MAX_REPLY_CHARS) content = `${content.slice(0, MAX_REPLY_CHARS)}\n\n_(reply cut at ${MAX_REPLY_CHARS} characters)_`;

  const reply = await db.agentMessage.create({ data: { sessionId: session.id, role: "assistant", content, status } });
  if (proposed.length)
    await db.proposedChange.updateMany({
      where: { id: { in: proposed.map((c) => c.id) }, sessionId: session.id },
      data: { messageId: reply.id },
    });
  await db.agentSession.update({ where: { id: session.id }, data: { updatedAt: new Date() } });
  const stored = await db.agentMessage.findUniqueOrThrow({
    where: { id: reply.id },
    include: { changes: { orderBy: [{ seq: "asc" }, { createdAt: "asc" }] } },
  });
  const view = messageView(stored);
  if (failure) {
    emit({ type: "error", code: failure.code, message: failure.message });
    throw failure;
  }
  emit({ type: "message", message: view });
  return view;
}

/**
 * What goes between the text of one model step and the next so the next starts a Markdown block
 * of its own: a blank line (CommonMark 0.31 §5.2: an unindented line after a blank line ends a
 * list item; without it "I proposed…" after "- step two\n" is a lazy continuation of that item).
 * `before`: the reply so far; "" when it is empty or already ends with a blank line.
 */
export function stepSeparator(before: string): string {
  if (!before || /\n[ \t]*\n[ \t]*$/.test(before)) return "";
  return /\n[ \t]*$/.test(before) ? "\n" : "\n\n";
}
