"use client";
/**
 * One conflicting file of the conflicts view (docs/pulls.md "Conflicts"): the file once, its
 * unchanged lines as text and each conflict region inline (conflict-region.tsx), with "n
 * conflicts left". "Suggest resolution" asks ai.suggestConflictResolution for the whole file;
 * where the suggestion keeps the lines around the conflicts, each region gets its part ("Use
 * suggestion" there), else the whole suggested file can be taken and edited as one text. A
 * fallback from an unusable model answer is said. Files git cannot cut into regions, binary
 * files and one-sided conflicts are named, not editable.
 */
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { card, cx } from "@/components/ui/styles";
import { hasConflictMarkers, regionsOf, type MergeSegment, type RegionResolution } from "@/lib/conflict-regions";
import { ConflictRegionView, Lines } from "./conflict-region";
import { EngineLabel } from "./explain-file";

export interface ConflictFileProps {
  path: string;
  isBinary: boolean;
  kind: "content" | "add/add" | "delete/modify" | "other";
  /** pulls.getConflicts `merged`: git's diff3 merge, null when not resolvable here. */
  merged: string | null;
}

export type Suggestion = {
  resolved: string;
  explanation: string;
  confidence: "low" | "medium" | "high";
  warnings?: string[];
  engine: string;
  fallback?: { engine: string; reason: string };
};

/** What the view holds for one file: a resolution per region, or the whole file as one text. */
export interface FileState {
  regions: Array<RegionResolution | null>;
  whole: string | null;
  suggestion?: Suggestion;
  /** The suggestion's text per region (null: none usable there), or null when it could not be mapped. */
  mapped?: Array<string | null> | null;
}

const CONFIDENCE_TONE: Record<Suggestion["confidence"], BadgeTone> = { high: "primary", medium: "warning", low: "danger" };

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function ConflictFile({
  file,
  segments,
  state,
  left,
  labels,
  canResolve,
  busy,
  onSuggest,
  onChange,
}: {
  file: ConflictFileProps;
  /** The parsed merge; null when the file is not resolvable here or git's markers did not nest. */
  segments: MergeSegment[] | null;
  state: FileState;
  /** Conflicts left in this file. */
  left: number;
  labels: { ours: string; theirs: string };
  canResolve: boolean;
  busy: boolean;
  onSuggest: () => void;
  onChange: (next: FileState) => void;
}) {
  const s = state.suggestion;
  const regions = segments ? regionsOf(segments) : [];
  const wholeId = `whole-${file.path.replace(/[^\w-]/g, "_")}`;
  let n = 0;
  return (
    <section className={cx(card, "min-w-0 overflow-hidden")} aria-label={file.path} data-testid="conflict-file">
      <div className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2">
        <h2 className="min-w-0 font-mono text-sm text-foreground [overflow-wrap:anywhere]">{file.path}</h2>
        {segments && (
          <Badge tone={left ? "danger" : "primary"} data-testid="file-conflicts-left">
            {left ? `${plural(left, "conflict")} left` : "Resolved"}
          </Badge>
        )}
        {canResolve && segments && (
          <Button size="sm" className="ml-auto" onClick={onSuggest} disabled={busy} data-testid="suggest-resolution">
            {busy ? "Suggesting…" : "Suggest resolution"}
          </Button>
        )}
      </div>
      {s && (
        <div className="space-y-1 border-b border-border px-4 py-2 text-sm" data-testid="resolution-meta">
          {s.fallback && (
            <p role="status" className="font-medium text-warning" data-testid="suggestion-fallback">
              The model&apos;s answer was unusable; showing the local suggestion.
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={CONFIDENCE_TONE[s.confidence]} data-testid="resolution-confidence">
              Confidence: {s.confidence}
            </Badge>
            <EngineLabel engine={s.engine} />
          </div>
          <p className="whitespace-pre-wrap text-muted-foreground">{s.explanation}</p>
          {s.warnings?.length ? (
            <ul className="ml-4 list-disc text-warning" data-testid="resolution-warnings">
              {s.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
          {state.mapped === null && state.whole === null && canResolve && (
            <p className="text-muted-foreground">
              The suggestion also changes lines outside the conflicts, so it cannot be split per conflict.{" "}
              <Button
                size="sm"
                onClick={() => onChange({ ...state, whole: s.resolved })}
                disabled={hasConflictMarkers(s.resolved)}
                data-testid="use-whole-suggestion"
              >
                Use the suggested file
              </Button>
            </p>
          )}
        </div>
      )}
      {!segments ? (
        <p className="px-4 py-3 text-sm text-muted-foreground" data-testid="conflict-local-only">
          {file.isBinary
            ? "Binary file: both sides changed it."
            : file.kind === "delete/modify"
              ? "Deleted on one side, changed on the other."
              : file.kind === "other"
                ? "A rename or a file/folder clash."
                : file.merged === null
                  ? "Too large to show here."
                  : "The file holds lines that look like conflict markers."}{" "}
          Resolve this conflict on your machine: merge {labels.ours} into {labels.theirs} there.
        </p>
      ) : state.whole !== null ? (
        <div className="space-y-2 px-4 py-3">
          <label htmlFor={wholeId} className="block text-xs font-medium text-muted-foreground">
            {file.path}, the whole file
          </label>
          <Textarea
            id={wholeId}
            value={state.whole}
            onChange={(e) => onChange({ ...state, whole: e.target.value })}
            rows={Math.min(24, Math.max(6, state.whole.split("\n").length + 1))}
            className="font-mono text-xs"
            spellCheck={false}
            data-testid="whole-file-text"
          />
          <Button size="sm" variant="ghost" onClick={() => onChange({ ...state, whole: null })} data-testid="back-to-regions">
            Back to the conflicts
          </Button>
        </div>
      ) : (
        <div className="py-1">
          {segments.map((seg, i) => {
            if (seg.kind === "clean") return <Lines key={i} text={seg.lines.join("")} />;
            const k = n++;
            return (
              <ConflictRegionView
                key={i}
                index={k}
                path={file.path}
                hunk={regions[k]!}
                resolution={state.regions[k] ?? null}
                suggestion={state.mapped?.[k] ?? null}
                labels={labels}
                canResolve={canResolve}
                onResolve={(r) => {
                  const regions = [...state.regions];
                  regions[k] = r;
                  onChange({ ...state, regions });
                }}
              />
            );
          })}
        </div>
      )}
    </section>
  );
}
