"use client";
/**
 * The merge box of an open pull request (docs/pulls.md "Mergeability", "Merge strategies"):
 * mergeability with ahead/behind and the conflicting files (pulls.checkMergeability, polled every
 * 10 s while the tab is visible and on focus, so it follows pushes to the base or head — the server
 * caches per (base tip, head), so polling is cheap), the strategy select, an editable message
 * prefilled per strategy, the delete-branch option and the merge button (pulls.merge). Readers see
 * the status only. A draft shows its real ahead/behind and conflicts and, instead of the merge
 * controls, "Ready for review" (pulls.update isDraft false) for those who may (as GitHub). Squash: "Generate message" (ai.summarizeForSquash) writes the squash commit
 * message from the commits, labelled with the engine that wrote it. While something blocks the
 * merge, writers may "Enable auto-merge" with the chosen strategy and message (pulls.enableAutoMerge):
 * the box then says "Auto-merge enabled by @user (strategy)" with "Disable auto-merge" instead of
 * the merge controls, and the page follows the merge live when it lands.
 */
import { PULL_UPDATED } from "./live-updates";
import { useCallback, useEffect, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { card, cx } from "@/components/ui/styles";
import { sentence } from "@/components/ui/format";
import { AlertIcon, CheckIcon } from "@/components/ui/icons";
import { EngineLabel } from "@/components/ai/engine-label";
import { defaultMergeMessage, squashCommitsInput, type MergeStrategy } from "./merge-message";
import { pullUrl } from "./model";
import { ChecksSection } from "@/components/statuses/commit-status";
import type { CombinedStatus } from "@/server/services/statuses/combined-status";

export interface Mergeability {
  canMerge: boolean;
  conflicts: string[];
  behindBy: number;
  aheadBy: number;
  error?: string | null;
  /** The target branch's merge requirements (branch protection; absent from older answers). */
  requirements?: { kind: string; satisfied: boolean; message: string; context?: string }[];
  /** Only unmet requirements block and the caller (an admin) may merge past them. */
  canBypassRequirements?: boolean;
  /** Auto-merge, when enabled (docs/pulls.md "Auto-merge"): it merges as `enabledBy` with `strategy` once nothing blocks. */
  autoMerge?: { strategy: MergeStrategy; message: string | null; enabledBy: { username: string } | null; enabledAt: string } | null;
}

const STRATEGIES: { value: MergeStrategy; label: string }[] = [
  { value: "merge", label: "Create a merge commit" },
  { value: "squash", label: "Squash and merge" },
  { value: "rebase", label: "Rebase and merge" },
];

export function MergeBox({
  repo,
  pr,
  initial,
  canMerge: mayMerge,
  canMarkReady,
  commits,
  sourceOwner,
  sameRepo,
  checks,
}: {
  repo: { id: string; owner: string; name: string };
  pr: { id: string; number: number; title: string; sourceBranch: string; targetBranch: string; isDraft: boolean };
  initial: Mergeability;
  canMerge: boolean;
  /** the author or a writer: a draft offers "Ready for review" */
  canMarkReady: boolean;
  commits: { sha: string; message: string; author: string; authorEmail: string }[];
  sourceOwner: string;
  sameRepo: boolean;
  /** the head commit's status contexts and check runs (statuses.combined; refreshed with the page on a live "status" notice) */
  checks?: CombinedStatus | null;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [status, setStatus] = useState<Mergeability>(initial);
  const [strategy, setStrategy] = useState<MergeStrategy>("merge");
  const [message, setMessage] = useState(() => defaultMergeMessage("merge", { ...pr, sourceOwner, commits }));
  const [deleteBranch, setDeleteBranch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [enabling, setEnabling] = useState(false);
  const [readied, setReadied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [writer, setWriter] = useState<{ busy: boolean; engine: string | null; error: string | null }>({
    busy: false,
    engine: null,
    error: null,
  });

  const generate = async () => {
    setWriter({ busy: true, engine: null, error: null });
    try {
      const s = await client.ai.summarizeForSquash.mutate({
        repoId: repo.id,
        prId: pr.id,
        prTitle: pr.title,
        commits: squashCommitsInput(commits),
      });
      setMessage(s.message);
      setWriter({ busy: false, engine: s.engine, error: null });
    } catch (e) {
      setWriter({ busy: false, engine: null, error: errorMessage(e) });
    }
  };

  const refresh = useCallback(async () => {
    try {
      setStatus(await client.pulls.checkMergeability.query({ prId: pr.id }));
    } catch {
      // keep the last status; the next poll tries again
    }
  }, [client, pr.id]);

  useEffect(() => {
    const tick = () => document.visibilityState === "visible" && void refresh();
    const timer = window.setInterval(tick, 10_000);
    window.addEventListener("focus", tick);
    window.addEventListener(PULL_UPDATED, tick); // a push or merge seen live (live-updates.tsx)
    return () => (window.clearInterval(timer), window.removeEventListener("focus", tick), window.removeEventListener(PULL_UPDATED, tick));
  }, [refresh]);

  const pick = (s: string) => {
    const next = s as MergeStrategy;
    setStrategy(next);
    setMessage(defaultMergeMessage(next, { ...pr, sourceOwner, commits }));
    setWriter({ busy: false, engine: null, error: null });
  };

  const merge = async (bypassRequirements = false) => {
    setBusy(true);
    setError(null);
    try {
      await client.pulls.merge.mutate({
        prId: pr.id,
        strategy,
        message: strategy === "rebase" ? undefined : message,
        deleteBranch: sameRepo && deleteBranch,
        ...(bypassRequirements ? { bypassRequirements } : {}),
      });
      toast.success(`Pull request #${pr.number} merged`);
      router.refresh();
    } catch (e) {
      setError(errorMessage(e));
      void refresh();
    } finally {
      setBusy(false);
    }
  };

  const enableAutoMerge = async () => {
    setBusy(true);
    setEnabling(true);
    setError(null);
    try {
      const r = await client.pulls.enableAutoMerge.mutate({
        prId: pr.id,
        strategy,
        message: strategy === "rebase" ? undefined : message,
      });
      if (r.merged) {
        toast.success(`Pull request #${pr.number} merged`);
        router.refresh();
      } else {
        setStatus((s) => ({ ...s, autoMerge: r.autoMerge }));
        toast.success("Auto-merge enabled");
      }
    } catch (e) {
      setError(errorMessage(e));
      void refresh();
    } finally {
      setBusy(false);
      setEnabling(false);
    }
  };

  const disableAutoMerge = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.pulls.disableAutoMerge.mutate({ prId: pr.id });
      setStatus((s) => ({ ...s, autoMerge: null }));
      toast.success("Auto-merge disabled");
    } catch (e) {
      setError(errorMessage(e));
      void refresh();
    } finally {
      setBusy(false);
    }
  };

  const markReady = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.pulls.update.mutate({ prId: pr.id, isDraft: false });
      setReadied(true); // the merge controls at once, not after the page's refresh
      await refresh();
      router.refresh();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const ok = status.canMerge;
  const draft = pr.isDraft && !readied;
  const auto = status.autoMerge ?? null;
  return (
    <section className={cx(card, "overflow-hidden")} aria-label="Merge" data-testid="merge-box" data-can-merge={ok ? "true" : "false"}>
      <ChecksSection checks={checks} />
      <div className={cx("flex items-start gap-3 border-b border-border px-4 py-3", ok ? "bg-primary-muted" : "bg-muted")}>
        <span className={cx("mt-0.5", ok ? "text-primary" : "text-warning")}>{ok ? <CheckIcon /> : <AlertIcon />}</span>
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-medium text-foreground" data-testid="merge-status">
            {draft
              ? "This pull request is still a work in progress"
              : ok
                ? "This branch has no conflicts with the base branch"
                : status.error
                  ? sentence(status.error)
                  : "This branch cannot be merged"}
          </p>
          <p className="mt-0.5 text-xs text-subtle-foreground" data-testid="merge-ahead-behind">
            {status.aheadBy} commit{status.aheadBy === 1 ? "" : "s"} ahead, {status.behindBy} behind {pr.targetBranch}
          </p>
          {(status.requirements ?? []).length > 0 && (
            <ul className="mt-2 space-y-0.5 text-xs" aria-label="Merge requirements" data-testid="merge-requirements">
              {status.requirements!.map((r, i) => (
                <li
                  key={`${r.kind}-${r.context ?? ""}-${i}`}
                  className={cx("flex items-center gap-1.5", r.satisfied ? "text-muted-foreground" : "text-foreground")}
                  data-testid="merge-requirement"
                  data-satisfied={r.satisfied ? "true" : "false"}
                >
                  <span className={r.satisfied ? "text-primary" : "text-warning"}>{r.satisfied ? <CheckIcon /> : <AlertIcon />}</span>
                  <span className="sr-only">{r.satisfied ? "Satisfied:" : "Required:"}</span>
                  {r.message}
                </li>
              ))}
            </ul>
          )}
          {auto && (
            <p className="mt-2 text-xs text-foreground" data-testid="auto-merge-status">
              <span className="font-medium">
                Auto-merge enabled by {auto.enabledBy ? `@${auto.enabledBy.username}` : "a deleted user"} ({auto.strategy})
              </span>
              <span className="block text-subtle-foreground">
                This pull request will merge automatically when all requirements are met.
              </span>
            </p>
          )}
          {status.conflicts.length > 0 && (
            <div className="mt-2" data-testid="merge-conflicts">
              <p className="text-xs font-medium text-foreground">Conflicting files</p>
              <ul className="mt-1 space-y-0.5 font-mono text-xs text-muted-foreground">
                {status.conflicts.slice(0, 20).map((p) => (
                  <li key={p} className="[overflow-wrap:anywhere]">
                    {p}
                  </li>
                ))}
                {status.conflicts.length > 20 && <li>and {status.conflicts.length - 20} more</li>}
              </ul>
              <Link
                href={pullUrl(repo.owner, repo.name, pr.number, "conflicts")}
                className="mt-2 inline-block text-xs text-primary underline underline-offset-2"
                data-testid="view-conflicts"
              >
                View conflicts
              </Link>
            </div>
          )}
        </div>
      </div>
      {draft && canMarkReady && (
        <div className="space-y-3 px-4 py-3">
          <p className="text-xs text-subtle-foreground">
            Draft pull requests cannot be merged; mark it ready to merge and ask for reviews.
          </p>
          <FormError message={error} />
          <Button type="button" variant="primary" disabled={busy} onClick={() => void markReady()} data-testid="merge-ready">
            {busy ? "Marking ready…" : "Ready for review"}
          </Button>
        </div>
      )}
      {mayMerge && !draft && auto && (
        <div className="space-y-3 px-4 py-3">
          <FormError message={error} />
          <Button type="button" disabled={busy} onClick={() => void disableAutoMerge()} data-testid="auto-merge-disable">
            {busy ? "Disabling…" : "Disable auto-merge"}
          </Button>
        </div>
      )}
      {mayMerge && !draft && !auto && (
        <div className="space-y-3 px-4 py-3">
          <Field label="Merge method">
            <Select value={strategy} onValueChange={pick} options={STRATEGIES} testId="merge-strategy" />
          </Field>
          {strategy !== "rebase" ? (
            <Field
              label="Commit message"
              hint={
                strategy === "squash"
                  ? "The squashed commit is authored by the pull request's author; other authors become Co-authored-by trailers."
                  : undefined
              }
            >
              <Textarea
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                rows={5}
                className="font-mono text-xs"
                data-testid="merge-message"
              />
            </Field>
          ) : (
            <p className="text-xs text-subtle-foreground">
              Each commit is replayed onto {pr.targetBranch} with its author and date; you become the committer.
            </p>
          )}
          {strategy === "squash" && commits.length > 0 && (
            <div className="space-y-2" data-testid="generate-message-bar">
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  type="button"
                  size="sm"
                  disabled={writer.busy || busy}
                  onClick={() => void generate()}
                  data-testid="generate-message"
                >
                  {writer.busy ? "Writing…" : "Generate message"}
                </Button>
                {writer.engine && <EngineLabel engine={writer.engine} />}
              </div>
              <FormError message={writer.error} />
            </div>
          )}
          {sameRepo && (
            <label className="flex items-center gap-2 text-sm text-foreground">
              <input
                type="checkbox"
                checked={deleteBranch}
                onChange={(e) => setDeleteBranch(e.target.checked)}
                className="h-4 w-4 accent-[var(--primary)]"
                data-testid="merge-delete-branch"
              />
              Delete the <code className="font-mono text-xs">{pr.sourceBranch}</code> branch after merging
            </label>
          )}
          <FormError message={error} />
          <div className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              variant="primary"
              disabled={!ok || busy || (strategy !== "rebase" && !message.trim())}
              onClick={() => void merge()}
              data-testid="merge-button"
            >
              {busy && !enabling
                ? "Merging…"
                : STRATEGIES.find((s) => s.value === strategy)!.label.replace("Create a merge commit", "Merge pull request")}
            </Button>
            {!ok && (
              <Button
                type="button"
                disabled={busy || (strategy !== "rebase" && !message.trim())}
                onClick={() => void enableAutoMerge()}
                data-testid="auto-merge-enable"
              >
                {enabling ? "Enabling…" : "Enable auto-merge"}
              </Button>
            )}
          </div>
          {!ok && (
            <p className="text-xs text-subtle-foreground">Auto-merge merges with this method and message as soon as nothing blocks it.</p>
          )}
          {!ok && status.canBypassRequirements && (
            <Button
              type="button"
              variant="danger"
              disabled={busy || (strategy !== "rebase" && !message.trim())}
              onClick={() => void merge(true)}
              data-testid="merge-bypass"
            >
              Merge without waiting for requirements (bypass)
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
