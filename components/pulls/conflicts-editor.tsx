"use client";
/**
 * The conflicts view's editor ("Suggest resolution" and "Use this resolution", GitHub's web
 * conflict editor; docs/pulls.md "Conflicts"): per conflicting file the three sides, then
 * "Suggest resolution" (ai.suggestConflictResolution: an editable suggestion with its
 * confidence, warnings and engine) or one of the alternatives (ours, theirs, both); "Use this
 * resolution" commits a merge of the target branch into the source branch with every file's
 * text (pulls.resolveConflicts, compare-and-swap on the head the page loaded). Markers left in a
 * file are named before anything is sent; the server refuses them too.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { card, cx } from "@/components/ui/styles";
import { toast } from "@/components/ui/toast";
import { EngineLabel } from "./explain-file";

export interface ConflictFileProps {
  path: string;
  ours: string | null;
  theirs: string | null;
  base: string | null;
  isBinary: boolean;
  kind: "content" | "add/add" | "delete/modify" | "other";
}

type Suggestion = {
  resolved: string;
  explanation: string;
  confidence: "low" | "medium" | "high";
  alternatives?: Array<{ content: string; description: string }>;
  warnings?: string[];
  engine: string;
};

const CONFIDENCE_TONE: Record<Suggestion["confidence"], BadgeTone> = { high: "primary", medium: "warning", low: "danger" };
const MARKER = /^(?:<{7}|>{7})(?: [^\n]*)?\r?$/m;

function Side({ title, text, testId }: { title: string; text: string | null; testId: string }) {
  return (
    <div className="min-w-0">
      <h3 className="border-b border-border bg-muted px-3 py-1.5 text-xs font-semibold text-muted-foreground">{title}</h3>
      {text === null ? (
        <p className="px-3 py-2 text-xs italic text-subtle-foreground">(no file on this side)</p>
      ) : (
        <pre className="max-h-[28rem] overflow-auto px-3 py-2 font-mono text-xs text-foreground" tabIndex={0} data-testid={testId}>
          {text}
        </pre>
      )}
    </div>
  );
}

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
  files: ConflictFileProps[];
  canResolve: boolean;
  pullHref: string;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, Suggestion>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const editable = (f: ConflictFileProps) =>
    !f.isBinary && (f.kind === "content" || f.kind === "add/add") && f.ours !== null && f.theirs !== null;
  const local = files.filter((f) => !editable(f));

  const suggest = async (f: ConflictFileProps) => {
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
      setSuggestions((m) => ({ ...m, [f.path]: s }));
      setTexts((m) => ({ ...m, [f.path]: s.resolved }));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    setProblem(null);
    const missing = files.filter((f) => texts[f.path] === undefined).map((f) => f.path);
    if (missing.length) return setProblem(`Resolve every file first; not yet: ${missing.join(", ")}`);
    const marked = files.filter((f) => MARKER.test(texts[f.path]!)).map((f) => f.path);
    if (marked.length) return setProblem(`Conflict markers remain in ${marked.join(", ")}: edit them out first`);
    setBusy("commit");
    try {
      const out = await client.pulls.resolveConflicts.mutate({
        prId,
        expectedHeadSha: headSha,
        files: files.map((f) => ({ path: f.path, content: texts[f.path]! })),
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
      {files.map((f) => {
        const s = suggestions[f.path];
        const id = `resolution-${f.path.replace(/[^\w-]/g, "_")}`;
        return (
          <section key={f.path} className={cx(card, "overflow-hidden")} aria-label={f.path} data-testid="conflict-file">
            <h2 className="border-b border-border px-4 py-2 font-mono text-sm text-foreground [overflow-wrap:anywhere]">{f.path}</h2>
            {f.isBinary ? (
              <p className="px-4 py-3 text-sm text-muted-foreground">Binary file: both sides changed it.</p>
            ) : (
              <div className="grid grid-cols-1 divide-y divide-border md:grid-cols-3 md:divide-x md:divide-y-0">
                <Side title="Base (merge base)" text={f.base} testId="conflict-base" />
                <Side title={`Ours (${targetBranch})`} text={f.ours} testId="conflict-ours" />
                <Side title={`Theirs (${sourceBranch})`} text={f.theirs} testId="conflict-theirs" />
              </div>
            )}
            {canResolve && (
              <div className="space-y-2 border-t border-border px-4 py-3 text-sm" data-testid="conflict-resolution">
                {editable(f) ? (
                  <>
                    <div className="flex flex-wrap items-center gap-2">
                      <Button size="sm" onClick={() => void suggest(f)} disabled={busy !== null} data-testid="suggest-resolution">
                        {busy === f.path ? "Suggesting…" : "Suggest resolution"}
                      </Button>
                      {(s?.alternatives ?? []).map((a, i) => (
                        <Button
                          key={i}
                          size="sm"
                          variant="ghost"
                          title={a.description}
                          onClick={() => setTexts((m) => ({ ...m, [f.path]: a.content }))}
                          data-testid="resolution-alternative"
                        >
                          {["Use ours", "Use theirs", "Use both"][i] ?? `Alternative ${i + 1}`}
                        </Button>
                      ))}
                    </div>
                    {s && (
                      <div className="space-y-1" data-testid="resolution-meta">
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
                      </div>
                    )}
                    {texts[f.path] !== undefined && (
                      <div>
                        <label htmlFor={id} className="mb-1 block text-xs font-medium text-muted-foreground">
                          Resolved {f.path}
                        </label>
                        <Textarea
                          id={id}
                          value={texts[f.path]}
                          onChange={(e) => setTexts((m) => ({ ...m, [f.path]: e.target.value }))}
                          rows={Math.min(24, Math.max(6, texts[f.path]!.split("\n").length + 1))}
                          className="font-mono text-xs"
                          spellCheck={false}
                          data-testid="resolution-text"
                        />
                      </div>
                    )}
                  </>
                ) : (
                  <p className="text-muted-foreground">
                    This conflict ({f.isBinary ? "a binary file" : f.kind}) cannot be resolved in the browser: merge {targetBranch} into{" "}
                    {sourceBranch} on your machine.
                  </p>
                )}
              </div>
            )}
          </section>
        );
      })}
      {canResolve && (
        <div className={cx(card, "space-y-2 px-4 py-3")}>
          <p className="text-sm text-muted-foreground">
            Commits a merge of <code className="font-mono text-xs">{targetBranch}</code> into{" "}
            <code className="font-mono text-xs">{sourceBranch}</code> with these files, as you.
          </p>
          {problem && (
            <p className="text-sm text-danger" role="alert" data-testid="resolution-problem">
              {problem}
            </p>
          )}
          <Button variant="primary" onClick={() => void commit()} disabled={busy !== null || local.length > 0} data-testid="use-resolution">
            {busy === "commit" ? "Committing…" : "Use this resolution"}
          </Button>
        </div>
      )}
    </div>
  );
}
