import Link from "next/link";
import { ConflictsEditor } from "@/components/pulls/conflicts-editor";
import { loadPull, loadPullsContext } from "@/components/pulls/data";
import { pullUrl } from "@/components/pulls/model";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/**
 * The conflicts view (docs/pulls.md "Conflicts"): each conflicting file once, with its conflict
 * regions inline — ours (the target branch), theirs (the source branch), the merge base folded —
 * from git's diff3 merge (pulls.getConflicts `merged`). Binary files and files deleted on one side
 * are named, not shown. Signed-in viewers of an open pull request resolve text conflicts here per
 * region and "Commit merge" (components/pulls/conflicts-editor.tsx).
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
          merged: f.merged,
        }))}
        canResolve={!!ctx.me && pr.state === "open" && !result.truncated}
        pullHref={pullUrl(ctx.repo.owner, ctx.repo.name, pr.number)}
      />
    </div>
  );
}
