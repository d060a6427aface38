"use client";
/**
 * The proposed changes of a session (docs/agent.md "Proposed changes and approval"): every change
 * as a card (ChangeCard), in proposal order, with "Approve all" (agent.approveAllChanges: one
 * commit for every pending change that applies; those that do not stay pending with the reason),
 * "Propose an edit" (changes drafted by hand, the offline path) and, once the session branch exists
 * (after a first approval), "Open pull request" from it into the default branch.
 */
import { useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { repoUrl } from "@/components/code/urls";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { ChangeCard, type AgentChange } from "./change-card";
import { ProposeEdit } from "./propose-edit";

export function ChangesPanel({
  session,
  repo,
  canWrite,
  files,
  initialPath,
  onChanged,
}: {
  session: { id: string; branch: string };
  repo: { id: string; owner: string; name: string; defaultBranch: string };
  canWrite: boolean;
  files: string[];
  /** The file the propose form starts on (the selection's, when one came from the code browser). */
  initialPath?: string;
  onChanged: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const changes = useQuery(trpc.agent.getPendingChanges.queryOptions({ sessionId: session.id }));
  const all = useAction();
  const pr = useAction();
  const [proposing, setProposing] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const [pull, setPull] = useState<{ number: number; title: string } | null>(null);
  const list = (changes.data ?? []) as AgentChange[];
  const pending = list.filter((c) => c.status === "pending").length;
  const branchExists = list.some((c) => c.status === "approved" && c.commitSha && c.type !== "issue");
  // an open pull request from the session branch (opened earlier, or from elsewhere) is linked instead of offered again
  const open = useQuery({
    ...trpc.pulls.list.queryOptions({ repoId: repo.id, state: "open", limit: 100 }),
    enabled: branchExists && !pull,
  });
  const existing = open.data?.find((p) => p.sourceBranch === session.branch);
  const opened = pull ?? (existing ? { number: existing.number, title: existing.title } : null);

  const approveAll = () =>
    all.run(async () => {
      const r = await client.agent.approveAllChanges.mutate({ sessionId: session.id });
      setSummary(`${r.approved} approved${r.failed ? `, ${r.failed} not applied` : ""}.`);
    }, onChanged);
  const openPull = () =>
    pr.run(async () => {
      const p = await client.agent.openPullRequest.mutate({ sessionId: session.id });
      setPull({ number: p.number, title: p.title });
    });

  return (
    <section aria-labelledby="agent-changes-heading" className="space-y-3" data-testid="agent-changes">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="agent-changes-heading" className="mr-auto font-semibold">
          Proposed changes {list.length > 0 && <span className="text-sm font-normal text-muted-foreground">({pending} pending)</span>}
        </h2>
        <Button size="sm" onClick={() => setProposing((p) => !p)} aria-expanded={proposing} data-testid="propose-edit">
          Propose an edit
        </Button>
        {canWrite && pending > 0 && (
          <Button size="sm" variant="primary" onClick={() => void approveAll()} disabled={all.busy} data-testid="approve-all">
            {all.busy ? "Approving…" : "Approve all"}
          </Button>
        )}
        {branchExists && !opened && (
          <Button size="sm" onClick={() => void openPull()} disabled={pr.busy || open.isPending} data-testid="open-pull-request">
            Open pull request
          </Button>
        )}
      </div>
      <p className="text-xs text-muted-foreground">
        Approved changes are committed to <span className="font-mono">{session.branch}</span>, never to {repo.defaultBranch}.
      </p>
      {summary && (
        <p className="text-sm" role="status" data-testid="approve-all-summary">
          {summary}
        </p>
      )}
      <FormError message={all.error ?? pr.error} />
      {opened && (
        <p className="text-sm" role="status" data-testid="pull-opened">
          {pull ? "Opened" : "Pull request"}{" "}
          <Link
            href={`${repoUrl(repo.owner, repo.name)}/pulls/${opened.number}`}
            className="font-medium text-primary hover:underline"
            data-testid="pull-link"
          >
            #{opened.number} {opened.title}
          </Link>
        </p>
      )}
      {proposing && (
        <ProposeEdit
          session={{ id: session.id, branch: session.branch, defaultBranch: repo.defaultBranch }}
          repoId={repo.id}
          files={files}
          initialPath={initialPath}
          onProposed={onChanged}
          onClose={() => setProposing(false)}
        />
      )}
      {changes.isPending ? (
        <p className="text-sm text-muted-foreground">Loading changes…</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-changes">
          No changes proposed yet.
        </p>
      ) : (
        <ul className="space-y-3" data-testid="change-list">
          {list.map((c) => (
            <ChangeCard key={c.id} change={c} repo={repo} canWrite={canWrite} onChanged={onChanged} />
          ))}
        </ul>
      )}
    </section>
  );
}
