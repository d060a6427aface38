import Link from "next/link";
import { ConflictsEditor } from "@/components/pulls/conflicts-editor";
import { loadPull, loadPullsContext } from "@/components/pulls/data";
import { pullUrl } from "@/components/pulls/model";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/**
 * The conflicts view (docs/pulls.md "Conflicts"): for each conflicting file, the base (merge base),
 * ours (the target branch) and theirs (the source branch) side by side; one column under another on
 * a phone. Binary files and files deleted on one side are named, not shown (pulls.getConflicts).
 * Signed-in viewers of an open pull request can resolve text conflicts here ("Suggest resolution",
 * "Use this resolution"; components/pulls/conflicts-editor.tsx).
 */
export default async function PullConflictsPage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const result = await ctx.caller.pulls.getConflicts({ prId: pr.id });
  if (!result.hasConflicts) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-conflicts">
        No conflicts: this branch merges cleanly.{" "}
        <Link href={pullUrl(ctx.repo.owner, ctx.repo.name, pr.number)} className="text-primary underline underline-offset-2">
          Back to the conversation
        </Link>
      </p>
    );
  }
  return (
    <div className="space-y-4" data-testid="conflicts">
      <p className="text-sm text-muted-foreground">
        {result.files.length} file{result.files.length === 1 ? "" : "s"} conflict between{" "}
        <code className="font-mono text-xs">{pr.targetBranch}</code> (ours) and <code className="font-mono text-xs">{pr.sourceBranch}</code>{" "}
        (theirs).
      </p>
      <ConflictsEditor
        repoId={ctx.repo.id}
        prId={pr.id}
        headSha={pr.headSha}
        targetBranch={pr.targetBranch}
        sourceBranch={pr.sourceBranch}
        files={result.files.map((f) => ({
          path: f.path,
          ours: f.ours,
          theirs: f.theirs,
          base: f.base,
          isBinary: f.isBinary,
          kind: f.kind,
        }))}
        canResolve={!!ctx.me && pr.state === "open" && !result.truncated}
        pullHref={pullUrl(ctx.repo.owner, ctx.repo.name, pr.number)}
      />
    </div>
  );
}
