"use client";
/**
 * The agent chat of one session (issue #11 "Page"): the stored history (agent.getMessages, oldest
 * first) and the turn being streamed through the `agent.chatStream` subscription (SSE, the
 * client's httpSubscriptionLink) as the events of server/services/agent/events.ts arrive: `text`
 * deltas render as Markdown while they come, `tool` events as activity lines ("reading
 * server/db.ts"), each `change` as soon as it is proposed (the changes panel refetches), then the
 * stored `message` (or an `error`) ends the turn. Stop unsubscribes, which closes the stream: the
 * server aborts the model call and stores what was generated, marked stopped.
 * Without a model the composer is off and says so (the page shows why).
 */
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AgentStreamEvent } from "@/server/services/agent/events";
import type { AgentMessageView } from "@/server/services/agent/model";
import { errorMessage, useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { IssueMarkdown } from "@/components/issues/markdown";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { cx, label } from "@/components/ui/styles";
import { ContextPicker, type Selection } from "./context-picker";

/** Messages of the history shown: the newest ones (agent.getMessages `latest`). */
export const HISTORY_LIMIT = 100;

interface LiveTurn {
  message: string;
  text: string;
  tools: { name: string; summary: string }[];
  changes: { id: string; path: string; type: string }[];
  stopped?: boolean;
}

export function AgentChat({
  session,
  repo,
  available,
  files,
  picked,
  onPick,
  selection,
  onClearSelection,
  onChanges,
}: {
  session: { id: string };
  repo: { owner: string; name: string; defaultBranch: string };
  available: boolean;
  files: string[];
  picked: string[];
  onPick: (files: string[]) => void;
  selection: Selection | null;
  onClearSelection: () => void;
  /** A change was proposed or a turn ended: the changes panel refetches. */
  onChanges: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  // the newest HISTORY_LIMIT messages (a long session's recent turns, not its first ones)
  const messages = useQuery(trpc.agent.getMessages.queryOptions({ sessionId: session.id, limit: HISTORY_LIMIT, latest: true }));
  const [draft, setDraft] = useState("");
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sub = useRef<{ unsubscribe: () => void } | null>(null);

  // leaving the session (or the page) ends its stream
  useEffect(() => () => sub.current?.unsubscribe(), [session.id]);

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
      { sessionId: session.id, message, ...(context ? { context } : {}) },
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

  const history = messages.data ?? [];
  return (
    <section aria-labelledby="agent-chat-heading" className="space-y-3" data-testid="agent-chat">
      <h2 id="agent-chat-heading" className="sr-only">
        Chat
      </h2>
      <ol className="space-y-3" data-testid="agent-messages">
        {history.length >= HISTORY_LIMIT && (
          <li className="text-center text-xs text-muted-foreground" data-testid="agent-history-cut">
            Only the latest {HISTORY_LIMIT} messages of this session are shown.
          </li>
        )}
        {history.length === 0 && !live && (
          <li className="text-sm text-muted-foreground" data-testid="agent-no-messages">
            {available
              ? "Ask the agent about this repository, or ask it to change something. Nothing it proposes is committed until you approve it."
              : "No messages yet."}
          </li>
        )}
        {history.map((m) => (
          <MessageItem key={m.id} message={m} repo={repo} />
        ))}
        {live && (
          <>
            <li
              className="ml-auto max-w-[85%] rounded-lg bg-accent px-3 py-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
              data-testid="agent-message"
              data-role="user"
            >
              {live.message}
            </li>
            <li className="min-w-0 rounded-lg border border-border bg-card px-3 py-2" data-testid="agent-live" aria-busy={!live.stopped}>
              {live.tools.map((t, i) => (
                <ToolLine key={i} summary={t.summary} />
              ))}
              {live.text ? (
                <IssueMarkdown source={live.text} repo={repo} testId="agent-live-text" />
              ) : (
                <p className="text-sm text-muted-foreground">{live.stopped ? "Stopped." : "Thinking…"}</p>
              )}
              {live.changes.length > 0 && <ProposedList changes={live.changes} />}
            </li>
          </>
        )}
      </ol>
      <form onSubmit={send} className="space-y-2" data-testid="agent-composer">
        <ContextPicker
          repo={repo}
          files={files}
          picked={picked}
          onPick={onPick}
          selection={selection}
          onClearSelection={onClearSelection}
        />
        <label htmlFor="agent-message" className={label}>
          Message
        </label>
        <Textarea
          id="agent-message"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) send();
          }}
          rows={3}
          maxLength={32_000}
          disabled={!available}
          placeholder={
            available ? "e.g. Add a test for the parser" : "The agent needs a model (see above); you can still propose edits by hand."
          }
          data-testid="agent-input"
        />
        <FormError message={error} />
        <div className="flex flex-wrap items-center gap-2">
          {live && !live.stopped ? (
            <Button variant="dangerOutline" onClick={stop} data-testid="agent-stop">
              Stop
            </Button>
          ) : (
            <Button type="submit" variant="primary" disabled={!available || !!live || !draft.trim()} data-testid="agent-send">
              Send
            </Button>
          )}
          <span className="text-xs text-subtle-foreground">⌘/Ctrl + Enter sends</span>
        </div>
      </form>
    </section>
  );
}

function ToolLine({ summary }: { summary: string }) {
  return (
    <p className="flex items-center gap-1.5 font-mono text-xs text-muted-foreground" data-testid="agent-tool">
      <span aria-hidden="true">›</span> {summary}
    </p>
  );
}

function ProposedList({ changes }: { changes: { id: string; path: string; type: string }[] }) {
  return (
    <ul className="mt-2 space-y-1 text-xs" aria-label="Proposed changes" data-testid="agent-message-changes">
      {changes.map((c) => (
        <li key={c.id}>
          <a href={`#change-${c.id}`} className="text-primary hover:underline">
            Proposed: {c.type} <span className="font-mono">{c.path}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function MessageItem({ message: m, repo }: { message: AgentMessageView; repo: { owner: string; name: string } }) {
  if (m.role === "user")
    return (
      <li
        className="ml-auto max-w-[85%] rounded-lg bg-accent px-3 py-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
        data-testid="agent-message"
        data-role="user"
      >
        {m.content}
      </li>
    );
  if (m.role === "tool")
    return (
      <li data-testid="agent-message" data-role="tool">
        <ToolLine summary={m.content} />
      </li>
    );
  return (
    <li
      className={cx("min-w-0 rounded-lg border border-border bg-card px-3 py-2")}
      data-testid="agent-message"
      data-role="assistant"
      data-status={m.status ?? undefined}
    >
      {m.status && m.status !== "complete" && (
        <Badge tone={m.status === "error" ? "danger" : "warning"} className="mb-1">
          {m.status === "error" ? "Failed" : "Stopped"}
        </Badge>
      )}
      {m.content ? (
        <IssueMarkdown source={m.content} repo={repo} testId="agent-message-text" />
      ) : (
        <p className="text-sm text-muted-foreground">(no text)</p>
      )}
      {m.changes && m.changes.length > 0 && <ProposedList changes={m.changes} />}
    </li>
  );
}
