"use client";
/**
 * The state of the triage queue (./triage.tsx): the queue, the selected issue, the open form
 * (accept or decline) and its fields, and the actions. The page's own keyboard listener lives
 * here too: j / k (or the arrows) move, a accepts, r declines, d opens the duplicate search and u
 * undoes the last action; keys typed into a field or an open picker, or pressed while a form is
 * open, are left alone. The property keys (s, p, Shift+A, l) are the shortcut registry's
 * (./triage-properties.tsx).
 * Every action takes the issue out of the queue and shows a toast with **Undo**, which puts it back
 * through the existing procedures (./triage-undo.ts).
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState, type RefObject } from "react";
import { useRouter } from "next/navigation";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { isTypingTarget } from "@/components/keyboard/registry";
import { undoTriage, type TriageAction } from "./triage-undo";
import { PRIORITIES, statusLabel, type Issue } from "./model";

/** The repository the queue belongs to. */
export type TriageRepo = { id: string; owner: string; name: string };

/** The form open under the selected issue, if any. */
export type TriageMode = null | "accept" | "reject";

/** What `done` reports after an action: the toast's text and the issue it was about. */
export type TriageNotice = { text: string; number: number };

/**
 * The triage queue's state and actions, for `repo` starting from `initial` (oldest first).
 * `canWrite`: the reader may accept, decline and mark duplicates (otherwise only j / k work).
 *
 * `keysRef`: the queue's root, marked `data-keys="on"` once the page's key listener is installed.
 *
 * Returns the queue and the `selected` issue (null when the queue is empty); `select(n)` selects
 * the n-th; `rowRef(number)` is the ref callback of a queue row (the selected row scrolls into
 * view); `mode`, `openMode(mode)` / `closeMode()`; the form fields (`status`, `priority`,
 * `reason` and their setters), `busy`, `error` and the last action's `notice`; `dupOpen` /
 * `setDupOpen` for the duplicate search; and the actions `accept(targetStatus?)` (the form's
 * status unless given: the status picker accepts into the status picked), `reject()` and
 * `duplicate(canonical)`, which report failures in `error`; `replace(issue)` puts a changed
 * issue (new priority, labels, assignee) in the queue in place of its old copy.
 */
export function useTriageQueue({
  repo,
  initial,
  canWrite,
  keysRef,
}: {
  repo: TriageRepo;
  initial: Issue[];
  canWrite: boolean;
  keysRef: RefObject<HTMLElement | null>;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [queue, setQueue] = useState(initial);
  const [index, setIndex] = useState(0);
  const [mode, setMode] = useState<TriageMode>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<TriageNotice | null>(null);
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
    (m: TriageMode) => {
      if (!selected || !canWrite) return;
      setError(null);
      setStatus("backlog");
      setPriority(selected.priority);
      setReason("");
      setMode(m);
    },
    [selected, canWrite],
  );

  // listed in the `?` sheet (components/keyboard); this hook's own listener below handles them
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

  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    // fields, and open pickers (menus and popovers have keys of their own)
    if (isTypingTarget(e.target)) return;
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
  });
  // one listener for the page's life (useEffectEvent reads this render's state); then the queue's
  // root is marked `data-keys="on"` for tests and scripts: the queue can hydrate after the page's
  // shell (<html data-shortcuts>), and its children's registrations (triage-properties) are in by now
  useEffect(() => {
    const el = keysRef.current;
    const on = (e: KeyboardEvent) => onKey(e);
    document.addEventListener("keydown", on);
    if (el) el.dataset.keys = "on";
    return () => {
      document.removeEventListener("keydown", on);
      if (el) delete el.dataset.keys;
    };
  }, [keysRef]);

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

  const accept = async (targetStatus?: string) => {
    if (!selected) return;
    setBusy(true);
    setError(null);
    try {
      const issue = await client.issues.acceptTriage.mutate({
        repoId: repo.id,
        number: selected.number,
        targetStatus: targetStatus ?? status,
        ...(targetStatus === undefined && priority ? { priority: priority as (typeof PRIORITIES)[number]["key"] } : {}),
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

  const replace = (issue: Issue) => setQueue((q) => q.map((i) => (i.number === issue.number ? issue : i)));

  const rowRef = (number: number) => (el: HTMLLIElement | null) => {
    rowRefs.current[number] = el;
  };

  return {
    queue,
    selected,
    select: setIndex,
    rowRef,
    mode,
    openMode,
    closeMode: () => setMode(null),
    status,
    setStatus,
    priority,
    setPriority,
    reason,
    setReason,
    busy,
    error,
    notice,
    dupOpen,
    setDupOpen,
    accept,
    reject,
    duplicate,
    replace,
  };
}

/** The triage queue's state and actions (what useTriageQueue returns). */
export type TriageState = ReturnType<typeof useTriageQueue>;
