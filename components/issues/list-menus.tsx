"use client";
/**
 * The issue list's search box, filter menus and sort menu (docs/ui.md "Issues"). Every control
 * rewrites the one search query (`?q=`, components/issues/query-state.ts), so the box always shows
 * what the menus chose and the menus always show what the box says, as on GitHub. Status and
 * priority are DropdownMenus with checkbox items; labels, assignee and author are Popover + Command
 * pickers that filter as you type; sort is a DropdownMenu radio group.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Input } from "@/components/ui/input";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { CheckIcon, ChevronDownIcon, SearchIcon } from "@/components/ui/icons";
import { parseIssueQuery } from "@/lib/issues/search-query";
import { PRIORITIES, STATUSES } from "./model";
import { SORT_OPTIONS, listHref, menuValues, withMenuValues, withSort, type MenuField } from "./query-state";

export interface Option {
  value: string;
  label: string;
  color?: string;
}

/** Navigates the list to query `q` (page 1), keeping the open view. */
function useGo(base: string, view: string | null) {
  const router = useRouter();
  return (q: string) => router.push(listHref(base, { q, view }));
}

const trigger =
  "inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[active=true]:font-semibold data-[active=true]:text-foreground";

/** The search box: Enter (or the button) runs the query; bad qualifiers are listed under it. */
export function SearchBox({ q, base, view }: { q: string; base: string; view: string | null }) {
  const go = useGo(base, view);
  const [text, setText] = useState(q);
  // a menu changed the query: show it (adjusted while rendering, so no frame shows the old text)
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }
  const errors = parseIssueQuery(text).errors;
  return (
    <form
      role="search"
      className="min-w-0 flex-1"
      onSubmit={(e) => {
        e.preventDefault();
        go(text.trim());
      }}
    >
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-subtle-foreground" />
        <Input
          name="q"
          value={text}
          maxLength={256}
          onChange={(e) => setText(e.target.value)}
          aria-label="Search issues"
          placeholder="is:open label:bug author:@me …"
          className="w-full pl-8!"
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={errors.length ? "issue-search-errors" : undefined}
          data-shortcut="search"
          aria-keyshortcuts="/"
          data-testid="issue-search"
        />
      </div>
      {errors.length > 0 && (
        <ul id="issue-search-errors" className="mt-1 text-xs text-danger" data-testid="issue-search-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </form>
  );
}

/** A checkbox DropdownMenu over a fixed list (status, priority). */
function CheckMenu({
  label,
  field,
  options,
  q,
  go,
}: {
  label: string;
  field: MenuField;
  options: Option[];
  q: string;
  go: (q: string) => void;
}) {
  const chosen = menuValues(q, field);
  const toggle = (v: string, on: boolean) => go(withMenuValues(q, field, on ? [...chosen, v] : chosen.filter((x) => x !== v)));
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={trigger} data-active={chosen.length > 0} data-testid={`filter-${field}`}>
        {label}
        {chosen.length > 0 && ` (${chosen.length})`} <ChevronDownIcon />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" data-testid={`filter-${field}-menu`}>
        <DropdownMenuLabel>Filter by {label.toLowerCase()}</DropdownMenuLabel>
        {options.map((o) => (
          <DropdownMenuCheckboxItem
            key={o.value}
            checked={chosen.includes(o.value)}
            onCheckedChange={(on) => toggle(o.value, on === true)}
            onSelect={(e) => e.preventDefault()}
            data-testid="filter-option"
            data-option={o.value}
          >
            {o.color && <span className="h-2.5 w-2.5 rounded-full" style={{ background: o.color }} aria-hidden />}
            {o.label}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A searchable multi-select (Popover + Command) over labels or users; `noneLabel` adds no:… */
function PickMenu({
  label,
  field,
  options,
  q,
  go,
  noneLabel,
  extra,
}: {
  label: string;
  field: MenuField;
  options: Option[];
  q: string;
  go: (q: string) => void;
  noneLabel?: string;
  extra?: Option[];
}) {
  const chosen = menuValues(q, field);
  const noField = field === "labels" ? "label" : "assignee";
  const none = noneLabel ? parseIssueQuery(q).filters.no.includes(noField) : false;
  // values in the query that are not in the list (typed by hand) still show, checked
  const known: Option[] = [...(extra ?? []), ...options];
  const all: Option[] = [...known, ...chosen.filter((c) => !known.some((o) => o.value === c)).map((c) => ({ value: c, label: c }))];
  const toggle = (v: string) => go(withMenuValues(q, field, chosen.includes(v) ? chosen.filter((x) => x !== v) : [...chosen, v], false));
  const active = chosen.length > 0 || none;
  return (
    <Popover>
      <PopoverTrigger className={trigger} data-active={active} data-testid={`filter-${field}`}>
        {label}
        {active && ` (${chosen.length + (none ? 1 : 0)})`} <ChevronDownIcon />
      </PopoverTrigger>
      <PopoverContent align="end" className="w-64 p-0" data-testid={`filter-${field}-menu`}>
        <Command>
          <CommandInput placeholder={`Filter ${label.toLowerCase()}`} aria-label={`Filter ${label.toLowerCase()}`} />
          <CommandList>
            <CommandEmpty>No matches.</CommandEmpty>
            {noneLabel && (
              <CommandItem
                value={`__none__ ${noneLabel}`}
                onSelect={() => go(withMenuValues(q, field, [], !none))}
                data-testid="filter-option"
                data-option="__none__"
              >
                <span className="min-w-0 flex-1 truncate text-muted-foreground">{noneLabel}</span>
                {none && <CheckIcon className="text-primary" />}
              </CommandItem>
            )}
            {all.map((o) => (
              <CommandItem
                key={o.value}
                value={`${o.label} ${o.value}`}
                onSelect={() => toggle(o.value)}
                data-testid="filter-option"
                data-option={o.value}
              >
                {o.color && <span className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: o.color }} aria-hidden />}
                <span className="min-w-0 flex-1 truncate">{o.label}</span>
                {chosen.includes(o.value) && <CheckIcon className="text-primary" />}
              </CommandItem>
            ))}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}

/** The filter menus and the sort menu, in GitHub's order. */
export function FilterMenus({
  q,
  base,
  view,
  labels,
  users,
  signedIn,
}: {
  q: string;
  base: string;
  view: string | null;
  labels: Option[];
  users: Option[];
  signedIn: boolean;
}) {
  const go = useGo(base, view);
  const me = signedIn ? [{ value: "@me", label: "Me (@me)" }] : [];
  const sort = parseIssueQuery(q).filters.sort ?? "created-desc";
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid="issue-filters">
      <PickMenu label="Author" field="authors" options={users} extra={me} q={q} go={go} />
      <PickMenu label="Labels" field="labels" options={labels} q={q} go={go} noneLabel="No labels" />
      <CheckMenu
        label="Status"
        field="statuses"
        options={STATUSES.map((s) => ({ value: s.key, label: s.label, color: s.color }))}
        q={q}
        go={go}
      />
      <CheckMenu label="Priority" field="priorities" options={PRIORITIES.map((p) => ({ value: p.key, label: p.label }))} q={q} go={go} />
      <PickMenu label="Assignee" field="assignees" options={users} extra={me} q={q} go={go} noneLabel="Assigned to nobody" />
      <DropdownMenu>
        <DropdownMenuTrigger className={trigger} data-active={sort !== "created-desc"} data-testid="sort-menu">
          Sort: {SORT_OPTIONS.find((o) => o.key === sort)?.label ?? sort} <ChevronDownIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" data-testid="sort-menu-content">
          <DropdownMenuLabel>Sort by</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={sort} onValueChange={(v) => go(withSort(q, v as typeof sort))}>
            {SORT_OPTIONS.map((o) => (
              <DropdownMenuRadioItem key={o.key} value={o.key} data-testid="sort-option" data-value={o.key}>
                {o.label}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
