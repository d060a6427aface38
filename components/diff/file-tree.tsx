"use client";
/** The changed-file tree beside a diff (issue #8): directories, then files with their +/−; a click scrolls to the file. */
import { useMemo } from "react";
import { FileIcon, FolderIcon } from "@/components/ui/icons";
import { fileTree, type DiffFile, type TreeNode } from "./model";

export function FileTree({ files, onSelect }: { files: DiffFile[]; onSelect: (fileIndex: number) => void }) {
  const tree = useMemo(() => fileTree(files), [files]);
  return (
    <ul className="space-y-0.5" role="list">
      {tree.map((n) => (
        <Node key={n.path + (n.fileIndex ?? "")} node={n} files={files} onSelect={onSelect} depth={0} />
      ))}
    </ul>
  );
}

function Node({ node, files, onSelect, depth }: { node: TreeNode; files: DiffFile[]; onSelect: (i: number) => void; depth: number }) {
  const pad = { paddingLeft: `${depth * 0.75 + 0.25}rem` };
  if (node.fileIndex === undefined)
    return (
      <li>
        <div className="flex items-center gap-1.5 py-0.5 text-muted-foreground [overflow-wrap:anywhere]" style={pad}>
          <FolderIcon className="shrink-0 text-subtle-foreground" /> {node.name}
        </div>
        <ul role="list">
          {node.children.map((c) => (
            <Node key={c.path + (c.fileIndex ?? "")} node={c} files={files} onSelect={onSelect} depth={depth + 1} />
          ))}
        </ul>
      </li>
    );
  const f = files[node.fileIndex];
  const i = node.fileIndex;
  return (
    <li>
      <button type="button" onClick={() => onSelect(i)} className="flex w-full items-center gap-1.5 rounded py-0.5 pr-1 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" style={pad} data-testid="file-tree-item" title={f.newPath}>
        <FileIcon className="shrink-0 text-subtle-foreground" />
        <span className="min-w-0 flex-1 truncate">{node.name}</span>
        <span className="shrink-0 font-mono text-xs text-primary">+{f.additions}</span>
        <span className="shrink-0 font-mono text-xs text-danger">−{f.deletions}</span>
      </button>
    </li>
  );
}
