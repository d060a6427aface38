"use client";
import { useDismiss } from "@/components/ui/use-dismiss";
import { useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { BranchIcon, CheckIcon, ChevronDownIcon } from "@/components/ui/icons";
import { button, cx, input } from "@/components/ui/styles";
import { codeUrl, repoUrl, type CodeKind } from "./urls";

interface Props {
  owner: string;
  repo: string;
  branches: { name: string; isDefault: boolean }[];
  current: string;
  kind: CodeKind;
  path: string;
}

/** Dropdown listing the branches with a filter; picking one opens the same path on that branch. */
export function BranchSwitcher({ owner, repo, branches, current, kind, path }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const ref = useRef<HTMLDivElement>(null);
  const isBranch = branches.some((b) => b.name === current);

  useDismiss(ref, open, () => setOpen(false));

  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return f ? branches.filter((b) => b.name.toLowerCase().includes(f)) : branches;
  }, [branches, filter]);

  function go(name: string) {
    setOpen(false);
    const isDefault = branches.find((b) => b.name === name)?.isDefault;
    router.push(!path && kind === "tree" && isDefault ? repoUrl(owner, repo) : codeUrl(owner, repo, kind, name, path));
  }

  return (
    <div className="relative" ref={ref}>
      <button type="button" className={cx(button.secondary, "max-w-[16rem]")} aria-haspopup="listbox" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="branch-switcher">
        <BranchIcon className="text-slate-500" />
        <span className="truncate font-mono text-xs" data-testid="current-ref">
          {isBranch || current.length < 40 ? current : current.slice(0, 10)}
        </span>
        <ChevronDownIcon className="text-slate-500" />
      </button>
      {open && (
        <div className="absolute left-0 z-30 mt-1 w-72 rounded-md border border-slate-200 bg-white shadow-lg">
          <div className="border-b border-slate-100 p-2">
            <div className="px-1 pb-1.5 text-xs font-semibold text-slate-700">Switch branch</div>
            <input autoFocus className={input} placeholder="Filter branches" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter branches" />
          </div>
          <ul role="listbox" className="max-h-72 overflow-y-auto py-1" data-testid="branch-list">
            {shown.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">No branch matches “{filter}”.</li>}
            {shown.map((b) => (
              <li key={b.name}>
                <button
                  type="button"
                  role="option"
                  aria-selected={b.name === current}
                  className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-slate-100"
                  onClick={() => go(b.name)}
                >
                  <span className="w-4">{b.name === current && <CheckIcon className="text-emerald-600" />}</span>
                  <span className="min-w-0 flex-1 truncate font-mono text-xs">{b.name}</span>
                  {b.isDefault && <span className="rounded-full border border-slate-300 px-1.5 text-[10px] text-slate-600">default</span>}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
