"use client";
/**
 * The message list of the agent chat (./chat.tsx): the stored history (user messages, tool
 * activity lines, replies as Markdown with their proposed changes and a Stopped / Failed badge)
 * and the turn being streamed.
 */
import type { AgentMessageView } from "@/server/services/agent/model";
import { IssueMarkdown } from "@/components/issues/markdown";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/styles";
import { HISTORY_LIMIT, type LiveTurn } from "./use-agent-chat";

type RepoRef = { owner: string; name: string };

/**
 * `history`: the stored messages, oldest first (a note says when older ones are left out);
 * `live`: the turn being streamed, or null; `available`: a model is configured (the empty
 * chat's hint says what to ask).
 */
export function ChatMessages({
  history,
  live,
  available,
  repo,
}: {
  history: AgentMessageView[];
  live: LiveTurn | null;
  available: boolean;
  repo: RepoRef;
}) {
  return (
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
      {live && <LiveItems live={live} repo={repo} />}
    </ol>
  );
}

/** The streamed turn: the user's message and the reply so far (busy until it ends or is stopped). */
function LiveItems({ live, repo }: { live: LiveTurn; repo: RepoRef }) {
  return (
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

function MessageItem({ message: m, repo }: { message: AgentMessageView; repo: RepoRef }) {
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
