"use client";
/**
 * The AI review panel of the Conversation tab's sidebar (docs/ai.md "AI review"): the
 * latest run's status (queued, running, done, failed with its reason), the engine that made it,
 * the summary, the findings (count linking to the Files changed tab, where they are inline
 * threads of the bot) and "Re-run" for the author and writers of an open pull request.
 * Live: the page re-renders on the run's live notices (LiveUpdates); while a run is pending the
 * panel also asks again every POLL_MS and on PULL_UPDATED, in case a notice was missed.
 */
import { useEffect, useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { cx } from "@/components/ui/styles";
import { Section } from "@/components/issues/issue-section";
import { IssueMarkdown } from "@/components/issues/markdown";
import { PULL_UPDATED } from "./live-updates";
import { pullUrl } from "./model";

type Client = ReturnType<typeof useTRPCClient>;
export type AiReviewRun = NonNullable<Awaited<ReturnType<Client["pulls"]["getAIReview"]["query"]>>>;

const POLL_MS = 3_000;
const STATUS: Record<AiReviewRun["status"], { label: string; tone: BadgeTone }> = {
  queued: { label: "Queued", tone: "neutral" },
  running: { label: "Reviewing…", tone: "primary" },
  done: { label: "Done", tone: "primary" },
  failed: { label: "Failed", tone: "danger" },
};
const SEVERITY_TONE: Record<string, BadgeTone> = { error: "danger", warning: "warning", info: "neutral" };

/** The engine as people read it: "local engine" or the provider:model label. */
export function engineLabel(engine: string | null): string {
  return !engine ? "engine not chosen yet" : engine === "local" ? "local engine" : engine;
}

/**
 * The summary's Markdown without the body's engine footer (the panel labels the engine itself);
 * rendered as Markdown, so its finding lists are lists, not raw "- " lines.
 */
export function summarySource(body: string): string {
  return body.replace(/\n*_AI review by [^\n]*_\s*$/, "").trim();
}

const newer = (a: AiReviewRun | null, b: AiReviewRun | null) =>
  !a ? b : !b ? a : a.id === b.id ? (a.updatedAt >= b.updatedAt ? a : b) : a.createdAt >= b.createdAt ? a : b;

export function AiReviewPanel({
  prId,
  initial,
  canTrigger,
  repo,
  number,
}: {
  prId: string;
  initial: AiReviewRun | null;
  canTrigger: boolean;
  repo: { owner: string; name: string };
  number: number;
}) {
  const client = useTRPCClient();
  const [fetched, setFetched] = useState<AiReviewRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = newer(initial, fetched);
  const pending = run?.status === "queued" || run?.status === "running";

  useEffect(() => {
    let alive = true;
    const refresh = () =>
      void client.pulls.getAIReview.query({ prId }).then(
        (r) => alive && setFetched(r),
        () => undefined,
      );
    const onUpdate = () => refresh();
    window.addEventListener(PULL_UPDATED, onUpdate);
    const timer = pending ? window.setInterval(refresh, POLL_MS) : undefined;
    return () => {
      alive = false;
      window.removeEventListener(PULL_UPDATED, onUpdate);
      window.clearInterval(timer);
    };
  }, [client, prId, pending]);

  const rerun = async () => {
    setBusy(true);
    setError(null);
    try {
      setFetched(await client.pulls.triggerAIReview.mutate({ prId }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const inline = run?.findings.filter((f) => f.path && f.line) ?? [];
  const status = run ? STATUS[run.status] : null;
  return (
    <Section
      title="AI review"
      testId="ai-review-panel"
      action={
        canTrigger ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={busy || pending}
            onClick={() => void rerun()}
            data-testid="ai-review-rerun"
          >
            {run ? "Re-run" : "Run"}
          </Button>
        ) : undefined
      }
    >
      <div className="space-y-2 px-2" aria-live="polite" data-testid="ai-review" data-status={run?.status ?? "none"}>
        {!run && (
          <p className="text-subtle-foreground">
            No AI review yet{canTrigger ? ": run one, or mark the pull request ready for review." : "."}
          </p>
        )}
        {run && status && (
          <>
            <div className="flex flex-wrap items-center gap-1.5">
              <Badge tone={status.tone} data-testid="ai-review-status">
                {status.label}
              </Badge>
              {run.status === "done" && run.state && (
                <Badge tone={run.state === "changes_requested" ? "danger" : "neutral"} data-testid="ai-review-state">
                  {run.state === "changes_requested" ? "Changes requested" : "Commented"}
                </Badge>
              )}
              <span className="text-xs text-muted-foreground" data-testid="ai-review-engine">
                by {engineLabel(run.engine)}
              </span>
            </div>
            {run.status === "failed" && (
              <p className="break-words text-danger" role="alert" data-testid="ai-review-error">
                {run.error ?? "The review failed."}
              </p>
            )}
            {run.status === "done" && (
              <>
                <div className="break-words text-muted-foreground">
                  <IssueMarkdown source={summarySource(run.body ?? "")} repo={repo} testId="ai-review-summary" />
                </div>
                {inline.length > 0 && (
                  <a
                    href={pullUrl(repo.owner, repo.name, number, "files")}
                    className="font-medium text-primary hover:underline"
                    data-testid="ai-review-findings-link"
                  >
                    {inline.length} finding{inline.length === 1 ? "" : "s"} in Files changed
                  </a>
                )}
                {inline.length > 0 && (
                  <ul className="space-y-1" data-testid="ai-review-findings">
                    {inline.slice(0, 5).map((f, i) => (
                      <li key={i} className="flex min-w-0 items-start gap-1.5">
                        <Badge tone={SEVERITY_TONE[f.severity] ?? "neutral"} className="shrink-0">
                          {f.severity}
                        </Badge>
                        <span className={cx("min-w-0 break-all font-mono text-xs text-muted-foreground")}>
                          {f.path}:{f.line}
                        </span>
                      </li>
                    ))}
                    {inline.length > 5 && <li className="text-xs text-subtle-foreground">and {inline.length - 5} more</li>}
                  </ul>
                )}
              </>
            )}
          </>
        )}
        <FormError message={error} />
      </div>
    </Section>
  );
}
