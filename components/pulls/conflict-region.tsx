"use client";
/**
 * One conflict region of the conflicts view (docs/pulls.md "Conflicts"): ours and theirs
 * highlighted inline, the merge base folded (a <details>), and the choices — Accept ours,
 * Accept theirs, Accept both (ours then theirs), Edit (the region becomes a text field, starting
 * from its current text or git's diff3 block), Use suggestion (when the file's AI suggestion
 * gave this region a text without markers), Undo. Once resolved, the result replaces the sides.
 * Lines wrap; nothing is clipped. Pure logic: lib/conflict-regions.ts.
 */
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { cx } from "@/components/ui/styles";
import { choiceText, isResolved, markedText, type ConflictHunk, type RegionChoice, type RegionResolution } from "@/lib/conflict-regions";

const CODE = "whitespace-pre-wrap [overflow-wrap:anywhere] px-3 py-1.5 font-mono text-xs text-foreground";

const CHOSEN: Record<RegionChoice, string> = {
  ours: "ours",
  theirs: "theirs",
  both: "both, ours first",
  edit: "edited",
  suggestion: "the suggestion",
};

/** Lines of a side; an empty side says so. */
export function Lines({ text, testId }: { text: string; testId?: string }) {
  return text ? (
    <pre className={CODE} data-testid={testId}>
      {text}
    </pre>
  ) : (
    <p className="px-3 py-1.5 text-xs italic text-muted-foreground" data-testid={testId}>
      (no lines)
    </p>
  );
}

function Side({ title, text, tone, testId }: { title: string; text: string; tone: "ours" | "theirs"; testId: string }) {
  return (
    <div
      className={cx("border-l-4", tone === "ours" ? "border-primary-border bg-primary-muted" : "border-warning-border bg-warning-muted")}
    >
      <p className="px-3 pt-1.5 text-xs font-semibold text-foreground">{title}</p>
      <Lines text={text} testId={testId} />
    </div>
  );
}

export function ConflictRegionView({
  index,
  path,
  hunk,
  resolution,
  suggestion,
  labels,
  canResolve,
  onResolve,
}: {
  /** 0-based place among the file's regions. */
  index: number;
  path: string;
  hunk: ConflictHunk;
  resolution: RegionResolution | null;
  /** This region's text in the file's AI suggestion, when it holds no markers. */
  suggestion: string | null;
  labels: { ours: string; theirs: string };
  canResolve: boolean;
  onResolve: (r: RegionResolution | null) => void;
}) {
  const editRef = useRef<HTMLTextAreaElement>(null);
  const editing = resolution?.choice === "edit";
  const resolved = isResolved(resolution);
  useEffect(() => {
    if (editing) editRef.current?.focus();
  }, [editing]);
  const name = `Conflict ${index + 1}`;
  const id = `conflict-${path.replace(/[^\w-]/g, "_")}-${index}`;
  const pick = (choice: "ours" | "theirs" | "both") => onResolve({ choice, text: choiceText(hunk, choice) });
  const edit = () => onResolve({ choice: "edit", text: (resolution?.text ?? markedText(hunk, labels)).replace(/\n$/, "") });

  return (
    <div
      role="group"
      aria-labelledby={`${id}-title`}
      className={cx("my-1 border-y", resolved ? "border-primary-border" : "border-danger-border")}
      data-testid="conflict-region"
      data-resolved={resolved ? "true" : "false"}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 bg-muted px-3 py-1.5 text-xs">
        <span id={`${id}-title`} className="font-semibold text-foreground">
          {name}
        </span>
        <span className={resolved ? "text-primary" : "text-danger"} data-testid="region-status">
          {resolved ? `Resolved: ${CHOSEN[resolution!.choice]}` : editing ? "Markers left" : "Unresolved"}
        </span>
      </div>
      {editing ? (
        <div className="px-3 py-2">
          <label htmlFor={`${id}-edit`} className="mb-1 block text-xs font-medium text-muted-foreground">
            {name} of {path}, edited (remove every conflict marker)
          </label>
          <Textarea
            ref={editRef}
            id={`${id}-edit`}
            value={resolution.text}
            onChange={(e) => onResolve({ choice: "edit", text: e.target.value })}
            rows={Math.min(20, Math.max(3, resolution.text.split("\n").length + 1))}
            className="font-mono text-xs"
            spellCheck={false}
            data-testid="region-edit"
          />
        </div>
      ) : resolution ? (
        <div className="border-l-4 border-primary-border">
          <p className="px-3 pt-1.5 text-xs font-semibold text-foreground">Result</p>
          <Lines text={resolution.text} testId="region-result" />
        </div>
      ) : (
        <>
          <Side title={`Ours (${labels.ours})`} text={hunk.ours.join("")} tone="ours" testId="region-ours" />
          <details className="border-l-4 border-border">
            <summary className="cursor-pointer px-3 py-1 text-xs text-muted-foreground">Base (merge base)</summary>
            <Lines text={hunk.base.join("")} testId="region-base" />
          </details>
          <Side title={`Theirs (${labels.theirs})`} text={hunk.theirs.join("")} tone="theirs" testId="region-theirs" />
        </>
      )}
      {suggestion !== null && resolution?.choice !== "suggestion" && (
        <div className="border-l-4 border-border" data-testid="region-suggestion">
          <p className="px-3 pt-1.5 text-xs font-semibold text-foreground">Suggestion</p>
          <Lines text={suggestion} />
        </div>
      )}
      {canResolve && (
        <div className="flex flex-wrap gap-2 px-3 py-2">
          <Button size="sm" onClick={() => pick("ours")} aria-pressed={resolution?.choice === "ours"} data-testid="accept-ours">
            Accept ours
          </Button>
          <Button size="sm" onClick={() => pick("theirs")} aria-pressed={resolution?.choice === "theirs"} data-testid="accept-theirs">
            Accept theirs
          </Button>
          <Button size="sm" onClick={() => pick("both")} aria-pressed={resolution?.choice === "both"} data-testid="accept-both">
            Accept both
          </Button>
          <Button size="sm" onClick={edit} aria-pressed={editing} data-testid="edit-region">
            Edit
          </Button>
          {suggestion !== null && (
            <Button
              size="sm"
              onClick={() => onResolve({ choice: "suggestion", text: suggestion })}
              aria-pressed={resolution?.choice === "suggestion"}
              data-testid="use-region-suggestion"
            >
              Use suggestion
            </Button>
          )}
          {resolution && (
            <Button size="sm" variant="ghost" onClick={() => onResolve(null)} data-testid="undo-region">
              Undo
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
