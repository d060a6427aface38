"use client";
/**
 * The file finder (`t`, or the "Go to file" button; docs/ui.md "Code view"), as GitHub's: a fuzzy
 * filter over every file path at the current ref (`repos.files`, fetched when first opened and
 * cached), the best 50 matches with the matched characters in bold; Enter or a click opens the
 * file. The button carries `data-shortcut="search"`, so `/` opens the finder too on code pages.
 */
import { useDeferredValue, useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { Dialog as D } from "radix-ui";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { FileIcon, SearchIcon } from "@/components/ui/icons";
import { button, cx } from "@/components/ui/styles";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { useReturnFocus } from "@/components/keyboard/return-focus";
import { fuzzyFilter } from "./fuzzy";
import { codeUrl } from "./urls";

/** `path` with the characters at `indices` in bold (a fuzzy match). */
export function Highlighted({ path, indices }: { path: string; indices: number[] }) {
  const marks = new Set(indices);
  const parts: React.ReactNode[] = [];
  let run = "";
  let bold = false;
  const flush = (key: number) => {
    if (run)
      parts.push(
        bold ? (
          <mark key={key} className="bg-transparent font-semibold text-primary">
            {run}
          </mark>
        ) : (
          <span key={key}>{run}</span>
        ),
      );
    run = "";
  };
  for (let i = 0; i < path.length; i += 1) {
    const m = marks.has(i);
    if (m !== bold) {
      flush(i);
      bold = m;
    }
    run += path[i];
  }
  flush(path.length);
  return <>{parts}</>;
}

export function FileFinder({ repoId, owner, repo, gitRef }: { repoId: string; owner: string; repo: string; gitRef: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const files = useQuery(trpc.repos.files.queryOptions({ repoId, ref: gitRef }, { enabled: open, staleTime: 5 * 60_000 }));
  const matches = useMemo(() => fuzzyFilter(deferred, files.data?.paths ?? [], 50), [deferred, files.data]);
  // cmdk does not filter here (shouldFilter false), so the highlighted item is ours: the best match
  const [active, setActive] = useState(matches[0]?.path ?? "");
  const [activeFor, setActiveFor] = useState(matches);
  if (matches !== activeFor) {
    setActiveFor(matches);
    setActive(matches[0]?.path ?? "");
  }

  const focus = useReturnFocus();
  const show = () => {
    focus.remember();
    setOpen(true);
  };
  useShortcuts([{ id: "file-finder", keys: "t", label: "Find a file", group: "Code", run: show }]);

  function openChange(next: boolean) {
    setOpen(next);
    if (!next) setQuery("");
  }

  return (
    <>
      <button
        type="button"
        className={cx(button.secondary, "gap-2")}
        onClick={show}
        data-shortcut="search"
        data-testid="file-finder-button"
        aria-keyshortcuts="t"
      >
        <SearchIcon className="text-subtle-foreground" />
        <span>Go to file</span>
        <kbd className="hidden rounded border border-border bg-muted px-1 font-mono text-xs text-muted-foreground sm:inline">t</kbd>
      </button>
      <D.Root open={open} onOpenChange={openChange}>
        <D.Portal>
          <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <D.Content
            className="fixed left-1/2 top-[12vh] z-50 w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 overflow-hidden rounded-lg border border-border bg-popover text-foreground shadow-xl focus:outline-none"
            data-testid="file-finder"
            aria-describedby={undefined}
            onCloseAutoFocus={focus.onCloseAutoFocus}
          >
            <D.Title className="sr-only">Find a file at {gitRef}</D.Title>
            <Command shouldFilter={false} value={active} onValueChange={setActive} label="Find a file" loop>
              <CommandInput
                value={query}
                onValueChange={setQuery}
                placeholder={`Find a file at ${gitRef}…`}
                aria-label="Find a file"
                data-testid="file-finder-input"
              />
              <CommandList className="max-h-[60vh]">
                {files.isPending && <div className="px-2 py-3 text-sm text-subtle-foreground">Loading files…</div>}
                {files.isError && <div className="px-2 py-3 text-sm text-danger">{errorMessage(files.error)}</div>}
                {files.data && <CommandEmpty>No file matches “{query}”.</CommandEmpty>}
                {matches.map((m) => (
                  <CommandItem
                    key={m.path}
                    value={m.path}
                    onSelect={() => {
                      openChange(false);
                      router.push(codeUrl(owner, repo, "blob", gitRef, m.path));
                    }}
                    data-testid="file-finder-result"
                  >
                    <FileIcon className="shrink-0 text-subtle-foreground" />
                    <span className="min-w-0 truncate font-mono text-xs">
                      <Highlighted path={m.path} indices={m.indices} />
                    </span>
                  </CommandItem>
                ))}
              </CommandList>
              {files.data && (
                <div className="border-t border-border px-3 py-1.5 text-xs text-subtle-foreground" data-testid="file-finder-count">
                  {files.data.truncated
                    ? `Showing matches among the first ${files.data.paths.length.toLocaleString("en")} files (the repository has more).`
                    : `${files.data.paths.length.toLocaleString("en")} files at ${gitRef}`}
                </div>
              )}
            </Command>
          </D.Content>
        </D.Portal>
      </D.Root>
    </>
  );
}
