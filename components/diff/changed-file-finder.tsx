"use client";
/**
 * Jump to a changed file (`t` on the diff pages; docs/ui.md "Keyboard shortcuts"): the code
 * view's fuzzy finder (components/code/fuzzy.ts, the same ranking and bold matches) over the
 * diff's changed files; Enter or a click scrolls the diff to the file.
 */
import { useDeferredValue, useMemo, useRef, useState } from "react";
import { Dialog as D } from "radix-ui";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { FileIcon } from "@/components/ui/icons";
import { useReturnFocus } from "@/components/keyboard/return-focus";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { fuzzyFilter } from "@/components/code/fuzzy";
import { Highlighted } from "@/components/code/file-finder";
import type { DiffFile } from "./model";

/** The finder over `files`; `onJump` gets the chosen file's index. Registers `t` while mounted. */
export function ChangedFileFinder({ files, onJump }: { files: DiffFile[]; onJump: (fileIndex: number) => void }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const indexOf = useMemo(() => new Map(files.map((f, i) => [f.newPath, i])), [files]);
  const matches = useMemo(() => (open ? fuzzyFilter(deferred, [...indexOf.keys()], 50) : []), [open, deferred, indexOf]);
  const [active, setActive] = useState("");
  const [activeFor, setActiveFor] = useState(matches);
  if (matches !== activeFor) {
    setActiveFor(matches);
    setActive(matches[0]?.path ?? "");
  }
  const focus = useReturnFocus();
  // after a jump focus goes to the file (onJump), not back to where it was (that would scroll back)
  const jumped = useRef(false);
  useShortcuts([
    {
      id: "diff-file-finder",
      keys: "t",
      label: "Jump to a changed file",
      group: "Diff",
      overrides: true,
      run: () => {
        focus.remember();
        setOpen(true);
      },
    },
  ]);
  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) setQuery("");
  };
  return (
    <D.Root open={open} onOpenChange={openChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <D.Content
          className="fixed left-1/2 top-[12vh] z-50 w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 overflow-hidden rounded-lg border border-border bg-popover text-foreground shadow-xl focus:outline-none"
          data-testid="changed-file-finder"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            if (!jumped.current) return focus.onCloseAutoFocus(e);
            jumped.current = false;
            e.preventDefault();
          }}
        >
          <D.Title className="sr-only">Jump to a changed file</D.Title>
          <Command shouldFilter={false} value={active} onValueChange={setActive} label="Jump to a changed file" loop>
            <CommandInput
              value={query}
              onValueChange={setQuery}
              placeholder="Jump to a changed file…"
              aria-label="Jump to a changed file"
              data-testid="changed-file-finder-input"
            />
            <CommandList className="max-h-[60vh]">
              <CommandEmpty>No changed file matches “{query}”.</CommandEmpty>
              {matches.map((m) => (
                <CommandItem
                  key={m.path}
                  value={m.path}
                  onSelect={() => {
                    const i = indexOf.get(m.path);
                    if (i === undefined) return;
                    jumped.current = true;
                    openChange(false);
                    onJump(i);
                  }}
                  data-testid="changed-file-finder-result"
                >
                  <FileIcon className="shrink-0 text-subtle-foreground" />
                  <span className="min-w-0 truncate font-mono text-xs">
                    <Highlighted path={m.path} indices={m.indices} />
                  </span>
                </CommandItem>
              ))}
            </CommandList>
            <div className="border-t border-border px-3 py-1.5 text-xs text-subtle-foreground">
              {files.length.toLocaleString("en")} changed {files.length === 1 ? "file" : "files"}
            </div>
          </Command>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
