"use client";
/**
 * Issue search combobox (by number or title, for parent, relations and duplicate, instead of
 * typing #N; docs/ui.md "Issues"): a trigger opening a popover with a search box;
 * typing searches the server (`issues.list {titleSearch}`: title contains, or `12`/`#12` is the
 * number), debounced 200 ms, 10 results; with an empty box the 10 newest open issues show. Arrow
 * keys and Enter pick (cmdk). Issues in `exclude` (this issue, already related ones) are left out.
 */
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { cx } from "@/components/ui/styles";
import type { Issue } from "./model";
import { StatusIcon } from "./ui";

/** Milliseconds between the last keystroke and the search request. */
export const SEARCH_DEBOUNCE_MS = 200;

/** The issues matching `query` (server-side), newest first; stale answers are dropped. */
function useIssueSearch(repoId: string, query: string, enabled: boolean) {
  const client = useTRPCClient();
  const [results, setResults] = useState<{ query: string; issues: Issue[] }>({ query: "", issues: [] });
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  useEffect(() => {
    if (!enabled) return;
    const mine = ++seq.current;
    setLoading(true);
    const q = query.trim();
    const timer = setTimeout(
      () => {
        client.issues.list
          .query(q ? { repoId, titleSearch: q.slice(0, 100), limit: 10 } : { repoId, state: "open", limit: 10 })
          .then((r) => mine === seq.current && setResults({ query: q, issues: r }))
          .catch(() => mine === seq.current && setResults({ query: q, issues: [] }))
          .finally(() => mine === seq.current && setLoading(false));
      },
      q ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [client, repoId, query, enabled]);
  // never offer the previous query's answer for the new one (Enter would pick a stale row)
  return { results: results.query === query.trim() ? results.issues : [], loading };
}

/** The trigger (`children`, test id `testId`) and its search popover; `onPick` gets the chosen issue and the popover closes. */
export function IssueSearch({
  repoId,
  exclude,
  onPick,
  label,
  children,
  testId,
  className,
  open: openProp,
  onOpenChange,
  nameTriggerByContent,
  invalid,
  describedBy,
}: {
  repoId: string;
  /** Issue numbers not offered. */
  exclude: number[];
  onPick: (issue: Issue) => void;
  /** Accessible name of the trigger and the search box, e.g. "Set parent issue". */
  label: string;
  /** The trigger's content. */
  children: React.ReactNode;
  /** The trigger is named by its own text (e.g. "Duplicate"), not `label`, which still names the search box. */
  nameTriggerByContent?: boolean;
  testId: string;
  className?: string;
  /** Controlled open state (e.g. opened by a keyboard shortcut); uncontrolled without it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The last pick was refused: `aria-invalid` on the trigger, described by the element `describedBy` (the error text). */
  invalid?: boolean;
  describedBy?: string;
}) {
  const [openState, setOpenState] = useState(false);
  const open = openProp ?? openState;
  const setOpen = (o: boolean) => (setOpenState(o), onOpenChange?.(o));
  const [query, setQuery] = useState("");
  const { results, loading } = useIssueSearch(repoId, query, open);
  const shown = results.filter((i) => !exclude.includes(i.number));
  return (
    <Popover open={open} onOpenChange={(o) => (setOpen(o), o || setQuery(""))}>
      <PopoverTrigger
        className={cx(
          "rounded-md text-left text-xs text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          className,
        )}
        aria-label={nameTriggerByContent ? undefined : label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      >
        {children}
      </PopoverTrigger>
      <PopoverContent className="w-80 p-0" data-testid={`${testId}-menu`}>
        <Command shouldFilter={false}>
          <CommandInput
            value={query}
            onValueChange={setQuery}
            placeholder="Search by title or #number"
            aria-label={label}
            data-testid="issue-search-input"
          />
          <CommandList aria-busy={loading}>
            {!loading && <CommandEmpty>No issues found.</CommandEmpty>}
            {loading && shown.length === 0 && <div className="px-2 py-3 text-center text-sm text-subtle-foreground">Searching…</div>}
            {shown.map((i) => (
              <CommandItem
                key={i.id}
                value={String(i.number)}
                onSelect={() => {
                  setOpen(false);
                  setQuery("");
                  onPick(i);
                }}
                data-testid="issue-search-option"
                data-number={i.number}
              >
                <StatusIcon status={i.status} className="h-3.5! w-3.5!" />
                <span className="shrink-0 text-subtle-foreground">#{i.number}</span>
                <span className="min-w-0 flex-1 truncate">{i.title}</span>
              </CommandItem>
            ))}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
