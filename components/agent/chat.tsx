"use client";
/**
 * The agent chat of one session: the stored history and the turn being streamed (text deltas
 * render as Markdown while they come, tool events as activity lines such as "reading
 * server/db.ts", each proposed change at once), then the composer. Stop ends the stream; the
 * server stores what was generated, marked stopped. Without a model the composer is off and says
 * so (the page shows why). State and streaming: ./use-agent-chat.ts.
 */
import { ChatComposer } from "./chat-composer";
import { ChatMessages } from "./chat-messages";
import type { Selection } from "./context-picker";
import { useAgentChat } from "./use-agent-chat";

export { HISTORY_LIMIT } from "./use-agent-chat";

/**
 * `session`: the session shown; `available`: a model is configured; `files`, `picked`, `onPick`,
 * `selection`, `onClearSelection`: the context picker's (./context-picker.tsx); `onChanges`: a
 * change was proposed or a turn ended (the changes panel refetches).
 */
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
  const { history, draft, setDraft, live, error, send, stop } = useAgentChat({
    sessionId: session.id,
    available,
    picked,
    selection,
    onChanges,
  });
  return (
    <section aria-labelledby="agent-chat-heading" className="space-y-3" data-testid="agent-chat">
      <h2 id="agent-chat-heading" className="sr-only">
        Chat
      </h2>
      <ChatMessages history={history} live={live} available={available} repo={repo} />
      <ChatComposer
        repo={repo}
        draft={draft}
        onDraft={setDraft}
        live={live}
        available={available}
        error={error}
        onSend={send}
        onStop={stop}
        files={files}
        picked={picked}
        onPick={onPick}
        selection={selection}
        onClearSelection={onClearSelection}
      />
    </section>
  );
}
