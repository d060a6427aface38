"use client";
/**
 * The state of the agent chat (./chat.tsx): the stored history (agent.getMessages, the newest
 * HISTORY_LIMIT messages), the draft, the turn being streamed through the `agent.chatStream`
 * subscription (SSE, the client's httpSubscriptionLink) and the last error. The events of
 * server/services/agent/events.ts grow the live turn: `text` deltas, `tool` activity lines, each
 * `change` as soon as it is proposed (the changes panel refetches), then the stored `message` (or
 * an `error`) ends the turn. Stop unsubscribes, which closes the stream: the server aborts the
 * model call and stores what was generated, marked stopped.
 */
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AgentStreamEvent } from "@/server/services/agent/events";
import { errorMessage, useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { useDraft } from "@/components/ui/use-draft";
import type { Selection } from "./context-picker";

/** Messages of the history shown: the newest ones (agent.getMessages `latest`). */
export const HISTORY_LIMIT = 100;

/** The turn being streamed: the user's `message`, the reply's text so far, its tool lines and proposed changes. */
export interface LiveTurn {
  message: string;
  text: string;
  tools: { name: string; summary: string }[];
  changes: { id: string; path: string; type: string }[];
  stopped?: boolean;
}

/**
 * The chat of session `sessionId`. `available`: a model is configured (otherwise sending does
 * nothing); `picked` / `selection`: the context sent with the next message; `onChanges`: a change
 * was proposed or a turn ended.
 *
 * Returns `history` (the stored messages, oldest first; empty while loading), `draft` /
 * `setDraft`, `live` (the turn being streamed, or null), `error`, `send(event?)` (sends the draft;
 * nothing while a turn runs, without a model or with a blank draft) and `stop()`.
 */
export function useAgentChat({
  sessionId,
  available,
  picked,
  selection,
  onChanges,
}: {
  sessionId: string;
  available: boolean;
  picked: string[];
  selection: Selection | null;
  onChanges: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  // the newest HISTORY_LIMIT messages (a long session's recent turns, not its first ones)
  const messages = useQuery(trpc.agent.getMessages.queryOptions({ sessionId, limit: HISTORY_LIMIT, latest: true }));
  // the message box, kept per session until sent (components/ui/use-draft.ts)
  const { text: draft, setText: setDraft } = useDraft(`agent:${sessionId}:message`);
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sub = useRef<{ unsubscribe: () => void } | null>(null);

  // leaving the session (or the page) ends its stream
  useEffect(() => () => sub.current?.unsubscribe(), [sessionId]);

  /** Ends the turn: the stored history replaces the live view. */
  const finish = async (delayMs = 0) => {
    sub.current?.unsubscribe();
    sub.current = null;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await messages.refetch();
    onChanges();
    setLive(null);
  };

  const onEvent = (ev: AgentStreamEvent) => {
    if (ev.type === "text") setLive((l) => l && { ...l, text: l.text + ev.delta });
    else if (ev.type === "tool") setLive((l) => l && { ...l, tools: [...l.tools, { name: ev.name, summary: ev.summary }] });
    else if (ev.type === "change") {
      setLive((l) => l && { ...l, changes: [...l.changes, { id: ev.change.id, path: ev.change.path, type: ev.change.type }] });
      onChanges();
    } else if (ev.type === "message") void finish();
    else if (ev.type === "error") {
      setError(ev.message);
      void finish();
    }
  };

  const send = (e?: React.FormEvent) => {
    e?.preventDefault();
    const message = draft.trim();
    if (!message || live || !available) return;
    setError(null);
    setLive({ message, text: "", tools: [], changes: [] });
    setDraft("");
    const context =
      picked.length || selection ? { ...(picked.length ? { files: picked } : {}), ...(selection ? { selection } : {}) } : undefined;
    sub.current = client.agent.chatStream.subscribe(
      { sessionId, message, ...(context ? { context } : {}) },
      {
        onData: (ev) => onEvent(ev as AgentStreamEvent),
        onError: (err) => fail(errorMessage(err), message),
        // the link would reconnect after a dropped stream or a 5xx, which would run the turn
        // again: a turn is never retried, the failure is shown instead
        onConnectionStateChange: (state) => {
          if (state.state === "connecting" && state.error) fail(errorMessage(state.error), message);
        },
        onComplete: () => void finish(),
      },
    );
  };

  /** The stream failed: say why, give the message back to edit, end the turn. */
  function fail(why: string, message: string) {
    if (!sub.current) return;
    setError(why);
    setDraft((d) => d || message);
    void finish();
  }

  const stop = () => {
    sub.current?.unsubscribe();
    sub.current = null;
    setLive((l) => l && { ...l, stopped: true });
    // the server stores the partial reply once it sees the stream closed: look again a moment later
    void finish(600).then(() => setTimeout(() => void messages.refetch(), 2000));
  };

  return { history: messages.data ?? [], draft, setDraft, live, error, send, stop };
}
