"use client";
/**
 * The composer of the agent chat (./chat.tsx): the context picker, the message box (⌘/Ctrl +
 * Enter sends), the last error and Send, or Stop while a turn is streamed.
 */
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { label } from "@/components/ui/styles";
import { ContextPicker, type Selection } from "./context-picker";
import type { LiveTurn } from "./use-agent-chat";

/**
 * `draft` / `onDraft`: the message box; `live`: the turn being streamed (Stop instead of Send);
 * `available`: a model is configured (otherwise the box is off); `onSend` / `onStop`; `error`: the
 * last failure; the context picker's props (`files`, `picked`, `onPick`, `selection`,
 * `onClearSelection`) as in ./context-picker.tsx.
 */
export function ChatComposer(props: {
  repo: { owner: string; name: string; defaultBranch: string };
  draft: string;
  onDraft: (draft: string) => void;
  live: LiveTurn | null;
  available: boolean;
  error: string | null;
  onSend: (e?: React.FormEvent) => void;
  onStop: () => void;
  files: string[];
  picked: string[];
  onPick: (files: string[]) => void;
  selection: Selection | null;
  onClearSelection: () => void;
}) {
  const { repo, draft, onDraft, live, available, error, onSend, onStop } = props;
  return (
    <form onSubmit={onSend} className="space-y-2" data-testid="agent-composer">
      <ContextPicker
        repo={repo}
        files={props.files}
        picked={props.picked}
        onPick={props.onPick}
        selection={props.selection}
        onClearSelection={props.onClearSelection}
      />
      <label htmlFor="agent-message" className={label}>
        Message
      </label>
      <Textarea
        id="agent-message"
        value={draft}
        onChange={(e) => onDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) onSend();
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
          <Button variant="dangerOutline" onClick={onStop} data-testid="agent-stop">
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
  );
}
