"use client";
/**
 * Triage queue (issues.listTriage, oldest first) with keyboard shortcuts: j / k move, a accepts
 * (into Backlog, or a chosen status and priority), r rejects (asks for the required reason),
 * d marks as a duplicate (issue search), u undoes the last action, ? shows or hides the shortcuts.
 * Every action shows a toast with **Undo** (issue #7), which puts the issue back into triage
 * through the existing procedures (./triage-undo.ts). Readers see the queue without the actions.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { IssueSearch } from "./issue-search";
import { undoTriage, type TriageAction } from "./triage-undo";
import { button, card, cx } from "@/components/ui/styles";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { IssueMarkdown } from "./markdown";
import { PRIORITIES, STATUSES, issueUrl, statusLabel, type Issue } from "./model";
import { LabelChip, PriorityIcon, StatusIcon, TimeAgo, priorityLabel } from "./ui";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";

type RepoRef = { id: string; owner: string; name: string };
type Mode = null | "accept" | "reject";

/** A key cap; inside a button it is decorative (`decorative`: the button names its key in aria-keyshortcuts). */
const Kbd = ({ children, decorative }: { children: React.ReactNode; decorative?: boolean }) => (
  <kbd
    aria-hidden={decorative || undefined}
    className="inline-flex min-w-5 items-center justify-center rounded border border-input bg-card px-1 font-mono text-xs text-muted-foreground shadow-[0_1px_0_var(--input)]"
  >
    {children}
  </kbd>
);

export function TriageQueue({ repo, initial, canWrite }: { repo: RepoRef; initial: Issue[]; canWrite: boolean }) {
  const client = useTRPCClient();
  const router = useRouter();
  const [queue, setQueue] = useState(initial);
  const [index, setIndex] = useState(0);
  const [mode, setMode] = useState<Mode>(null);
  const help = true; // `?` opens the site-wide shortcut sheet, which lists these keys too
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; number: number } | null>(null);
  const [status, setStatus] = useState("backlog");
  const [priority, setPriority] = useState("");
  const [reason, setReason] = useState("");
  const selected = queue[Math.min(index, queue.length - 1)] ?? null;
  const rowRefs = useRef<Record<number, HTMLLIElement | null>>({});
  const [dupOpen, setDupOpen] = useState(false);
  const last = useRef<TriageAction | null>(null);

  /** Puts the issue of `action` back into the queue (server first); the toast says how it went. */
  const undo = useCallback(
    async (action: TriageAction) => {
      if (last.current === action) last.current = null;
      try {
        await undoTriage(client, repo.id, action);
        setQueue((q) => [...q.filter((i) => i.number !== action.issue.number), action.issue].sort((a, b) => a.number - b.number));
        setNotice(null);
        toast(`#${action.issue.number} is back in Triage`);
        router.refresh();
      } catch (e) {
        toast.error(`Could not undo: ${errorMessage(e)}`);
      }
    },
    [client, repo.id, router],
  );

  const openMode = useCallback(
    (m: Mode) => {
      if (!selected || !canWrite) return;
      setError(null);
      setStatus("backlog");
      setPriority(selected.priority);
      setReason("");
      setMode(m);
    },
    [selected, canWrite],
  );

  // listed in the `?` sheet (components/keyboard); this page's own listener below handles them
  useShortcuts([
    { id: "triage-next", keys: "j", label: "Next issue", group: "Triage", listOnly: true, run: () => {} },
    { id: "triage-previous", keys: "k", label: "Previous issue", group: "Triage", listOnly: true, run: () => {} },
    ...(canWrite
      ? [
          { id: "triage-accept", keys: "a", label: "Accept", group: "Triage", listOnly: true, run: () => {} },
          { id: "triage-decline", keys: "r", label: "Decline, with a reason", group: "Triage", listOnly: true, run: () => {} },
          { id: "triage-duplicate", keys: "d", label: "Mark as duplicate", group: "Triage", listOnly: true, run: () => {} },
          { id: "triage-undo", keys: "u", label: "Undo the last action", group: "Triage", listOnly: true, run: () => {} },
        ]
      : []),
  ]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
      if (mode) return;
      if (e.key === "j" || e.key === "ArrowDown") {
        e.preventDefault();
        setIndex((i) => Math.min(i + 1, Math.max(queue.length - 1, 0)));
      } else if (e.key === "k" || e.key === "ArrowUp") {
        e.preventDefault();
        setIndex((i) => Math.max(i - 1, 0));
      } else if (e.key === "a") {
        e.preventDefault();
        openMode("accept");
      } else if (e.key === "r") {
        e.preventDefault();
        openMode("reject");
      } else if (e.key === "d" && selected && canWrite) {
        e.preventDefault();
        setDupOpen(true);
      } else if (e.key === "u" && last.current) {
        e.preventDefault();
        void undo(last.current);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [mode, queue.length, openMode, selected, canWrite, undo]);

  useEffect(() => {
    if (selected) rowRefs.current[selected.number]?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  /** Takes the issue out of the queue and offers Undo (toast button, or the `u` key). */
  const done = (action: TriageAction, text: string) => {
    const number = action.issue.number;
    setQueue((q) => q.filter((i) => i.number !== number));
    setIndex((i) => Math.max(0, Math.min(i, queue.length - 2)));
    setMode(null);
    setNotice({ text, number });
    last.current = action;
    toast(text, { action: { label: "Undo", onClick: () => void undo(action) }, duration: 10_000 });
    router.refresh();
  };

  const duplicate = async (canonical: Issue) => {
    if (!selected) return;
    try {
      await client.issues.markAsDuplicate.mutate({ repoId: repo.id, duplicateNumber: selected.number, canonicalNumber: canonical.number });
      done(
        { kind: "duplicate", issue: selected, canonicalNumber: canonical.number },
        `Marked #${selected.number} as a duplicate of #${canonical.number}`,
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const accept = async () => {
    if (!selected) return;
    setBusy(true);
    setError(null);
    try {
      const issue = await client.issues.acceptTriage.mutate({
        repoId: repo.id,
        number: selected.number,
        targetStatus: status,
        ...(priority ? { priority: priority as (typeof PRIORITIES)[number]["key"] } : {}),
      });
      done({ kind: "accept", issue: selected }, `Accepted #${selected.number} into ${statusLabel(issue.status)}`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const reject = async () => {
    if (!selected) return;
    if (!reason.trim()) return setError("a reason is required to decline an issue");
    setBusy(true);
    setError(null);
    try {
      await client.issues.rejectTriage.mutate({ repoId: repo.id, number: selected.number, reason: reason.trim() });
      done({ kind: "decline", issue: selected }, `Declined #${selected.number}`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[22rem_1fr]" data-testid="triage">
      <div className="space-y-3">
        <div className={card}>
          <div className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2.5 text-sm">
            <StatusIcon status="triage" />
            <h1 className="font-semibold text-foreground">Triage</h1>
            <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground" data-testid="triage-count">
              {queue.length}
            </span>
          </div>
          {queue.length === 0 ? (
            <p className="px-4 py-10 text-center text-sm text-subtle-foreground" data-testid="triage-empty">
              Triage is empty. New issues from people without write access land here.
            </p>
          ) : (
            <ul className="max-h-[60vh] divide-y divide-border overflow-y-auto" role="listbox" aria-label="Issues awaiting triage">
              {queue.map((i, n) => (
                <li
                  key={i.id}
                  ref={(el) => {
                    rowRefs.current[i.number] = el;
                  }}
                  role="option"
                  aria-selected={selected?.number === i.number}
                  onClick={() => setIndex(n)}
                  className={cx(
                    "cursor-pointer border-l-2 px-4 py-2.5 text-sm",
                    selected?.number === i.number ? "border-primary bg-primary-muted/60" : "border-transparent hover:bg-muted",
                  )}
                  data-testid="triage-item"
                  data-number={i.number}
                  data-selected={selected?.number === i.number ? "true" : undefined}
                >
                  <div className="flex items-center gap-2">
                    <PriorityIcon priority={i.priority} />
                    <span className="min-w-0 flex-1 truncate font-medium text-foreground">{i.title}</span>
                  </div>
                  <div className="mt-0.5 pl-6 text-xs text-subtle-foreground">
                    #{i.number} · {i.author?.username ?? "someone"} · <TimeAgo iso={i.createdAt} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
        {help && (
          <div className={cx(card, "px-4 py-3 text-sm text-muted-foreground")} data-testid="triage-shortcuts">
            <div className="mb-2 text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Keyboard shortcuts</div>
            <ul className="space-y-1.5">
              <li className="flex items-center gap-2">
                <Kbd>j</Kbd> <Kbd>k</Kbd> next / previous issue
              </li>
              {canWrite && (
                <>
                  <li className="flex items-center gap-2">
                    <Kbd>a</Kbd> accept (Backlog, or choose status and priority)
                  </li>
                  <li className="flex items-center gap-2">
                    <Kbd>r</Kbd> decline, with a reason
                  </li>
                  <li className="flex items-center gap-2">
                    <Kbd>d</Kbd> mark as duplicate of…
                  </li>
                  <li className="flex items-center gap-2">
                    <Kbd>u</Kbd> undo the last action
                  </li>
                  <li className="flex items-center gap-2">
                    <Kbd>Enter</Kbd> confirm · <Kbd>Esc</Kbd> cancel
                  </li>
                </>
              )}
              <li className="flex items-center gap-2">
                <Kbd>?</Kbd> hide these shortcuts
              </li>
            </ul>
          </div>
        )}
      </div>

      <div className="min-w-0 space-y-3">
        {notice && (
          <div
            className="flex items-center gap-2 rounded-md border border-primary-border bg-primary-muted px-3 py-2 text-sm text-primary"
            role="status"
            data-testid="triage-notice"
          >
            {notice.text}.{" "}
            <Link href={issueUrl(repo.owner, repo.name, notice.number)} className="font-medium underline">
              Open #{notice.number}
            </Link>
          </div>
        )}
        {!canWrite && (
          <p className="text-sm text-subtle-foreground">You can follow the queue; accepting and declining issues needs write access.</p>
        )}
        {selected ? (
          <div className={card} data-testid="triage-selected" data-number={selected.number}>
            <div className="border-b border-border px-5 py-4">
              <div className="flex flex-wrap items-start gap-3">
                <h2 className="min-w-0 flex-1 text-lg font-semibold text-foreground">
                  <Link href={issueUrl(repo.owner, repo.name, selected.number)} className="hover:text-primary">
                    {selected.title}
                  </Link>{" "}
                  <span className="font-normal text-subtle-foreground">#{selected.number}</span>
                </h2>
                {canWrite && (
                  <div className="flex gap-2">
                    <button
                      type="button"
                      className={button.primary}
                      onClick={() => openMode("accept")}
                      aria-keyshortcuts="a"
                      data-testid="triage-accept"
                    >
                      Accept <Kbd decorative>a</Kbd>
                    </button>
                    <button
                      type="button"
                      className={button.dangerOutline}
                      onClick={() => openMode("reject")}
                      aria-keyshortcuts="r"
                      data-testid="triage-reject"
                    >
                      Decline <Kbd decorative>r</Kbd>
                    </button>
                    <IssueSearch
                      repoId={repo.id}
                      exclude={[selected.number]}
                      label={`Mark #${selected.number} as a duplicate of`}
                      testId="triage-duplicate"
                      nameTriggerByContent
                      className={cx(button.secondary, "text-sm! text-foreground! hover:no-underline!")}
                      open={dupOpen}
                      onOpenChange={setDupOpen}
                      onPick={(c) => void duplicate(c)}
                    >
                      Duplicate <Kbd decorative>d</Kbd>
                    </IssueSearch>
                  </div>
                )}
              </div>
              <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-subtle-foreground">
                <span>
                  opened by <strong className="font-medium text-muted-foreground">{selected.author?.username ?? "someone"}</strong>{" "}
                  <TimeAgo iso={selected.createdAt} />
                </span>
                <span className="flex items-center gap-1">
                  <PriorityIcon priority={selected.priority} className="h-3.5! w-3.5!" /> {priorityLabel(selected.priority)}
                </span>
                {selected.labels.map((l) => (
                  <LabelChip key={l.id} label={l} />
                ))}
              </div>
            </div>

            {mode === "accept" && (
              <form
                method="post"
                className="space-y-3 border-b border-border bg-primary-muted/50 px-5 py-4"
                onSubmit={(e) => {
                  e.preventDefault();
                  void accept();
                }}
                onKeyDown={(e) => e.key === "Escape" && setMode(null)}
                data-testid="accept-form"
              >
                <div className="flex flex-wrap gap-3">
                  <Field label="Status" className="w-44">
                    <NativeSelect value={status} onChange={(e) => setStatus(e.target.value)} data-testid="accept-status">
                      {STATUSES.filter((s) => s.key !== "triage").map((s) => (
                        <option key={s.key} value={s.key}>
                          {s.label}
                        </option>
                      ))}
                    </NativeSelect>
                  </Field>
                  <Field label="Priority" className="w-44">
                    <NativeSelect value={priority} onChange={(e) => setPriority(e.target.value)} data-testid="accept-priority">
                      {PRIORITIES.map((p) => (
                        <option key={p.key} value={p.key}>
                          {p.label}
                        </option>
                      ))}
                    </NativeSelect>
                  </Field>
                </div>
                <FormError message={error} />
                <div className="flex gap-2">
                  <Button type="submit" variant="primary" disabled={busy} autoFocus data-testid="accept-confirm">
                    Accept into {statusLabel(status)}
                  </Button>
                  <Button variant="ghost" onClick={() => setMode(null)}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
            {mode === "reject" && (
              <form
                method="post"
                className="space-y-3 border-b border-border bg-danger-muted/50 px-5 py-4"
                onSubmit={(e) => {
                  e.preventDefault();
                  void reject();
                }}
                onKeyDown={(e) => e.key === "Escape" && setMode(null)}
                data-testid="reject-form"
              >
                <Field label="Reason (posted as a comment)" error={error}>
                  <Input
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    placeholder="e.g. Works as intended"
                    autoFocus
                    data-testid="reject-reason"
                  />
                </Field>
                <div className="flex gap-2">
                  <Button type="submit" variant="danger" disabled={busy || !reason.trim()} data-testid="reject-confirm">
                    Decline issue
                  </Button>
                  <Button variant="ghost" onClick={() => setMode(null)}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
            <div className="px-5 py-4">
              {selected.body?.trim() ? (
                <IssueMarkdown source={selected.body} repo={repo} />
              ) : (
                <p className="text-sm italic text-subtle-foreground">No description provided.</p>
              )}
            </div>
          </div>
        ) : (
          <div className={cx(card, "px-5 py-12 text-center text-sm text-subtle-foreground")}>Nothing to triage.</div>
        )}
      </div>
    </div>
  );
}
