"use client";
/**
 * The sessions column of the agent page (docs/agent.md "Sessions"): the caller's sessions in this
 * repository, newest first, and "New session" (mode pm or code, optional title; the server's
 * default title names the mode). Picking a session shows it; its header renames and deletes it.
 */
import { useState } from "react";
import type { AgentSessionView } from "@/server/services/agent/model";
import type { AgentModeInfo } from "@/server/services/agent/status";
import { useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input, NativeSelect } from "@/components/ui/input";
import { relativeTime } from "@/components/ui/format";
import { card, cx } from "@/components/ui/styles";

export function NewSessionForm({
  repoId,
  modes,
  onCreated,
}: {
  repoId: string;
  modes: AgentModeInfo[];
  onCreated: (s: AgentSessionView) => void;
}) {
  const client = useTRPCClient();
  const action = useAction();
  const [mode, setMode] = useState<"pm" | "code">("code");
  const [title, setTitle] = useState("");
  const info = modes.find((m) => m.id === mode);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    let created: AgentSessionView | null = null;
    void action.run(
      async () => {
        created = await client.agent.createSession.mutate({ repoId, mode, ...(title.trim() ? { title: title.trim() } : {}) });
      },
      () => {
        setTitle("");
        if (created) onCreated(created);
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-2" data-testid="new-session-form" aria-label="New session">
      <Field label="Mode" hint={info?.description}>
        <NativeSelect value={mode} onChange={(e) => setMode(e.target.value as "pm" | "code")} data-testid="new-session-mode">
          {modes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} ({m.id})
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Title (optional)">
        <Input
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={200}
          placeholder="e.g. Tidy the parser"
          data-testid="new-session-title"
        />
      </Field>
      <FormError message={action.error} />
      <Button type="submit" variant="primary" className="w-full" disabled={action.busy} data-testid="new-session-submit">
        {action.busy ? "Starting…" : "New session"}
      </Button>
    </form>
  );
}

export function SessionList({
  sessions,
  selected,
  onSelect,
}: {
  sessions: AgentSessionView[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  if (sessions.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-sessions">
        No sessions yet.
      </p>
    );
  return (
    <ul
      className={cx(card, "max-h-80 divide-y divide-border overflow-y-auto lg:max-h-[60vh]")}
      aria-label="Sessions"
      data-testid="session-list"
    >
      {sessions.map((s) => (
        <li key={s.id}>
          <button
            type="button"
            onClick={() => onSelect(s.id)}
            aria-current={s.id === selected ? "true" : undefined}
            className={cx(
              "block w-full px-3 py-2 text-left text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring",
              s.id === selected && "bg-accent",
            )}
            data-testid="session-item"
          >
            <span className="block truncate font-medium" data-testid="session-title">
              {s.title}
            </span>
            <span className="mt-0.5 flex items-center gap-2 text-xs text-muted-foreground">
              <Badge tone="neutral" className="px-1.5 py-0">
                {s.mode}
              </Badge>
              <time dateTime={s.updatedAt} suppressHydrationWarning>
                {relativeTime(s.updatedAt)}
              </time>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
