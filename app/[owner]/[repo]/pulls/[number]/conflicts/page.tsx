import Link from "next/link";
import { card, cx } from "@/components/ui/styles";
import { loadPull, loadPullsContext } from "@/components/pulls/data";
import { pullUrl } from "@/components/pulls/model";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/**
 * The conflicts view (issue #8): for each conflicting file, the base (merge base), ours (the
 * target branch) and theirs (the source branch) side by side; one column under another on a
 * phone. Binary files and files deleted on one side are named, not shown (pulls.getConflicts).
 */
export default async function PullConflictsPage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const result = await ctx.caller.pulls.getConflicts({ prId: pr.id });
  if (!result.hasConflicts) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-conflicts">
        No conflicts: this branch merges cleanly. <Link href={pullUrl(ctx.repo.owner, ctx.repo.name, pr.number)} className="text-primary underline underline-offset-2">Back to the conversation</Link>
      </p>
    );
  }
  const side = (title: string, text: string | null, testId: string) => (
    <div className="min-w-0">
      <h3 className="border-b border-border bg-muted px-3 py-1.5 text-xs font-semibold text-muted-foreground">{title}</h3>
      {text === null ? (
        <p className="px-3 py-2 text-xs italic text-subtle-foreground">(no file on this side)</p>
      ) : (
        <pre className="max-h-[28rem] overflow-auto px-3 py-2 font-mono text-xs text-foreground" tabIndex={0} data-testid={testId}>{text}</pre>
      )}
    </div>
  );
  return (
    <div className="space-y-4" data-testid="conflicts">
      <p className="text-sm text-muted-foreground">
        {result.files.length} file{result.files.length === 1 ? "" : "s"} conflict between <code className="font-mono text-xs">{pr.targetBranch}</code> (ours) and <code className="font-mono text-xs">{pr.sourceBranch}</code> (theirs).
      </p>
      {result.files.map((f) => (
        <section key={f.path} className={cx(card, "overflow-hidden")} aria-label={f.path} data-testid="conflict-file">
          <h2 className="border-b border-border px-4 py-2 font-mono text-sm text-foreground [overflow-wrap:anywhere]">{f.path}</h2>
          {f.isBinary ? (
            <p className="px-4 py-3 text-sm text-muted-foreground">Binary file: both sides changed it.</p>
          ) : (
            <div className="grid grid-cols-1 divide-y divide-border md:grid-cols-3 md:divide-x md:divide-y-0">
              {side(`Base (merge base)`, f.base, "conflict-base")}
              {side(`Ours (${pr.targetBranch})`, f.ours, "conflict-ours")}
              {side(`Theirs (${pr.sourceBranch})`, f.theirs, "conflict-theirs")}
            </div>
          )}
        </section>
      ))}
    </div>
  );
}
