"use client";
/**
 * "Explain" on a file of the Files changed tab (ai.explainFileDiff; docs/ai.md): reads the file at
 * the merge base and at the head (repos.blob), asks ai.explainFileDiff, and shows the summary,
 * impact, explanation, concerns and suggestions in a dialog labelled with the engine that wrote
 * them.
 */
import { useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import type { DiffFile } from "@/components/diff/model";

type Explanation = {
  summary: string;
  explanation: string;
  impact: "low" | "medium" | "high";
  suggestions?: string[];
  concerns?: string[];
  engine: string;
};

const IMPACT_TONE: Record<Explanation["impact"], BadgeTone> = { low: "neutral", medium: "warning", high: "danger" };

/** The engine label every AI output carries: "local" or "<provider>:<model>". */
export function EngineLabel({ engine }: { engine: string }) {
  return (
    <span className="text-xs text-muted-foreground" data-testid="ai-engine">
      Engine: <span className="font-mono">{engine}</span>
    </span>
  );
}

export function ExplainFileButton({
  file,
  repoId,
  prId,
  range,
}: {
  file: DiffFile;
  repoId: string;
  prId: string;
  range: { base: string; head: string };
}) {
  const client = useTRPCClient();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<{ loading: boolean; result?: Explanation; error?: string }>({ loading: false });
  const path = file.status === "deleted" ? file.oldPath : file.newPath;

  const run = async () => {
    setState({ loading: true });
    try {
      const read = async (ref: string, p: string) => {
        const blob = await client.repos.blob.query({ repoId, ref, path: p });
        if (blob.isBinary || blob.truncated || blob.text === null)
          throw new Error(`${p} is ${blob.isBinary ? "a binary file" : "too large"} to explain`);
        return blob.text;
      };
      const [oldContent, newContent] = await Promise.all([
        file.status === "added" ? "" : read(range.base, file.copiedFrom ?? file.oldPath),
        file.status === "deleted" ? "" : read(range.head, file.newPath),
      ]);
      const result = await client.ai.explainFileDiff.mutate({ repoId, prId, path, oldContent, newContent });
      setState({ loading: false, result });
    } catch (e) {
      setState({ loading: false, error: errorMessage(e) });
    }
  };

  const r = state.result;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o && !state.result && !state.loading) void run();
      }}
    >
      <DialogTrigger asChild>
        <Button
          size="sm"
          variant="ghost"
          className="shrink-0 font-sans text-xs"
          aria-label={`Explain ${path}`}
          data-testid="explain-file"
          disabled={file.isBinary || file.isSubmodule}
        >
          Explain
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Explain ${path}`}
        description="What changed in this file and what to look at"
        className="max-w-2xl"
        testId="explain-dialog"
      >
        {state.loading && (
          <p className="text-muted-foreground" role="status">
            Explaining…
          </p>
        )}
        {state.error && (
          <p className="text-danger" role="alert" data-testid="explain-error">
            {state.error}
          </p>
        )}
        {r && (
          <div className="space-y-3" data-testid="explain-result">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={IMPACT_TONE[r.impact]} data-testid="explain-impact">
                Impact: {r.impact}
              </Badge>
              <EngineLabel engine={r.engine} />
            </div>
            <p className="font-medium text-foreground" data-testid="explain-summary">
              {r.summary}
            </p>
            <div className="whitespace-pre-wrap text-foreground [overflow-wrap:anywhere]" data-testid="explain-text">
              {r.explanation}
            </div>
            {r.concerns?.length ? (
              <section aria-label="Concerns">
                <h3 className="text-xs font-semibold uppercase text-muted-foreground">Concerns</h3>
                <ul className="ml-4 list-disc space-y-1" data-testid="explain-concerns">
                  {r.concerns.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </section>
            ) : null}
            {r.suggestions?.length ? (
              <section aria-label="Suggestions">
                <h3 className="text-xs font-semibold uppercase text-muted-foreground">Suggestions</h3>
                <ul className="ml-4 list-disc space-y-1">
                  {r.suggestions.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
              </section>
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
