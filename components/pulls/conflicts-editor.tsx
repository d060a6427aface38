"use client";
/**
 * The conflicts view's editor (GitHub's web conflict editor; docs/pulls.md "Conflicts"): each
 * conflicting file once, its conflict regions inline (conflict-file.tsx, conflict-region.tsx),
 * resolved per region (ours, theirs, both, edited, the AI suggestion) with "n conflicts left" per
 * file and in total. "Commit merge" is enabled once every region of every file is resolved and no
 * marker is left; it commits a merge of the target branch into the source branch with every
 * file's text (pulls.resolveConflicts, compare-and-swap on the head the page loaded). The regions
 * come from git's diff3 merge (pulls.getConflicts `merged`), parsed by lib/conflict-regions.ts.
 */
import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { card, cx } from "@/components/ui/styles";
import { toast } from "@/components/ui/toast";
import { assemble, conflictsLeft, hasConflictMarkers, isResolved, mapSuggestion, parseDiff3 } from "@/lib/conflict-regions";
import { ConflictFile, plural, type ConflictFileProps, type FileState } from "./conflict-file";

export type { ConflictFileProps } from "./conflict-file";

const EMPTY: FileState = { regions: [], whole: null };

export function ConflictsEditor({
  repoId,
  prId,
  headSha,
  targetBranch,
  sourceBranch,
  files,
  canResolve,
  pullHref,
}: {
  repoId: string;
  prId: string;
  headSha: string;
  targetBranch: string;
  sourceBranch: string;
  /** The conflicting files with their diff3 merge (`merged`) and the sides' texts for the AI suggestion. */
  files: Array<ConflictFileProps & { ours: string | null; theirs: string | null; base: string | null }>;
  canResolve: boolean;
  pullHref: string;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [states, setStates] = useState<Record<string, FileState>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const labels = { ours: targetBranch, theirs: sourceBranch };
  const segments = useMemo(() => new Map(files.map((f) => [f.path, f.merged === null ? null : parseDiff3(f.merged)])), [files]);

  /** Per file: conflicts left and the text to commit (null: not resolvable in the browser). */
  const outcome = files.map((f) => {
    const segs = segments.get(f.path) ?? null;
    const st = states[f.path] ?? EMPTY;
    if (!segs) return { path: f.path, left: 1, content: null };
    if (st.whole !== null) return { path: f.path, left: hasConflictMarkers(st.whole) ? 1 : 0, content: st.whole };
    const content = assemble(segs, st.regions, labels);
    return { path: f.path, left: conflictsLeft(segs, st.regions), content };
  });
  const total = outcome.reduce((sum, o) => sum + o.left, 0);
  const local = outcome.filter((o) => o.content === null).map((o) => o.path);
  const ready = total === 0 && outcome.every((o) => o.content !== null && !hasConflictMarkers(o.content));
  const update = (path: string, next: FileState) => setStates((m) => ({ ...m, [path]: next }));

  const suggest = async (f: (typeof files)[number]) => {
    setBusy(f.path);
    try {
      const s = await client.ai.suggestConflictResolution.mutate({
        repoId,
        path: f.path,
        ours: f.ours ?? "",
        theirs: f.theirs ?? "",
        base: f.base ?? "",
        context: { ourBranch: targetBranch, theirBranch: sourceBranch },
      });
      const segs = segments.get(f.path);
      const parts = segs ? mapSuggestion(segs, s.resolved) : null;
      // a region's part is offered only when it resolves it (the local engine keeps markers where unsure)
      const mapped = parts && parts.map((text) => (isResolved({ choice: "suggestion", text }) ? text : null));
      setStates((m) => ({ ...m, [f.path]: { ...(m[f.path] ?? EMPTY), suggestion: s, mapped } }));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    setProblem(null);
    if (!ready) return;
    setBusy("commit");
    try {
      const out = await client.pulls.resolveConflicts.mutate({
        prId,
        expectedHeadSha: headSha,
        files: outcome.map((o) => ({ path: o.path, content: o.content! })),
      });
      toast.success(`Conflicts resolved in ${out.commitSha.slice(0, 7)}`);
      router.push(pullHref);
      router.refresh();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-4">
      {files.map((f, i) => (
        <ConflictFile
          key={f.path}
          file={f}
          segments={segments.get(f.path) ?? null}
          state={states[f.path] ?? EMPTY}
          left={outcome[i]!.left}
          labels={labels}
          canResolve={canResolve}
          busy={busy !== null}
          onSuggest={() => void suggest(f)}
          onChange={(next) => update(f.path, next)}
        />
      ))}
      {canResolve && (
        <div className={cx(card, "space-y-2 px-4 py-3")}>
          <p className="text-sm font-medium text-foreground" aria-live="polite" data-testid="conflicts-left-total">
            {total
              ? `${plural(total, "conflict")} left in ${plural(outcome.filter((o) => o.left).length, "file")}`
              : "Every conflict is resolved"}
          </p>
          <p className="text-sm text-muted-foreground">
            Commits a merge of <code className="font-mono text-xs">{targetBranch}</code> into{" "}
            <code className="font-mono text-xs">{sourceBranch}</code> with these files, as you.
          </p>
          {local.length > 0 && (
            <p className="text-sm text-danger" data-testid="resolution-local-only">
              Resolve {local.join(", ")} on your machine: this page cannot.
            </p>
          )}
          {problem && (
            <p className="text-sm text-danger" role="alert" data-testid="resolution-problem">
              {problem}
            </p>
          )}
          <Button variant="primary" onClick={() => void commit()} disabled={busy !== null || !ready} data-testid="commit-merge">
            {busy === "commit" ? "Committing…" : "Commit merge"}
          </Button>
        </div>
      )}
    </div>
  );
}
