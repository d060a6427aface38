"use client";
/**
 * The command menu (⌘K / Ctrl+K, or the search button in the top bar): cmdk in a Radix dialog.
 * Jumps to your repositories (`repos.list {member: true}`), to issues of the current repository
 * (its 100 newest from `issues.list`, filtered as you type by number or title; after a 200 ms
 * pause a typed number also asks `issues.list {numbers: [n]}` and other text
 * `issues.list {titleSearch}`, so older issues are found by either), and
 * runs actions (new issue, new repository, go to board/issues/code, settings, theme, sign out).
 * Arrow keys, Enter and Escape work throughout (cmdk + Radix).
 */
import { useEffect, useMemo, useState } from "react";
import { useRouter, usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { Dialog as D } from "radix-ui";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { RepoIcon, LockIcon, SearchIcon } from "@/components/ui/icons";
import { StatusIcon } from "@/components/issues/ui";
import { applyTheme } from "@/components/theme/theme-toggle";
import { useTRPC } from "@/components/trpc/provider";
import { forgetAllDrafts } from "@/components/ui/use-draft";
import { repoFromPath } from "./repo-path";

/** The value of `text` after it has stopped changing for `ms` milliseconds. */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

interface Action {
  id: string;
  label: string;
  run: () => void;
}

export function CommandMenu({
  open,
  onOpenChange,
  signedIn,
  onShowShortcuts,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  signedIn: boolean;
  onShowShortcuts: () => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname() ?? "/";
  const here = repoFromPath(pathname);
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search.trim(), 200);
  // closing clears the search
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setSearch("");
  }

  const repos = useQuery(trpc.repos.list.queryOptions({ member: true, limit: 100 }, { enabled: open && signedIn }));
  const repo = useQuery(
    trpc.repos.get.queryOptions({ owner: here?.owner ?? "", name: here?.repo ?? "" }, { enabled: open && !!here, retry: false }),
  );
  const repoId = repo.data?.id;
  const recent = useQuery(trpc.issues.list.queryOptions({ repoId: repoId ?? "", limit: 100 }, { enabled: open && !!repoId }));
  const numberTyped = /^#?(\d{1,9})$/.exec(debounced)?.[1];
  const byNumber = useQuery(
    trpc.issues.list.queryOptions(
      { repoId: repoId ?? "", numbers: [Number(numberTyped ?? 0)], limit: 1 },
      { enabled: open && !!repoId && !!numberTyped && Number(numberTyped) > 0 },
    ),
  );

  const textTyped = !numberTyped && debounced.length >= 2 ? debounced.slice(0, 100) : "";
  const byTitle = useQuery(
    trpc.issues.list.queryOptions(
      { repoId: repoId ?? "", titleSearch: textTyped, limit: 20 },
      { enabled: open && !!repoId && !!textTyped },
    ),
  );

  const issues = useMemo(() => {
    const all = new Map<number, { number: number; title: string; status: string }>();
    for (const i of [...(byNumber.data ?? []), ...(byTitle.data ?? []), ...(recent.data ?? [])]) all.set(i.number, i);
    return [...all.values()];
  }, [recent.data, byNumber.data, byTitle.data]);

  function go(href: string) {
    onOpenChange(false);
    router.push(href);
  }

  const actions: Action[] = [];
  if (here) {
    const base = here.base;
    actions.push(
      { id: "new-issue", label: "New issue", run: () => go(`${base}/issues/new`) },
      { id: "go-code", label: "Go to code", run: () => go(base) },
      { id: "go-issues", label: "Go to issues", run: () => go(`${base}/issues`) },
      { id: "go-board", label: "Go to board", run: () => go(`${base}/issues/board`) },
    );
    if (repo.data?.permission === "admin")
      actions.push({ id: "repo-settings", label: "Repository settings", run: () => go(`${base}/settings`) });
  }
  if (signedIn) {
    actions.push(
      { id: "new-repo", label: "New repository", run: () => go("/new") },
      { id: "dashboard", label: "Go to dashboard", run: () => go("/") },
      { id: "inbox", label: "Go to inbox", run: () => go("/inbox") },
      { id: "settings", label: "Settings: access tokens", run: () => go("/settings/tokens") },
    );
  }
  actions.push(
    {
      id: "theme",
      label: "Toggle dark theme",
      run: () => {
        const root = document.documentElement;
        const dark =
          root.classList.contains("dark") ||
          (!root.classList.contains("light") && window.matchMedia("(prefers-color-scheme: dark)").matches);
        applyTheme(dark ? "light" : "dark");
        onOpenChange(false);
      },
    },
    {
      id: "shortcuts",
      label: "Keyboard shortcuts",
      run: () => {
        onOpenChange(false);
        onShowShortcuts();
      },
    },
  );
  if (signedIn) actions.push({ id: "sign-out", label: "Sign out", run: () => (forgetAllDrafts(), void signOut({ callbackUrl: "/" })) });

  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <D.Content
          className="fixed left-1/2 top-[12vh] z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border border-border bg-popover text-foreground shadow-xl focus:outline-none"
          data-testid="command-menu"
          aria-describedby={undefined}
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <D.Title className="sr-only">Command menu</D.Title>
          <Command label="Search commands" loop>
            <CommandInput
              value={search}
              onValueChange={setSearch}
              placeholder={here ? `Search ${here.repo} issues, repositories, actions…` : "Search repositories and actions…"}
              aria-label="Search commands"
              data-testid="command-input"
            />
            <CommandList className="max-h-[60vh]">
              <CommandEmpty>Nothing matches “{search}”.</CommandEmpty>
              {here && issues.length > 0 && (
                <CommandGroup heading={`Issues in ${here.repo}`}>
                  {issues.map((i) => (
                    <CommandItem
                      key={i.number}
                      value={`issue #${i.number} ${i.title}`}
                      keywords={[String(i.number)]}
                      onSelect={() => go(`${here.base}/issues/${i.number}`)}
                      data-testid="command-issue"
                    >
                      <StatusIcon status={i.status} className="shrink-0" />
                      <span className="shrink-0 font-mono text-xs text-subtle-foreground">#{i.number}</span>
                      <span className="min-w-0 truncate">{i.title}</span>
                    </CommandItem>
                  ))}
                </CommandGroup>
              )}
              {(repos.data?.length ?? 0) > 0 && (
                <CommandGroup heading="Repositories">
                  {repos.data!.map((r) => (
                    <CommandItem
                      key={r.id}
                      value={`repository ${r.fullName}`}
                      onSelect={() => go(`/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.name)}`)}
                      data-testid="command-repo"
                    >
                      <RepoIcon className="shrink-0 text-subtle-foreground" />
                      <span className="min-w-0 truncate">{r.fullName}</span>
                      {r.isPrivate && <LockIcon className="shrink-0 text-subtle-foreground" />}
                    </CommandItem>
                  ))}
                </CommandGroup>
              )}
              <CommandGroup heading="Actions">
                {actions.map((a) => (
                  <CommandItem key={a.id} value={`action ${a.label}`} onSelect={a.run} data-testid={`command-action-${a.id}`}>
                    {a.label}
                  </CommandItem>
                ))}
              </CommandGroup>
            </CommandList>
          </Command>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/** The top bar's button for the command menu (mouse and touch users), with its shortcut shown. */
export function CommandMenuButton({ onClick, isMac }: { onClick: () => void; isMac: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex items-center gap-2 rounded-md border border-slate-700 px-2 py-1 text-sm text-slate-300 hover:border-slate-500 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400"
      title={`Command menu (${isMac ? "⌘K" : "Ctrl+K"})`}
      aria-keyshortcuts={isMac ? "Meta+K" : "Control+K"}
      data-testid="command-menu-button"
    >
      <SearchIcon />
      <span className="sr-only md:not-sr-only">Search or jump to…</span>
      <kbd aria-hidden="true" className="hidden rounded border border-slate-600 px-1 font-mono text-xs text-slate-400 md:inline">
        {isMac ? "⌘K" : "Ctrl K"}
      </kbd>
    </button>
  );
}
