"use client";
/**
 * The merge box of a merged or closed pull request (docs/pulls.md "Delete and restore the branch",
 * "Revert"; GitHub's box after a merge): "Delete branch" (pulls.deleteBranch), then "Restore
 * branch" (pulls.restoreBranch), and for a merged pull request "Revert" (pulls.revert), which opens
 * the new revert pull request. What is offered comes from pulls.headBranch; the page renders the
 * box only when something is.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import { MergedIcon, PullClosedIcon } from "./ui";
import { pullUrl } from "./model";

/** pulls.headBranch's answer. */
export interface HeadBranch {
  branch: string;
  sha: string | null;
  canDelete: boolean;
  canRestore: boolean;
  canRevert: boolean;
}

/** An error message as a sentence (the server's start in lower case). */
const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

export function MergedBox({
  repo,
  pr,
  initial,
}: {
  repo: { owner: string; name: string };
  pr: { id: string; state: string };
  initial: HeadBranch;
}) {
  const client = useTRPCClient();
  const router = useRouter();
  const [status, setStatus] = useState(initial);
  const [busy, setBusy] = useState<null | "delete" | "restore" | "revert">(null);
  const [error, setError] = useState<string | null>(null);
  const merged = pr.state === "merged";

  const run = async (what: "delete" | "restore" | "revert") => {
    setBusy(what);
    setError(null);
    try {
      if (what === "revert") {
        const created = await client.pulls.revert.mutate({ prId: pr.id });
        router.push(pullUrl(repo.owner, repo.name, created.number));
        return;
      }
      setStatus(await (what === "delete" ? client.pulls.deleteBranch : client.pulls.restoreBranch).mutate({ prId: pr.id }));
      router.refresh();
      setBusy(null);
    } catch (e) {
      setError(sentence(errorMessage(e)));
      setBusy(null);
    }
  };

  const branch = <code className="font-mono text-xs">{status.branch}</code>;
  return (
    <section className={cx(card, "overflow-hidden")} aria-label="Branch" data-testid="merged-box">
      <div className="flex flex-wrap items-start gap-3 px-4 py-3">
        <span className={cx("mt-0.5", merged ? "text-merged" : "text-danger")}>{merged ? <MergedIcon /> : <PullClosedIcon />}</span>
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-medium text-foreground">
            {merged ? "Pull request successfully merged and closed" : "Closed with unmerged commits"}
          </p>
          <p className="mt-0.5 text-xs text-subtle-foreground [overflow-wrap:anywhere]" data-testid="merged-box-branch">
            {!status.sha ? (
              <>The {branch} branch was deleted.</>
            ) : merged ? (
              <>The {branch} branch can be safely deleted.</>
            ) : (
              <>The {branch} branch still exists.</>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {status.canDelete && (
            <Button type="button" size="sm" disabled={!!busy} onClick={() => void run("delete")} data-testid="delete-branch">
              {busy === "delete" ? "Deleting…" : "Delete branch"}
            </Button>
          )}
          {status.canRestore && (
            <Button type="button" size="sm" disabled={!!busy} onClick={() => void run("restore")} data-testid="restore-branch">
              {busy === "restore" ? "Restoring…" : "Restore branch"}
            </Button>
          )}
          {status.canRevert && (
            <Button type="button" size="sm" disabled={!!busy} onClick={() => void run("revert")} data-testid="revert-pull">
              {busy === "revert" ? "Reverting…" : "Revert"}
            </Button>
          )}
        </div>
      </div>
      {error && (
        <div className="px-4 pb-3">
          <FormError message={error} />
        </div>
      )}
    </section>
  );
}
