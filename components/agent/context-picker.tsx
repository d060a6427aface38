"use client";
/**
 * The chat's context (docs/agent.md "A turn"): files picked from the repository tree (sent as
 * `context.files`, at most 50) and one selected line range, which arrives from the code
 * browser's "Ask the agent about these lines" (sent as `context.selection`). Each is a removable
 * chip; the range links back to those lines.
 */
import Link from "next/link";
import { codeUrl, lineHash } from "@/components/code/urls";
import { Combobox } from "@/components/ui/combobox";
import { FileIcon, XIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/styles";

export interface Selection {
  file: string;
  startLine: number;
  endLine: number;
}

/** Most files one message may name (the server's limit, server/services/agent/schemas.ts). */
export const MAX_CONTEXT_FILES = 50;

const chip = "inline-flex max-w-full items-center gap-1 rounded-full border border-border bg-muted px-2 py-0.5 text-xs";

function Remove({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded-full p-0.5 text-subtle-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <XIcon className="h-3! w-3!" />
    </button>
  );
}

export function ContextPicker({
  repo,
  files,
  picked,
  onPick,
  selection,
  onClearSelection,
}: {
  repo: { owner: string; name: string; defaultBranch: string };
  files: string[];
  picked: string[];
  onPick: (files: string[]) => void;
  selection: Selection | null;
  onClearSelection: () => void;
}) {
  const options = files
    .filter((f) => !picked.includes(f))
    .map((f) => ({ value: f, label: f, icon: <FileIcon className="shrink-0 text-subtle-foreground" /> }));
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Context" data-testid="context-picker">
      <span className="text-xs font-medium text-muted-foreground">Context</span>
      {selection && (
        <span className={cx(chip, "border-primary-border bg-primary-muted")} data-testid="context-selection">
          <Link
            href={`${codeUrl(repo.owner, repo.name, "blob", repo.defaultBranch, selection.file)}${lineHash(selection.startLine, selection.endLine)}`}
            className="min-w-0 truncate font-mono text-primary hover:underline"
          >
            {selection.file}:
            {selection.startLine === selection.endLine ? selection.startLine : `${selection.startLine}–${selection.endLine}`}
          </Link>
          <Remove label={`Remove lines of ${selection.file} from the context`} onClick={onClearSelection} />
        </span>
      )}
      {picked.map((f) => (
        <span key={f} className={chip} data-testid="context-file">
          <span className="min-w-0 truncate font-mono">{f}</span>
          <Remove label={`Remove ${f} from the context`} onClick={() => onPick(picked.filter((p) => p !== f))} />
        </span>
      ))}
      {picked.length < MAX_CONTEXT_FILES && (
        <div className="w-44">
          <Combobox
            options={options}
            value={null}
            onChange={(v) => v && onPick([...picked, v])}
            placeholder="Add a file…"
            searchPlaceholder="Filter files…"
            emptyText="No matching file."
            ariaLabel="Add a file to the context"
            testId="context-add-file"
            triggerClassName="border border-input bg-card text-xs"
          />
        </div>
      )}
    </div>
  );
}
