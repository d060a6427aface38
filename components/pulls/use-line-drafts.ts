"use client";
/**
 * The open comment boxes of the Files changed tab (docs/pulls.md "Comment drafts"): which lines
 * have one, and their text as drafts of components/ui/use-draft.ts under
 * `pr:<prId>:line:<side>:<start>-<end>:<path>`. A box with text stays open when another line is
 * clicked (GitHub keeps several pending boxes); an empty one moves there. After a reload the boxes
 * that had text open again at their lines (the diff viewer draws them when their row is shown).
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { clearDraft, listDrafts, readDraft, writeDraft } from "@/components/ui/use-draft";
import type { Draft } from "./review-model";

/** The draft key prefix of `prId`'s line comments. */
export function lineDraftPrefix(prId: string): string {
  return `pr:${prId}:line:`;
}

/** The draft key of a comment box on `d` (path last: it may hold colons). */
export function lineDraftKey(prId: string, d: Draft): string {
  return `${lineDraftPrefix(prId)}${d.side}:${d.start}-${d.end}:${d.path}`;
}

const KEY = /^(LEFT|RIGHT):(\d+)-(\d+):(.+)$/s;

/** The box a draft key names (null when `key` is not one of `prId`'s line drafts). */
export function parseLineDraftKey(prId: string, key: string): Draft | null {
  const prefix = lineDraftPrefix(prId);
  const m = key.startsWith(prefix) ? KEY.exec(key.slice(prefix.length)) : null;
  if (!m) return null;
  const [start, end] = [Number(m[2]), Number(m[3])];
  return start >= 1 && end >= start ? { side: m[1] as Draft["side"], start, end, path: m[4] } : null;
}

const same = (a: Draft, b: Draft) => a.path === b.path && a.side === b.side && a.start === b.start && a.end === b.end;

export interface LineDrafts {
  /** The open boxes, the active one (the one shift-click extends) last. */
  forms: Draft[];
  /** The active box, or null. */
  active: Draft | null;
  /** The box the reader just opened (focused when it mounts); null for restored ones. */
  fresh: Draft | null;
  /** Opens a box on `d`, or with `extend` grows the active one to `d` (its text moves along). */
  open: (d: Draft, extend?: boolean) => void;
  /** Closes the box on `d` and forgets its text (posted, or Cancel). */
  close: (d: Draft) => void;
  keyOf: (d: Draft) => string;
}

/** The comment boxes of pull request `prId` (see the module comment). */
export function useLineDrafts(prId: string): LineDrafts {
  const [forms, setForms] = useState<Draft[]>([]);
  const [fresh, setFresh] = useState<Draft | null>(null);
  const keyOf = useCallback((d: Draft) => lineDraftKey(prId, d), [prId]);
  // after a reload: the boxes that have text (localStorage is read after hydration)
  useEffect(() => {
    const restored = listDrafts(lineDraftPrefix(prId))
      .map((k) => parseLineDraftKey(prId, k))
      .filter((d): d is Draft => d !== null);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- browser storage is only readable after hydration
    if (restored.length) setForms((f) => [...restored.filter((r) => !f.some((x) => same(x, r))), ...f]);
  }, [prId]);
  const open = useCallback(
    (d: Draft, extend = false) => {
      setFresh(d);
      const active = forms.at(-1);
      const rest = forms.filter((x) => !same(x, d));
      if (active && !same(active, d) && (extend || !readDraft(keyOf(active)))) {
        // the active box grows (its text moves to the new range) or, empty, moves to `d`
        const text = readDraft(keyOf(active));
        if (text && !readDraft(keyOf(d))) writeDraft(keyOf(d), text);
        clearDraft(keyOf(active));
        setForms([...rest.filter((x) => !same(x, active)), d]);
      } else setForms([...rest, d]);
    },
    [forms, keyOf],
  );
  const close = useCallback(
    (d: Draft) => {
      clearDraft(keyOf(d));
      setForms((f) => f.filter((x) => !same(x, d)));
    },
    [keyOf],
  );
  return useMemo(() => ({ forms, active: forms.at(-1) ?? null, fresh, open, close, keyOf }), [forms, fresh, open, close, keyOf]);
}
