/** Server-rendered building blocks of the code browser. */
import Link from "next/link";
import { badge, card, cx, container } from "@/components/ui/styles";
import { CopyButton } from "@/components/ui/copy-button";
import { BookIcon, CommitIcon, FileIcon, FolderIcon, HistoryIcon, LockIcon, RepoIcon, SubmoduleIcon } from "@/components/ui/icons";
import { formatBytes, fullDate, relativeTime } from "@/components/ui/format";
import { codeUrl, repoUrl } from "./urls";
import type { RepoData } from "./data";
import { OpenIssuesCount } from "@/components/issues/open-count";
import { RepoTabs } from "./repo-tabs";
import { OpenPullsCount } from "@/components/pulls/open-count";
import { PrefetchLink } from "@/components/ui/prefetch-link";
import { ForkButton } from "@/components/repos/fork-button";
import { WatchMenu } from "@/components/repos/watch-menu";

/**
 * Repository name, visibility, description and tabs: Code, Issues (with the open count), and
 * Settings for admins only; "forked from owner/name" under the name and the Fork button with the
 * fork count (docs/pulls.md "Forks"). Rendered once by app/[owner]/[repo]/layout.tsx for every page
 * of the repository (its 404 page included); the active tab follows the URL (RepoTabs).
 */
export function RepoHeader({ repo, signedIn = false }: { repo: RepoData; signedIn?: boolean }) {
  return (
    <div className="border-b border-border bg-card">
      <div className={cx(container, "pt-5")}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2 text-lg">
              <RepoIcon className="text-subtle-foreground" />
              <Link href={`/${encodeURIComponent(repo.owner)}`} prefetch={false} className="text-muted-foreground hover:underline">
                {repo.owner}
              </Link>
              <span className="text-subtle-foreground">/</span>
              <Link href={repoUrl(repo.owner, repo.name)} className="font-semibold text-primary hover:underline" data-testid="repo-name">
                {repo.name}
              </Link>
              <span
                className={cx(
                  badge,
                  repo.isPrivate ? "border-warning-border bg-warning-muted text-warning" : "border-input text-muted-foreground",
                )}
              >
                {repo.isPrivate && <LockIcon className="mr-1 h-3! w-3!" />}
                {repo.isPrivate ? "Private" : "Public"}
              </span>
            </div>
            {repo.parent && (
              <p className="text-xs text-muted-foreground" data-testid="forked-from">
                forked from{" "}
                <Link href={repoUrl(repo.parent.owner, repo.parent.name)} prefetch={false} className="text-primary hover:underline">
                  {repo.parent.owner}/{repo.parent.name}
                </Link>
              </p>
            )}
          </div>
          <div className="flex items-center gap-2">
            {signedIn && repo.watchLevel && <WatchMenu repoId={repo.id} initial={repo.watchLevel} />}
            <ForkButton repoId={repo.id} name={repo.name} forkCount={repo.forkCount} signedIn={signedIn} />
          </div>
        </div>
        {repo.description && <p className="mt-1 text-sm text-muted-foreground">{repo.description}</p>}
        <RepoTabs
          owner={repo.owner}
          name={repo.name}
          isAdmin={repo.permission === "admin"}
          signedIn={signedIn}
          openIssues={<OpenIssuesCount repoId={repo.id} />}
          openPulls={<OpenPullsCount repoId={repo.id} />}
        />
      </div>
    </div>
  );
}

/** The clone URLs: HTTP, and SSH when the server runs git over SSH (docs/ssh.md). */
export function CloneBox({ url, sshUrl }: { url: string; sshUrl?: string | null }) {
  const rows: { label: string; url: string; testId: string }[] = [{ label: "Clone with HTTP", url, testId: "clone-url" }];
  if (sshUrl) rows.push({ label: "Clone with SSH", url: sshUrl, testId: "ssh-clone-url" });
  return (
    <div data-testid="clone-box" className="space-y-2">
      {rows.map((r) => (
        <div key={r.testId}>
          <div className="mb-1 text-xs font-semibold uppercase tracking-wide text-subtle-foreground">{r.label}</div>
          <div className="flex gap-2">
            <input
              readOnly
              value={r.url}
              aria-label={r.testId === "clone-url" ? "Clone URL" : "SSH clone URL"}
              data-testid={r.testId}
              className="min-w-0 flex-1 rounded-md border border-input bg-muted px-2 py-1.5 font-mono text-xs text-foreground"
            />
            <CopyButton text={r.url} label="Copy" testId={`copy-${r.testId}`} />
          </div>
        </div>
      ))}
    </div>
  );
}

export function CommandBlock({ lines, testId }: { lines: string[]; testId?: string }) {
  const text = lines.join("\n");
  return (
    <div className="relative rounded-md border border-border bg-slate-900" data-testid={testId}>
      <pre className="overflow-x-auto p-3 pr-24 font-mono text-xs leading-5 text-slate-100">{text}</pre>
      <div className="absolute right-2 top-2">
        <CopyButton text={text} label="Copy" className="px-2! py-1! text-xs" />
      </div>
    </div>
  );
}

export function Breadcrumbs({ repo, gitRef: ref, path, isFile }: { repo: RepoData; gitRef: string; path: string; isFile: boolean }) {
  const parts = path.split("/").filter(Boolean);
  return (
    <nav aria-label="Breadcrumbs" className="flex min-w-0 flex-wrap items-center gap-1 text-sm" data-testid="breadcrumbs">
      <Link
        href={ref === repo.defaultBranch ? repoUrl(repo.owner, repo.name) : codeUrl(repo.owner, repo.name, "tree", ref)}
        className="font-semibold text-primary hover:underline"
      >
        {repo.name}
      </Link>
      {parts.map((p, i) => {
        const last = i === parts.length - 1;
        const sub = parts.slice(0, i + 1).join("/");
        return (
          <span key={sub} className="flex min-w-0 items-center gap-1">
            <span className="text-subtle-foreground">/</span>
            {last ? (
              <span className="truncate font-semibold text-foreground" aria-current="page">
                {p}
              </span>
            ) : (
              <Link href={codeUrl(repo.owner, repo.name, "tree", ref, sub)} className="truncate text-primary hover:underline">
                {p}
              </Link>
            )}
          </span>
        );
      })}
      {isFile ? null : parts.length > 0 && <span className="text-subtle-foreground">/</span>}
    </nav>
  );
}

export interface CommitData {
  sha: string;
  message: string;
  author: string;
  date: string;
}

/**
 * The newest commit of a directory or file, with a link to its history (`historyHref`), the
 * commit's page (`commitHref`) and, on the repository page, the number of commits (`commitCount`).
 */
export function LatestCommit({
  commit,
  historyHref,
  commitHref,
  commitCount,
}: {
  commit: CommitData | null;
  historyHref?: string;
  commitHref?: string;
  commitCount?: number | null;
}) {
  if (!commit) return null;
  const [subject] = commit.message.split("\n");
  return (
    <div className="flex items-center gap-3 border-b border-border bg-muted px-4 py-2.5 text-sm" data-testid="latest-commit">
      <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-slate-300 text-xs font-semibold uppercase text-muted-foreground">
        {commit.author.slice(0, 1)}
      </span>
      <span className="hidden shrink-0 font-semibold text-foreground sm:inline">{commit.author}</span>
      <span className="min-w-0 flex-1 truncate text-muted-foreground" title={commit.message}>
        {subject}
      </span>
      {commitHref ? (
        <Link
          href={commitHref}
          className="hidden shrink-0 items-center gap-1 font-mono text-xs text-subtle-foreground hover:text-primary sm:flex"
          title={commit.sha}
          data-testid="latest-commit-sha"
        >
          <CommitIcon /> {commit.sha.slice(0, 7)}
        </Link>
      ) : (
        <span className="hidden shrink-0 items-center gap-1 font-mono text-xs text-subtle-foreground sm:flex" title={commit.sha}>
          <CommitIcon /> {commit.sha.slice(0, 7)}
        </span>
      )}
      <span className="shrink-0 text-xs text-subtle-foreground" title={fullDate(commit.date)}>
        {relativeTime(commit.date)}
      </span>
      {historyHref && (
        <Link
          href={historyHref}
          className="flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-muted-foreground hover:bg-accent hover:text-foreground"
          data-testid="history-link"
        >
          <HistoryIcon className="text-subtle-foreground" />{" "}
          {typeof commitCount === "number" ? (
            <span data-testid="commit-count">
              {commitCount.toLocaleString("en-US")} {commitCount === 1 ? "commit" : "commits"}
            </span>
          ) : (
            "History"
          )}
        </Link>
      )}
    </div>
  );
}

export interface EntryData {
  name: string;
  path: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  size: number | null;
}

export function FileList({ repo, gitRef: ref, path, entries }: { repo: RepoData; gitRef: string; path: string; entries: EntryData[] }) {
  const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  return (
    <table className="w-full table-fixed text-sm" data-testid="file-tree">
      <tbody className="divide-y divide-border">
        {path && (
          <tr className="hover:bg-muted">
            <td className="px-4 py-2" colSpan={2}>
              <Link
                href={
                  parent || ref !== repo.defaultBranch
                    ? codeUrl(repo.owner, repo.name, "tree", ref, parent)
                    : repoUrl(repo.owner, repo.name)
                }
                className="block font-mono text-muted-foreground hover:text-primary"
                aria-label="Parent directory"
              >
                ..
              </Link>
            </td>
          </tr>
        )}
        {entries.map((e) => (
          <tr key={e.path} className="hover:bg-muted">
            <td className="px-4 py-2">
              <div className="flex min-w-0 items-center gap-2">
                {e.type === "tree" ? (
                  <FolderIcon className="text-sky-500" />
                ) : e.type === "commit" ? (
                  <SubmoduleIcon className="text-subtle-foreground" />
                ) : (
                  <FileIcon className="text-subtle-foreground" />
                )}
                {e.type === "commit" ? (
                  <span className="truncate text-muted-foreground" title={`submodule at ${e.sha}`}>
                    {e.name} <span className="font-mono text-xs text-subtle-foreground">@ {e.sha.slice(0, 7)}</span>
                  </span>
                ) : (
                  <PrefetchLink
                    href={codeUrl(repo.owner, repo.name, e.type === "tree" ? "tree" : "blob", ref, e.path)}
                    className="truncate text-foreground hover:text-primary hover:underline"
                    data-testid="tree-entry"
                    data-type={e.type}
                  >
                    {e.name}
                  </PrefetchLink>
                )}
              </div>
            </td>
            <td className="w-28 px-4 py-2 text-right text-xs text-subtle-foreground">
              {e.type === "blob" && e.size !== null ? formatBytes(e.size) : ""}
            </td>
          </tr>
        ))}
        {entries.length === 0 && (
          <tr>
            <td className="px-4 py-6 text-center text-subtle-foreground" colSpan={2}>
              This directory is empty.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function Panel({
  title,
  icon,
  children,
  testId,
  actions,
}: {
  title: React.ReactNode;
  icon?: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
  actions?: React.ReactNode;
}) {
  return (
    <section className={cx(card, "overflow-hidden")} data-testid={testId}>
      <div className="flex items-center gap-2 border-b border-border bg-card px-4 py-2.5 text-sm font-semibold">
        {icon ?? <BookIcon className="text-subtle-foreground" />}
        <span className="min-w-0 flex-1 truncate">{title}</span>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Notice({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <div className="px-6 py-12 text-center text-sm text-muted-foreground" data-testid={testId}>
      {children}
    </div>
  );
}
