/**
 * Commit history (server component): /<owner>/<repo>/commits/<ref>/<path?>, newest first, grouped
 * by day, 30 a page (`?page=N`). The ref is split from the path like tree/blob (docs/ui.md).
 */
import Link from "next/link";
import { notFound } from "next/navigation";
import { getServerCaller } from "@/server/auth/session";
import { badge, button, card, container, cx } from "@/components/ui/styles";
import { CodeIcon, CommitIcon, HistoryIcon } from "@/components/ui/icons";
import { CopyButton } from "@/components/ui/copy-button";
import { fullDate, relativeTime } from "@/components/ui/format";
import { BranchSwitcher } from "./branch-switcher";
import { CommitMessage } from "./commit-message";
import { loadBranches, loadRepo, orNotFound, orNull, type RepoData } from "./data";
import { dayLabel, groupCommitsByDay, HISTORY_PAGE_SIZE, splitCommitMessage } from "./history";
import { Breadcrumbs } from "./parts";
import { splitRefAndPath } from "./resolve";
import { codeUrl, commitUrl, parentPath, repoUrl } from "./urls";
import { PrefetchLink } from "@/components/ui/prefetch-link";
import { CommitStatusIcon } from "@/components/statuses/commit-status";
import type { CombinedStatus } from "@/server/services/statuses/combined-status";

interface HistoryCommit {
  sha: string;
  message: string;
  author: string;
  date: string;
  committer: string;
}

/** The ref and path a history URL names; no segments (`/commits`) means the default branch. */
async function resolveHistoryTarget(repo: RepoData, segments: string[]): Promise<{ ref: string; path: string }> {
  const branches = await loadBranches(repo.id);
  if (segments.length === 0) {
    const ref = branches.some((b) => b.name === repo.defaultBranch) ? repo.defaultBranch : (branches[0]?.name ?? repo.defaultBranch);
    return { ref, path: "" };
  }
  const { ref, path } = splitRefAndPath(
    branches.map((b) => b.name),
    segments,
  );
  if (!ref) notFound();
  return { ref, path };
}

/** The page title: "History for <path>" or "Commits", for generateMetadata. */
export async function historyTitle(repo: RepoData, segments: string[]): Promise<string> {
  if (repo.isEmpty || segments.length === 0) return `Commits · ${repo.fullName}`;
  const { path } = await resolveHistoryTarget(repo, segments);
  return path ? `History for ${path} · ${repo.fullName}` : `Commits · ${repo.fullName}`;
}

/**
 * `after` (a commit sha from the "Older" link) pages by cursor (repos.commits `after`), so a deep
 * page costs the same as the first; `page` is then only the number shown. Without `after`, the
 * page number is an offset (old links and "Newer").
 */
export async function HistoryPage({
  owner,
  name,
  segments,
  page,
  after,
}: {
  owner: string;
  name: string;
  segments: string[];
  page: number;
  after?: string;
}) {
  const repo = await loadRepo(owner, name);
  if (repo.isEmpty) return <EmptyHistory repo={repo} />;
  const { ref, path } = await resolveHistoryTarget(repo, segments);
  const caller = await getServerCaller();
  // one extra row tells whether there is an older page
  const [rows, branches, parent] = await Promise.all([
    orNotFound(
      caller.repos.commits({
        repoId: repo.id,
        ref,
        path: path || undefined,
        limit: HISTORY_PAGE_SIZE + 1,
        ...(after ? { after } : { offset: (page - 1) * HISTORY_PAGE_SIZE }),
      }),
    ),
    loadBranches(repo.id),
    path ? orNull(caller.repos.tree({ repoId: repo.id, ref, path: parentPath(path) })) : null,
  ]);
  // a path that never existed at this ref has no history (a deleted file still has one)
  if (path && page === 1 && rows.length === 0) notFound();
  const commits: HistoryCommit[] = rows.slice(0, HISTORY_PAGE_SIZE);
  const hasOlder = rows.length > HISTORY_PAGE_SIZE;
  // every row's status icon in one call (statuses.forCommits: two statements for the page)
  const statuses = commits.length ? await orNull(caller.statuses.forCommits({ repoId: repo.id, shas: commits.map((c) => c.sha) })) : null;
  const entry = path ? parent?.entries.find((e) => e.path === path) : undefined;
  const pathKind = entry?.type === "tree" ? "tree" : entry?.type === "blob" ? "blob" : null;
  const base = codeUrl(repo.owner, repo.name, "commits", ref, path);
  const pageHref = (n: number) => (n > 1 ? `${base}?page=${n}` : base);
  const olderHref = hasOlder ? `${base}?page=${page + 1}&after=${commits[commits.length - 1].sha}` : null;

  return (
    <>
      <div className={cx(container, "py-6")}>
        <div className="mb-5 flex flex-wrap items-center gap-3">
          <BranchSwitcher
            repoId={repo.id}
            owner={repo.owner}
            repo={repo.name}
            branches={branches.map((b) => ({ name: b.name, sha: b.sha, isDefault: b.isDefault }))}
            current={ref}
            kind="commits"
            path={path}
          />
          <h1 className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold" data-testid="history-title">
            {path ? (
              <>
                <span className="text-muted-foreground">History for</span>
                <Breadcrumbs repo={repo} gitRef={ref} path={path} isFile={pathKind !== "tree"} />
              </>
            ) : (
              <>
                <HistoryIcon className="text-subtle-foreground" /> Commits
              </>
            )}
          </h1>
          {path && (
            <Link
              href={codeUrl(repo.owner, repo.name, "commits", ref)}
              className={cx(button.ghost, "ml-auto px-2! py-1! text-xs")}
              data-testid="all-commits"
            >
              All commits on <span className="font-mono">{ref.length >= 40 ? ref.slice(0, 10) : ref}</span>
            </Link>
          )}
        </div>

        {commits.length === 0 ? (
          <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="no-more-commits">
            There are no older commits.{" "}
            <Link href={pageHref(1)} className="font-medium text-primary hover:underline">
              Back to the newest
            </Link>
          </div>
        ) : (
          <div className="space-y-6" data-testid="commit-history">
            {groupCommitsByDay(commits).map((group, i) => (
              <section key={`${group.day}-${i}`} data-testid="commit-group">
                <h2 className="mb-2 flex items-center gap-2 text-sm font-medium text-muted-foreground">
                  <CommitIcon className="text-subtle-foreground" /> Commits on {dayLabel(group.day)}
                </h2>
                <ol className={cx(card, "divide-y divide-border overflow-hidden")}>
                  {group.commits.map((c) => (
                    <CommitRow key={c.sha} repo={repo} commit={c} path={path} pathKind={pathKind} status={statuses?.[c.sha]} />
                  ))}
                </ol>
              </section>
            ))}
          </div>
        )}

        {(page > 1 || hasOlder) && (
          <nav className="mt-6 flex items-center justify-center gap-3 text-sm" aria-label="Pagination" data-testid="history-pagination">
            <PageLink href={page > 1 ? pageHref(page - 1) : null} testId="newer-commits">
              ← Newer
            </PageLink>
            <span className="text-subtle-foreground">Page {page}</span>
            <PageLink href={olderHref} testId="older-commits">
              Older →
            </PageLink>
          </nav>
        )}
      </div>
    </>
  );
}

function PageLink({ href, testId, children }: { href: string | null; testId: string; children: React.ReactNode }) {
  if (!href)
    return (
      <span className={cx(button.secondary, "cursor-not-allowed opacity-50 shadow-none")} aria-disabled="true">
        {children}
      </span>
    );
  return (
    <Link href={href} className={button.secondary} data-testid={testId}>
      {children}
    </Link>
  );
}

function CommitRow({
  repo,
  commit,
  path,
  pathKind,
  status,
}: {
  repo: RepoData;
  commit: HistoryCommit;
  path: string;
  pathKind: "tree" | "blob" | null;
  status?: CombinedStatus;
}) {
  const { title, body } = splitCommitMessage(commit.message);
  const short = commit.sha.slice(0, 7);
  const committedByOther = !!commit.committer && commit.committer !== commit.author;
  // the file or directory as it was at this commit; the whole repository otherwise
  const browse =
    path && pathKind ? codeUrl(repo.owner, repo.name, pathKind, commit.sha, path) : codeUrl(repo.owner, repo.name, "tree", commit.sha);
  return (
    <li
      className="flex flex-col gap-2 px-4 py-3 hover:bg-muted/60 sm:flex-row sm:items-start sm:gap-4"
      data-testid="commit-row"
      data-sha={commit.sha}
    >
      <div className="min-w-0 flex-1">
        <CommitMessage title={title} body={body} />
        <div className="mt-1 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted-foreground">
          <span
            className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-slate-300 text-[10px] font-semibold uppercase text-muted-foreground"
            aria-hidden="true"
          >
            {commit.author.slice(0, 1)}
          </span>
          <span className="font-semibold text-foreground" data-testid="commit-author">
            {commit.author}
          </span>
          <span>{committedByOther ? "authored" : "committed"}</span>
          <time dateTime={commit.date} title={fullDate(commit.date)} data-testid="commit-date">
            {relativeTime(commit.date)}
          </time>
          {committedByOther && (
            <span className="text-subtle-foreground">
              · <span className="font-medium text-muted-foreground">{commit.committer}</span> committed
            </span>
          )}
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <CommitStatusIcon status={status} />
        <div className="flex items-stretch overflow-hidden rounded-md border border-input bg-card shadow-sm">
          <PrefetchLink
            href={commitUrl(repo.owner, repo.name, commit.sha)}
            className="flex items-center px-2 font-mono text-xs text-muted-foreground hover:bg-muted hover:text-primary"
            title={`View commit ${commit.sha}`}
            data-testid="commit-sha"
          >
            {short}
          </PrefetchLink>
          <CopyButton
            text={commit.sha}
            label="Copy full SHA"
            iconOnly
            className="rounded-none! border-0! border-l! border-input! px-2! py-1! shadow-none!"
            testId="copy-sha"
          />
        </div>
        <PrefetchLink
          href={browse}
          className={cx(button.ghost, "px-2! py-1!")}
          aria-label="Browse the repository at this commit"
          title="Browse the repository at this commit"
        >
          <CodeIcon />
        </PrefetchLink>
      </div>
    </li>
  );
}

/** An empty repository has no history yet: say so and point at the push instructions. */
function EmptyHistory({ repo }: { repo: RepoData }) {
  const canPush = repo.permission === "write" || repo.permission === "admin";
  return (
    <>
      <div className={cx(container, "py-6")}>
        <div className={cx(card, "mx-auto max-w-2xl px-6 py-12 text-center")} data-testid="no-commits">
          <HistoryIcon className="h-8! w-8! text-subtle-foreground" />
          <h1 className="mt-3 text-lg font-semibold">No commits yet</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            This repository is empty: its history starts with the first push
            {repo.defaultBranch ? (
              <>
                {" "}
                to <span className={cx(badge, "border-input font-mono text-muted-foreground")}>{repo.defaultBranch}</span>
              </>
            ) : null}
            .
          </p>
          <Link href={repoUrl(repo.owner, repo.name)} className={cx(canPush ? button.primary : button.secondary, "mt-5")}>
            {canPush ? "See how to push" : "Back to the repository"}
          </Link>
        </div>
      </div>
    </>
  );
}
