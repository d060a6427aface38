"use client";
/**
 * The branch and tag switcher of the code browser (docs/ui.md "URL scheme for refs with slashes"):
 * a Radix popover holding a cmdk list (arrow keys, Enter, typeahead filter) with Branches / Tags
 * tabs. Tags come from `repos.tags` when the tab is first shown (newest first, up to 100). Each
 * branch shows its head's combined status (✓ ✗ ●), read for every listed branch in one
 * `statuses.forCommits` call when the list first opens (at most MAX_STATUS_SHAS heads). Picking
 * one opens the same path at that ref; a tag whose name contains "/" is opened by its commit sha
 * (docs/ui.md "URL scheme": such tags are not addressable by name).
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { BranchIcon, CheckIcon, ChevronDownIcon } from "@/components/ui/icons";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { button, cx } from "@/components/ui/styles";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { CommitStateMark } from "@/components/statuses/commit-status";
import { codeUrl, repoUrl, type CodeKind } from "./urls";

/** Most branch heads whose status is asked for at once (statuses.forCommits' bound). */
const MAX_STATUS_SHAS = 200;

interface Props {
  repoId: string;
  owner: string;
  repo: string;
  /** `sha`: the branch's head commit (its status mark). */
  branches: { name: string; sha: string; isDefault: boolean }[];
  current: string;
  kind: CodeKind;
  path: string;
}

type Tab = "branches" | "tags";

export function BranchSwitcher({ repoId, owner, repo, branches, current, kind, path }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const isBranch = branches.some((b) => b.name === current);
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<Tab>(isBranch ? "branches" : "tags");
  const [filter, setFilter] = useState("");
  const tags = useQuery(trpc.repos.tags.queryOptions({ repoId, limit: 100 }, { enabled: open && tab === "tags", staleTime: 60_000 }));
  const heads = [...new Set(branches.map((b) => b.sha))].slice(0, MAX_STATUS_SHAS);
  const statuses = useQuery(
    trpc.statuses.forCommits.queryOptions(
      { repoId, shas: heads },
      { enabled: open && tab === "branches" && heads.length > 0, staleTime: 30_000 },
    ),
  );

  function go(ref: string, isDefault = false) {
    setOpen(false);
    router.push(!path && kind === "tree" && isDefault ? repoUrl(owner, repo) : codeUrl(owner, repo, kind, ref, path));
  }

  const tabClass = (active: boolean) =>
    cx(
      "flex-1 rounded px-2 py-1 text-xs font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
      active ? "bg-card text-foreground shadow-sm ring-1 ring-border" : "text-muted-foreground hover:text-foreground",
    );
  const check = (active: boolean) => <span className="w-4 shrink-0">{active && <CheckIcon className="text-primary" />}</span>;

  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setFilter("");
      }}
    >
      <PopoverTrigger className={cx(button.secondary, "max-w-[16rem]")} data-testid="branch-switcher">
        <BranchIcon className="text-subtle-foreground" />
        <span className="truncate font-mono text-xs" data-testid="current-ref">
          {isBranch || current.length < 40 ? current : current.slice(0, 10)}
        </span>
        <span className="sr-only">, switch branches or tags</span>
        <ChevronDownIcon className="text-subtle-foreground" />
      </PopoverTrigger>
      <PopoverContent className="w-80 p-0" data-testid="branch-popover" aria-label="Switch branches or tags">
        <div className="px-3 pb-1 pt-2 text-xs font-semibold text-muted-foreground">Switch branches/tags</div>
        <div className="mx-2 mb-2 flex rounded-md bg-muted p-0.5" role="tablist" aria-label="Ref type">
          {(["branches", "tags"] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              className={tabClass(tab === t)}
              onClick={() => setTab(t)}
              data-testid={`ref-tab-${t}`}
            >
              {t === "branches" ? "Branches" : "Tags"}
            </button>
          ))}
        </div>
        <Command label={tab === "branches" ? "Filter branches" : "Filter tags"} loop className="border-t border-border">
          <CommandInput
            autoFocus
            value={filter}
            onValueChange={setFilter}
            placeholder={tab === "branches" ? "Filter branches" : "Filter tags"}
            aria-label={tab === "branches" ? "Filter branches" : "Filter tags"}
          />
          <CommandList data-testid={tab === "branches" ? "branch-list" : "tag-list"}>
            {tab === "branches" ? (
              <>
                <CommandEmpty>No branch matches “{filter}”.</CommandEmpty>
                {branches.map((b) => (
                  <CommandItem key={b.name} value={b.name} onSelect={() => go(b.name, b.isDefault)} data-testid="branch-option">
                    {check(b.name === current)}
                    <span className="min-w-0 flex-1 truncate font-mono text-xs">{b.name}</span>
                    <CommitStateMark status={statuses.data?.[b.sha]} />
                    {b.isDefault && (
                      <span className="rounded-full border border-input px-1.5 text-[10px] text-muted-foreground">default</span>
                    )}
                  </CommandItem>
                ))}
              </>
            ) : tags.isPending ? (
              <div className="px-2 py-3 text-sm text-subtle-foreground">Loading tags…</div>
            ) : tags.isError ? (
              <div className="px-2 py-3 text-sm text-danger">{errorMessage(tags.error)}</div>
            ) : tags.data.tags.length === 0 ? (
              <div className="px-2 py-3 text-center text-sm text-subtle-foreground" data-testid="no-tags">
                No tags yet.
              </div>
            ) : (
              <>
                <CommandEmpty>No tag matches “{filter}”.</CommandEmpty>
                {tags.data.tags.map((t) => (
                  <CommandItem
                    key={t.name}
                    value={t.name}
                    onSelect={() => go(t.name.includes("/") ? t.sha : t.name)}
                    data-testid="tag-option"
                  >
                    {check(t.name === current || t.sha === current)}
                    <span className="min-w-0 flex-1 truncate font-mono text-xs">{t.name}</span>
                  </CommandItem>
                ))}
                {tags.data.truncated && (
                  <div className="px-2 py-1.5 text-xs text-subtle-foreground">Showing the newest {tags.data.tags.length} tags.</div>
                )}
              </>
            )}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
