/**
 * A directory's view (the repository home and /tree/ pages): the file list first, then what is
 * slower streamed in behind their own Suspense boundaries — the latest-commit bar (`git log -1`
 * and the commit count) and the README (its blob and the Markdown render with highlighted code
 * blocks). docs/performance.md "Hardening II, item 18"; docs/ui.md "Loading states".
 *
 * The streamed parts read the commit the file list was read at (its sha, not the branch name),
 * so a push between the two never mixes two commits on one page.
 */
import { Suspense } from "react";
import { getServerCaller } from "@/server/auth/session";
import { card, cx } from "@/components/ui/styles";
import { Skeleton } from "@/components/ui/skeleton";
import { orNull, type RepoData } from "./data";
import { MarkdownView } from "./markdown";
import { FileList, LatestCommit, Notice, Panel, type EntryData } from "./parts";
import { codeUrl, commitUrl } from "./urls";

const README_NAMES = ["readme.md", "readme.markdown", "readme", "readme.txt", "readme.rst"];

/** True for the file names the Markdown renderer shows (README, .md previews). */
export function isMarkdown(path: string): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(path);
}

/** The newest commit touching `path` ("" = any) from commit or ref `ref`, or null. */
export async function latestCommit(repoId: string, ref: string, path?: string) {
  const caller = await getServerCaller();
  const commits = await orNull(caller.repos.commits({ repoId, ref, path: path || undefined, limit: 1 }));
  return commits?.[0] ?? null;
}

/**
 * The file list of the directory `path` at `gitRef` (read at commit `sha`), with the latest
 * commit bar and the README streamed in after it. `entries`: the directory's entries (repos.tree).
 */
export function DirectoryContent({
  repo,
  gitRef: ref,
  sha,
  path,
  entries,
}: {
  repo: RepoData;
  gitRef: string;
  sha: string;
  path: string;
  entries: EntryData[];
}) {
  const readmeEntry = README_NAMES.map((n) => entries.find((e) => e.type === "blob" && e.name.toLowerCase() === n)).find(Boolean);
  return (
    <div className="space-y-6">
      <div className={cx(card, "overflow-hidden")}>
        <Suspense fallback={<LatestCommitSkeleton />}>
          <LatestCommitBar repo={repo} gitRef={ref} sha={sha} path={path} />
        </Suspense>
        <FileList repo={repo} gitRef={ref} path={path} entries={entries} />
      </div>
      {readmeEntry && (
        <Suspense fallback={<ReadmeSkeleton name={readmeEntry.name} />}>
          <Readme repo={repo} gitRef={ref} sha={sha} path={path} entry={readmeEntry} />
        </Suspense>
      )}
    </div>
  );
}

/** The bar's place while it loads: same height, so the file list below does not move. */
function LatestCommitSkeleton() {
  return (
    <div className="flex items-center gap-3 border-b border-border bg-muted px-4 py-2.5" data-testid="latest-commit-skeleton">
      <Skeleton className="h-6 w-6 shrink-0 rounded-full" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="ml-auto h-4 w-20" />
    </div>
  );
}

async function LatestCommitBar({ repo, gitRef: ref, sha, path }: { repo: RepoData; gitRef: string; sha: string; path: string }) {
  const caller = await getServerCaller();
  const [commit, count] = await Promise.all([
    latestCommit(repo.id, sha, path),
    path ? null : orNull(caller.repos.commitCount({ repoId: repo.id, ref: sha })),
  ]);
  return (
    <LatestCommit
      commit={commit}
      historyHref={codeUrl(repo.owner, repo.name, "commits", ref, path)}
      commitHref={commit ? commitUrl(repo.owner, repo.name, commit.sha) : undefined}
      commitCount={count?.count}
    />
  );
}

/** The README panel's frame with its name, and pulsing lines where the text comes. */
function ReadmeSkeleton({ name }: { name: string }) {
  return (
    <Panel title={name} testId="readme-skeleton">
      <div className="space-y-3 px-6 py-5 sm:px-8" role="status" aria-live="polite">
        <span className="sr-only">Loading {name}…</span>
        <Skeleton className="h-7 w-1/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-24 w-full" />
      </div>
    </Panel>
  );
}

async function Readme({
  repo,
  gitRef: ref,
  sha,
  path,
  entry,
}: {
  repo: RepoData;
  gitRef: string;
  sha: string;
  path: string;
  entry: EntryData;
}) {
  const caller = await getServerCaller();
  const readme = await orNull(caller.repos.blob({ repoId: repo.id, ref: sha, path: entry.path }));
  if (!readme) return null;
  return (
    <Panel title={entry.name} testId="readme">
      {readme.text !== null && !readme.truncated ? (
        isMarkdown(entry.name) ? (
          <div className="px-6 py-5 sm:px-8">
            <MarkdownView source={readme.text} owner={repo.owner} repo={repo.name} gitRef={ref} dir={path} />
          </div>
        ) : (
          <pre className="overflow-x-auto whitespace-pre-wrap px-6 py-5 font-mono text-sm">{readme.text}</pre>
        )
      ) : (
        <Notice>The README is too large or not text, so it is not shown here.</Notice>
      )}
    </Panel>
  );
}
