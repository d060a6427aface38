"use client";
/**
 * /<owner>/<repo>/agent (docs/agent.md): the coding agent of a repository for the signed-in
 * user. Left: the caller's sessions here and "New session". Right: the chosen session — title
 * (rename), mode, branch, delete — the chat (streamed, with a context picker) and the proposed
 * changes (review, approve, reject, approve all, open pull request, propose an edit by hand).
 * Without a model the page says so honestly (agent.status's message naming the environment
 * variables, a link to docs/agent.md) and everything but the chat still works.
 * The chosen session is in `?session=<id>`; a line range from the code browser arrives as
 * `?file=<path>&start=<n>&end=<n>` and lands in the context picker.
 */
import { useEffect, useState } from "react";
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AgentSessionView } from "@/server/services/agent/model";
import type { AgentModeInfo, AgentStatus } from "@/server/services/agent/status";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { AlertIcon } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { card, container, cx } from "@/components/ui/styles";
import { AgentChat, HISTORY_LIMIT } from "./chat";
import { ChangesPanel } from "./changes-panel";
import type { Selection } from "./context-picker";
import { NewSessionForm, SessionList } from "./sessions";

export interface AgentPageProps {
  repo: { id: string; owner: string; name: string; defaultBranch: string; isEmpty: boolean; canWrite: boolean };
  status: Pick<AgentStatus, "available" | "message" | "env" | "defaultProvider" | "defaultModel" | "source">;
  modes: AgentModeInfo[];
  sessions: AgentSessionView[];
  initialSessionId: string | null;
  initialSelection: Selection | null;
}

export function AgentPage({ repo, status, modes, sessions: initialSessions, initialSessionId, initialSelection }: AgentPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listInput = { repoId: repo.id, limit: 100 };
  const sessions = useQuery({ ...trpc.agent.listSessions.queryOptions(listInput), initialData: initialSessions });
  const list = sessions.data ?? [];
  const [selectedId, setSelectedId] = useState<string | null>(initialSessionId ?? list[0]?.id ?? null);
  const [picked, setPicked] = useState<string[]>([]);
  const [selection, setSelection] = useState<Selection | null>(initialSelection);
  const files = useQuery({
    ...trpc.repos.files.queryOptions({ repoId: repo.id, ref: repo.defaultBranch }),
    enabled: !repo.isEmpty,
    staleTime: 5 * 60_000,
  });
  const paths = files.data?.paths ?? [];
  const session = list.find((s) => s.id === selectedId) ?? null;

  // the chosen session in the address (shareable, survives a reload); the selection, once
  // read into the picker, leaves it
  useEffect(() => {
    const url = new URL(window.location.href);
    for (const k of ["file", "start", "end"]) url.searchParams.delete(k);
    if (session) url.searchParams.set("session", session.id);
    else url.searchParams.delete("session");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [session]);

  const refreshSessions = () => queryClient.invalidateQueries({ queryKey: trpc.agent.listSessions.queryKey(listInput) });
  const refreshChanges = () => {
    if (!session) return;
    void queryClient.invalidateQueries({ queryKey: trpc.agent.getPendingChanges.queryKey({ sessionId: session.id }) });
    void queryClient.invalidateQueries({
      queryKey: trpc.agent.getMessages.queryKey({ sessionId: session.id, limit: HISTORY_LIMIT, latest: true }),
    });
  };

  return (
    <div className={cx(container, "grid gap-6 py-6 lg:grid-cols-[16rem_minmax(0,1fr)]")} data-testid="agent-page">
      <aside className="min-w-0 space-y-4" aria-label="Agent sessions">
        <h1 className="text-lg font-semibold">Agent</h1>
        <SessionList sessions={list} selected={session?.id ?? null} onSelect={setSelectedId} />
        <div className={cx(card, "p-3")}>
          <NewSessionForm
            repoId={repo.id}
            modes={modes}
            onCreated={(s) => {
              queryClient.setQueryData(trpc.agent.listSessions.queryKey(listInput), (old: AgentSessionView[] | undefined) => [
                s,
                ...(old ?? []).filter((o) => o.id !== s.id),
              ]);
              setSelectedId(s.id);
              void refreshSessions();
            }}
          />
        </div>
      </aside>
      <section className="min-w-0 space-y-6" aria-label="Agent session">
        <ModelStatus status={status} />
        {session ? (
          <div key={session.id} className="space-y-6">
            <SessionHeader
              session={session}
              onRenamed={() => void refreshSessions()}
              onDeleted={() => {
                setSelectedId(null);
                void refreshSessions();
              }}
            />
            <AgentChat
              session={session}
              repo={repo}
              available={status.available}
              files={paths}
              picked={picked}
              onPick={setPicked}
              selection={selection}
              onClearSelection={() => setSelection(null)}
              onChanges={refreshChanges}
            />
            <ChangesPanel
              session={session}
              repo={repo}
              canWrite={repo.canWrite}
              files={paths}
              initialPath={selection?.file}
              onChanged={refreshChanges}
            />
          </div>
        ) : (
          <div className={cx(card, "p-6 text-sm text-muted-foreground")} data-testid="agent-no-session">
            {selection ? (
              <p data-testid="agent-pending-selection">
                Start a session to ask about{" "}
                <span className="font-mono text-foreground">
                  {selection.file}:{selection.startLine}–{selection.endLine}
                </span>
                .
              </p>
            ) : (
              <p>Start a session: choose a mode (pm for docs, plans and tickets; code for code and tests) and give it a title.</p>
            )}
          </div>
        )}
      </section>
    </div>
  );
}

/** Which model answers, or — honestly — that none is configured and what to set. */
function ModelStatus({ status }: { status: AgentPageProps["status"] }) {
  if (status.available)
    return (
      <p className="text-xs text-muted-foreground" data-testid="agent-model">
        Model: {status.defaultProvider} · {status.defaultModel}
        {status.source === "repository" ? " (this repository's key)" : ""}
      </p>
    );
  return (
    <div
      className="rounded-md border border-warning-border bg-warning-muted px-4 py-3 text-sm text-warning"
      role="status"
      data-testid="agent-unavailable"
    >
      <p className="flex items-center gap-2 font-semibold">
        <AlertIcon /> No model is configured: the agent cannot chat
      </p>
      <p className="mt-1 text-foreground first-letter:uppercase" data-testid="agent-unavailable-message">
        {status.message}
      </p>
      <p className="mt-1 text-foreground">
        Environment variables:{" "}
        {status.env.map((v, i) => (
          <span key={v}>
            {i > 0 && ", "}
            <code className="font-mono">{v}</code>
          </span>
        ))}
        .{" "}
        <Link href="/help/agent" className="font-medium text-primary underline" data-testid="agent-docs-link">
          Configuring a model (docs/agent.md)
        </Link>
      </p>
      <p className="mt-1 text-foreground">Meanwhile you can still propose edits by hand, review them and approve them into commits.</p>
    </div>
  );
}

function SessionHeader({ session, onRenamed, onDeleted }: { session: AgentSessionView; onRenamed: () => void; onDeleted: () => void }) {
  const client = useTRPCClient();
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [confirming, setConfirming] = useState(false);
  const rename = (e: React.FormEvent) => {
    e.preventDefault();
    void action.run(
      () => client.agent.updateSession.mutate({ sessionId: session.id, title: title.trim() }),
      () => {
        setEditing(false);
        onRenamed();
      },
    );
  };
  return (
    <header className="space-y-2" data-testid="session-header">
      {editing ? (
        <form onSubmit={rename} className="flex flex-wrap items-center gap-2" aria-label="Rename session">
          <Input
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
            aria-label="Session title"
            className="min-w-0 flex-1 sm:max-w-md"
            autoFocus
            data-testid="session-title-input"
          />
          <Button type="submit" size="sm" variant="primary" disabled={action.busy || !title.trim()} data-testid="session-rename-save">
            Save
          </Button>
          <Button size="sm" onClick={() => (setEditing(false), setTitle(session.title))}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="min-w-0 text-xl font-semibold [overflow-wrap:anywhere]" data-testid="session-heading">
            {session.title}
          </h2>
          <Badge tone="primary" data-testid="session-mode">
            {session.mode === "pm" ? "pm mode" : "code mode"}
          </Badge>
          <span className="ml-auto flex gap-2">
            <Button size="sm" onClick={() => setEditing(true)} data-testid="session-rename">
              Rename
            </Button>
            <Button size="sm" variant="dangerOutline" onClick={() => setConfirming(true)} data-testid="session-delete">
              Delete
            </Button>
          </span>
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        Branch{" "}
        <span className="font-mono" data-testid="session-branch">
          {session.branch}
        </span>{" "}
        (created at the first approval)
      </p>
      <FormError message={action.error} />
      <ConfirmDialog
        open={confirming}
        title="Delete this session?"
        confirmLabel="Delete session"
        busy={action.busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void action.run(
            () => client.agent.deleteSession.mutate({ sessionId: session.id }),
            () => {
              setConfirming(false);
              onDeleted();
            },
          )
        }
      >
        Its messages and proposed changes are deleted; the branch <span className="font-mono">{session.branch}</span> stays if it exists.
      </ConfirmDialog>
    </header>
  );
}
