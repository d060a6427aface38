/**
 * The compare page (server component; docs/pulls.md "Viewer"):
 * /<owner>/<repo>/compare/<base>...<head>, as GitHub's: branch pickers, ahead/behind, the commits
 * on head since the merge base, and the three-dot diff (repos.compare). "<head>" alone compares
 * against the default branch. Between two branches with commits to merge, a signed-in reader gets
 * the "Open a pull request" form (components/pulls/create-form.tsx), or a link to the open pull
 * request that already exists.
 */
import Link from "next/link";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { getServerCaller } from "@/server/auth/session";
import { card, container, cx } from "@/components/ui/styles";
import { relativeTime, fullDate } from "@/components/ui/format";
import { loadBranches, loadRepo } from "@/components/code/data";
import { splitCommitMessage } from "@/components/code/history";
import { commitUrl } from "@/components/code/urls";
import { DiffViewer } from "./diff-viewer";
import { packFile, PAGE_DIFF_LINES } from "./model";
import { ComparePickers } from "./compare-pickers";
import { firstScreenFiles } from "@/lib/highlight/diff";
import { highlightDiff } from "@/server/highlight";
import { CreatePullForm } from "@/components/pulls/create-form";
import { pullUrl } from "@/components/pulls/model";

/** base and head of a compare spec "base...head" (or "head": base is `defaultBranch`). */
export function parseCompareSpec(spec: string, defaultBranch: string): { base: string; head: string } {
  const i = spec.indexOf("...");
  return i < 0 ? { base: defaultBranch, head: spec } : { base: spec.slice(0, i), head: spec.slice(i + 3) };
}

export async function ComparePage({ owner, name, spec }: { owner: string; name: string; spec: string }) {
  const repo = await loadRepo(owner, name);
  const { base, head: headSpec } = parseCompareSpec(spec, repo.defaultBranch);
  if (!base || !headSpec) notFound();
  const caller = await getServerCaller();
  // "owner:branch" names a branch of owner's repository in the fork network (the parent, a fork or
  // a sibling fork: repos.network), as on GitHub; branch names
  // cannot hold ":" (git check-ref-format), so the split is unambiguous
  const network = await caller.repos.network({ repoId: repo.id });
  const colon = headSpec.indexOf(":");
  const headOwner = colon > 0 ? headSpec.slice(0, colon) : null;
  const head = colon > 0 ? headSpec.slice(colon + 1) : headSpec;
  const headRepo =
    headOwner && headOwner.toLowerCase() !== repo.owner.toLowerCase()
      ? (network.find((r) => r.owner.toLowerCase() === headOwner.toLowerCase()) ?? null)
      : null;
  const [branches, headBranches] = await Promise.all([
    loadBranches(repo.id).then((bs) => bs.map((b) => b.name)),
    headRepo ? loadBranches(headRepo.id).then((bs) => bs.map((b) => b.name)) : null,
  ]);
  let result: Awaited<ReturnType<typeof caller.repos.compare>> | null = null;
  let problem: string | null =
    headOwner && !headRepo && headOwner.toLowerCase() !== repo.owner.toLowerCase()
      ? `${headOwner} has no repository in the fork network of ${repo.owner}/${repo.name} that you can read.`
      : null;
  if (!problem) {
    try {
      result = await caller.repos.compare({ repoId: repo.id, base, head, headRepoId: headRepo?.id, maxLines: PAGE_DIFF_LINES });
    } catch (e) {
      if (e instanceof TRPCError && e.code === "NOT_FOUND" && !headRepo) notFound();
      if (e instanceof TRPCError && (e.code === "BAD_REQUEST" || e.code === "NOT_FOUND")) problem = e.message;
      else throw e;
    }
  }
  const highlights = result ? await highlightDiff(result.diff, { to: firstScreenFiles(result.diff) }) : undefined;
  // a pull request needs two branches, something to merge, and a signed-in caller
  const headList = headBranches ?? branches;
  const canOpen =
    !!result &&
    result.totalCommits > 0 &&
    repo.permission !== "none" &&
    (headRepo !== null || base !== head) &&
    branches.includes(base) &&
    headList.includes(head);
  const existing =
    canOpen && !headRepo
      ? ((await caller.pulls.list({ repoId: repo.id, state: "open", limit: 100 })).find(
          (p) => p.sourceBranch === head && p.targetBranch === base,
        ) ?? null)
      : null;
  return (
    <div className={cx(container, "py-6")}>
      <h1 className="mb-1 text-lg font-semibold">Comparing changes</h1>
      <p className="mb-4 text-sm text-muted-foreground">Choose two branches to see what changed on the head since it left the base.</p>
      <div className={cx(card, "mb-5 flex flex-wrap items-center gap-3 p-3")}>
        <ComparePickers
          owner={repo.owner}
          repo={repo.name}
          branches={branches}
          base={base}
          head={head}
          headBranches={headList}
          headOwner={headRepo?.owner ?? null}
          network={network}
        />
        <div className="ml-auto" data-testid="compare-actions">
          {existing && (
            <Link
              href={pullUrl(repo.owner, repo.name, existing.number)}
              className="text-sm text-primary underline underline-offset-2"
              data-testid="existing-pull"
            >
              View pull request #{existing.number}
            </Link>
          )}
        </div>
      </div>
      {problem && (
        <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="compare-problem">
          {problem}
        </div>
      )}
      {result && (
        <>
          <p className="mb-3 text-sm text-muted-foreground" data-testid="ahead-behind">
            <span className="font-mono">{head}</span> is {result.aheadBy} {result.aheadBy === 1 ? "commit" : "commits"} ahead of and{" "}
            {result.behindBy} {result.behindBy === 1 ? "commit" : "commits"} behind <span className="font-mono">{base}</span>.
          </p>
          {canOpen && !existing && result.totalCommits > 0 && (
            <div className="mb-5">
              <CreatePullForm
                repo={repo}
                base={{ branch: base, sha: result.baseSha }}
                head={{ branch: head, sha: result.headSha }}
                commits={result.commits.map((c) => ({ message: c.message }))}
                sourceRepoId={headRepo?.id}
              />
            </div>
          )}
          {result.totalCommits === 0 ? (
            <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="nothing-to-compare">
              There isn&apos;t anything to compare: <span className="font-mono">{base}</span> is up to date with all commits from{" "}
              <span className="font-mono">{head}</span>.
            </div>
          ) : (
            <>
              <section className={cx(card, "mb-5 overflow-hidden")} aria-labelledby="compare-commits">
                <h2 id="compare-commits" className="border-b border-border bg-muted px-4 py-2 text-sm font-medium">
                  {result.totalCommits} {result.totalCommits === 1 ? "commit" : "commits"}
                  {result.totalCommits > result.commits.length && (
                    <span className="font-normal text-muted-foreground"> (showing the first {result.commits.length})</span>
                  )}
                </h2>
                <ol className="divide-y divide-border" data-testid="compare-commits">
                  {result.commits.map((c) => (
                    <li key={c.sha} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm">
                      <Link
                        href={commitUrl(repo.owner, repo.name, c.sha)}
                        className="min-w-0 flex-1 truncate hover:text-primary hover:underline"
                      >
                        {splitCommitMessage(c.message).title}
                      </Link>
                      <span className="text-xs text-muted-foreground">
                        {c.author} ·{" "}
                        <time dateTime={c.date} title={fullDate(c.date)}>
                          {relativeTime(c.date)}
                        </time>
                      </span>
                      <Link href={commitUrl(repo.owner, repo.name, c.sha)} className="font-mono text-xs text-primary hover:underline">
                        {c.sha.slice(0, 7)}
                      </Link>
                    </li>
                  ))}
                </ol>
              </section>
              <DiffViewer
                files={result.diff.files.map(packFile)}
                highlights={highlights}
                totalFiles={result.diff.totalFiles}
                source={{ kind: "compare", repoId: repo.id, base: result.baseSha, head: result.headSha, headRepoId: headRepo?.id }}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
