"use client";
/**
 * Linear's keyboard on the issue list (docs/ui.md "Issues" and "Keyboard shortcuts"): `j`/`k`
 * (and ↓/↑) move a focus ring through the rows (real DOM focus, one roving tab stop, scrolled
 * into view), Enter opens the focused issue, `x` selects or deselects it, Shift+X selects the
 * range from the last selected row to it, Escape clears the selection. Each row has a checkbox
 * (shown on hover, focus and selection, always on touch screens). With a selection — or when
 * `s` `p` `a` `l` `e` `d` open a picker for the focused row — the bulk-edit bar (./bulk-bar.tsx)
 * shows above the rows. The rows themselves stay server-rendered (./list-rows.tsx); this wraps them.
 */
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { isTypingTarget } from "@/components/keyboard/registry";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { cx } from "@/components/ui/styles";
import { BulkBar, type BulkData } from "./bulk-bar";
import type { Issue } from "./model";
import { usePickerKeys } from "./picker-keys";

interface Selection {
  /** Rows can be selected (writers). */
  selectable: boolean;
  tabStop: number | null;
  selected: Set<number>;
  focusRow: (n: number) => void;
  onRowFocus: (n: number) => void;
  toggle: (n: number, range: boolean) => void;
  register: (n: number, el: HTMLElement | null) => void;
}

const SelectionContext = createContext<Selection | null>(null);

/** Numbers from `a` to `b` (either order) in list order. */
function rangeOf(order: number[], a: number, b: number): number[] {
  const [i, j] = [order.indexOf(a), order.indexOf(b)].sort((x, y) => x - y);
  return i < 0 ? [b] : order.slice(i, j + 1);
}

/** The list with keyboard focus and selection; `bulk` (writers only) turns on selection and the bulk-edit bar. */
export function ListSelection({
  issues,
  hrefs,
  bulk,
  children,
}: {
  issues: Issue[];
  /** The issue page of each row, by number. */
  hrefs: Record<number, string>;
  bulk: BulkData | null;
  children: React.ReactNode;
}) {
  const router = useRouter();
  const order = issues.map((i) => i.number);
  const rows = useRef(new Map<number, HTMLElement>());
  const [focused, setFocused] = useState<number | null>(null);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  // rows that left the page (a refresh after a bulk edit) drop out of the selection
  const selected = new Set([...picked].filter((n) => order.includes(n)));
  const current = focused !== null && order.includes(focused) ? focused : null;

  const focusRow = (n: number) => {
    const el = rows.current.get(n);
    if (!el) return;
    setFocused(n);
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  };
  const step = (by: 1 | -1) => {
    if (!order.length) return;
    const at = current === null ? -1 : order.indexOf(current);
    const next = at < 0 ? (by === 1 ? 0 : order.length - 1) : Math.min(order.length - 1, Math.max(0, at + by));
    focusRow(order[next]);
  };
  const toggle = (n: number, range: boolean) => {
    if (!bulk) return;
    const next = new Set(selected);
    if (range && anchor !== null) for (const m of rangeOf(order, anchor, n)) next.add(m);
    else if (next.has(n)) next.delete(n);
    else next.add(n);
    setPicked(next);
    setAnchor(n);
  };
  const clear = () => {
    setPicked(new Set());
    setAnchor(null);
  };
  const keys = usePickerKeys({
    idPrefix: "list",
    group: "Issue list",
    enabled: () => bulk !== null && (selected.size > 0 || current !== null),
  });
  const targets = selected.size ? order.filter((n) => selected.has(n)) : keys.open && current !== null ? [current] : [];

  useShortcuts([
    { id: "list-next", keys: "j", label: "Focus the next issue", group: "Issue list", run: () => step(1) },
    { id: "list-prev", keys: "k", label: "Focus the previous issue", group: "Issue list", run: () => step(-1) },
    { id: "list-open", keys: "Enter", label: "Open the focused issue", group: "Issue list", run: () => {}, listOnly: true },
    ...(bulk
      ? [
          {
            id: "list-select",
            keys: "x",
            label: "Select or deselect the focused issue",
            group: "Issue list",
            run: () => current !== null && toggle(current, false),
            when: () => current !== null,
          },
          {
            id: "list-select-range",
            keys: "X",
            label: "Select from the last selected issue to the focused one (Shift+X)",
            group: "Issue list",
            run: () => current !== null && toggle(current, true),
            when: () => current !== null,
          },
          { id: "list-clear", keys: "Escape", label: "Clear the selection", group: "Issue list", run: clear, listOnly: true },
        ]
      : []),
  ]);

  // ↓/↑ inside the list, Enter on a row, and Escape (with a selection) from anywhere but a
  // field, menu or dialog (they have their own keys): one document listener, latest closures
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef({ step, clear, open: (n: number) => router.push(hrefs[n]), hasSelection: selected.size > 0 });
  useLayoutEffect(() => {
    latest.current = { step, clear, open: (n: number) => router.push(hrefs[n]), hasSelection: selected.size > 0 };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.metaKey || e.ctrlKey || isTypingTarget(e.target)) return;
      const l = latest.current;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (e.key === "Escape" && l.hasSelection) l.clear();
      else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && target && box.current?.contains(target)) {
        e.preventDefault();
        l.step(e.key === "ArrowDown" ? 1 : -1);
      } else if (e.key === "Enter" && target?.dataset.testid === "issue-row" && box.current?.contains(target)) {
        e.preventDefault();
        l.open(Number(target.dataset.number));
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const ctx: Selection = {
    selectable: bulk !== null,
    tabStop: current ?? order[0] ?? null,
    selected,
    focusRow,
    onRowFocus: setFocused,
    toggle,
    register: (n, el) => {
      if (el) rows.current.set(n, el);
      else rows.current.delete(n);
    },
  };
  return (
    <SelectionContext.Provider value={ctx}>
      {bulk && targets.length > 0 && (
        <BulkBar
          data={bulk}
          issues={issues.filter((i) => targets.includes(i.number))}
          selectedCount={selected.size}
          control={keys.control}
          onClear={clear}
          onDone={() => {
            if (!selected.size && current !== null) focusRow(current);
          }}
        />
      )}
      <div ref={box}>{children}</div>
    </SelectionContext.Provider>
  );
}

/** One row: focusable (roving tab stop), Enter opens it; with selection on, a checkbox labelled with the issue. */
export function SelectableRow({ number, title, children }: { number: number; title: string; children: React.ReactNode }) {
  const s = useContext(SelectionContext);
  if (!s) throw new Error("SelectableRow outside ListSelection");
  const selected = s.selected.has(number);
  const any = s.selected.size > 0;
  return (
    <li
      ref={(el) => s.register(number, el)}
      tabIndex={s.tabStop === number ? 0 : -1}
      onFocus={() => s.onRowFocus(number)}
      aria-label={`#${number} ${title}${selected ? ", selected" : ""}`}
      className={cx(
        "group flex scroll-my-16 items-start gap-3 px-4 py-3 outline-none hover:bg-muted focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring",
        selected && "bg-primary-muted/60",
      )}
      data-testid="issue-row"
      data-number={number}
      data-selected={selected || undefined}
    >
      {s.selectable && <RowCheckbox number={number} title={title} selected={selected} visible={any} />}
      {children}
    </li>
  );
}

function RowCheckbox({ number, title, selected, visible }: { number: number; title: string; selected: boolean; visible: boolean }) {
  const s = useContext(SelectionContext)!;
  return (
    <input
      type="checkbox"
      checked={selected}
      onChange={() => {}}
      onClick={(e) => s.toggle(number, e.shiftKey)}
      tabIndex={-1}
      aria-label={`Select #${number} ${title}`}
      className={cx(
        "mt-1 h-4 w-4 shrink-0 cursor-pointer accent-primary opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 focus:opacity-100 [@media(pointer:coarse)]:opacity-100",
        (selected || visible) && "opacity-100",
      )}
      data-testid="row-select"
    />
  );
}
