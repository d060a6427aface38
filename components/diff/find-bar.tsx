"use client";
/**
 * Find in diff's box (docs/pulls.md "Viewer"; `f` focuses it, docs/ui.md "Keyboard shortcuts"):
 * the query, "n of m" matches, Enter / Shift+Enter (or the arrows) for the next / previous match,
 * Escape clears. The search itself: ./use-diff-find.ts.
 */
import { useRef } from "react";
import { Input } from "@/components/ui/input";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import type { useDiffFind } from "./use-diff-find";

const arrow =
  "rounded px-1.5 py-0.5 text-muted-foreground hover:bg-accent disabled:opacity-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

export function FindBar({ find }: { find: ReturnType<typeof useDiffFind> }) {
  const input = useRef<HTMLInputElement>(null);
  useShortcuts([
    {
      id: "diff-find",
      keys: "f",
      label: "Find in diff",
      group: "Diff",
      run: () => {
        input.current?.focus();
        input.current?.select();
      },
    },
  ]);
  const { query, setQuery, matches, current, next, prev, pending, more } = find;
  const none = matches.length === 0;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" role="search" aria-label="Find in diff" data-testid="diff-find">
      <Input
        ref={input}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            if (e.shiftKey) prev();
            else next();
          } else if (e.key === "Escape" && query) {
            e.preventDefault();
            setQuery("");
          }
        }}
        placeholder="Find in diff…"
        aria-label="Find in diff"
        aria-keyshortcuts="f"
        className="h-8 w-full max-w-xs text-sm"
        data-testid="diff-find-input"
      />
      {query && (
        <>
          <span className="text-xs text-muted-foreground" aria-live="polite" data-testid="diff-find-count">
            {none ? "No matches" : `${current + 1} of ${matches.length}`}
            {pending ? " (searching files not loaded yet…)" : more ? " (some files not loaded were not searched)" : ""}
          </span>
          <button type="button" className={arrow} onClick={prev} disabled={none} aria-label="Previous match">
            ↑
          </button>
          <button type="button" className={arrow} onClick={next} disabled={none} aria-label="Next match">
            ↓
          </button>
        </>
      )}
    </div>
  );
}
