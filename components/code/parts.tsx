/** Server-rendered building blocks of the code browser. */
import Link from "next/link";
import { badge, card, cx, container } from "@/components/ui/styles";
import { CopyButton } from "@/components/ui/copy-button";
import { BookIcon, CodeIcon, CommitIcon, FileIcon, FolderIcon, GearIcon, HistoryIcon, LockIcon, RepoIcon, SubmoduleIcon } from "@/components/ui/icons";
import { formatBytes, fullDate, relativeTime } from "@/components/ui/format";
import { codeUrl, repoUrl, settingsUrl } from "./urls";
import type { RepoData } from "./data";
import { OpenIssuesCount } from "@/components/issues/open-count";
import { IssueOpenedIcon } from "@/components/issues/ui";

export type RepoTab = "code" | "issues" | "settings";

/** Repository name, visibility, description and tabs: Code, Issues (with the open count), and Settings for admins only. */
export function RepoHeader({ repo, tab = "code" }: { repo: RepoData; tab?: RepoTab }) {
  const tabClass = (active: boolean) =>
    cx(
      "flex items-center gap-1.5 border-b-2 px-1 pb-2",
      active ? "border-emerald-500 font-medium text-slate-900" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
    );
  return (
    <div className="border-b border-slate-200 bg-white">
      <div className={cx(container, "pt-5")}>
        <div className="flex flex-wrap items-center gap-2 text-lg">
          <RepoIcon className="text-slate-500" />
          <span className="text-slate-700">{repo.owner}</span>
          <span className="text-slate-400">/</span>
          <Link href={repoUrl(repo.owner, repo.name)} className="font-semibold text-emerald-700 hover:underline" data-testid="repo-name">
            {repo.name}
          </Link>
          <span className={cx(badge, repo.isPrivate ? "border-amber-300 bg-amber-50 text-amber-800" : "border-slate-300 text-slate-600")}>
            {repo.isPrivate && <LockIcon className="mr-1 h-3! w-3!" />}
            {repo.isPrivate ? "Private" : "Public"}
          </span>
        </div>
        {repo.description && <p className="mt-1 text-sm text-slate-600">{repo.description}</p>}
        <nav className="mt-4 flex gap-4 text-sm" aria-label="Repository" data-testid="repo-tabs">
          <Link href={repoUrl(repo.owner, repo.name)} className={tabClass(tab === "code")} aria-current={tab === "code" ? "page" : undefined} data-testid="repo-code-tab">
            <CodeIcon className="text-slate-500" /> Code
          </Link>
          <Link href={`${repoUrl(repo.owner, repo.name)}/issues`} className={tabClass(tab === "issues")} aria-current={tab === "issues" ? "page" : undefined} data-testid="repo-issues-tab">
            <IssueOpenedIcon className="text-slate-500" /> Issues <OpenIssuesCount repoId={repo.id} />
          </Link>
          {repo.permission === "admin" && (
            <Link href={settingsUrl(repo.owner, repo.name)} className={tabClass(tab === "settings")} aria-current={tab === "settings" ? "page" : undefined} data-testid="repo-settings-tab">
              <GearIcon className="text-slate-500" /> Settings
            </Link>
          )}
        </nav>
      </div>
    </div>
  );
}

export function CloneBox({ url }: { url: string }) {
  return (
    <div data-testid="clone-box">
      <div className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Clone with HTTP</div>
      <div className="flex gap-2">
        <input
          readOnly
          value={url}
          aria-label="Clone URL"
          data-testid="clone-url"
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs text-slate-800"
        />
        <CopyButton text={url} label="Copy" testId="copy-clone-url" />
      </div>
    </div>
  );
}

export function CommandBlock({ lines, testId }: { lines: string[]; testId?: string }) {
  const text = lines.join("\n");
  return (
    <div className="relative rounded-md border border-slate-200 bg-slate-900" data-testid={testId}>
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
      <Link href={ref === repo.defaultBranch ? repoUrl(repo.owner, repo.name) : codeUrl(repo.owner, repo.name, "tree", ref)} className="font-semibold text-emerald-700 hover:underline">
        {repo.name}
      </Link>
      {parts.map((p, i) => {
        const last = i === parts.length - 1;
        const sub = parts.slice(0, i + 1).join("/");
        return (
          <span key={sub} className="flex min-w-0 items-center gap-1">
            <span className="text-slate-400">/</span>
            {last ? (
              <span className="truncate font-semibold text-slate-900" aria-current="page">
                {p}
              </span>
            ) : (
              <Link href={codeUrl(repo.owner, repo.name, "tree", ref, sub)} className="truncate text-emerald-700 hover:underline">
                {p}
              </Link>
            )}
          </span>
        );
      })}
      {isFile ? null : parts.length > 0 && <span className="text-slate-400">/</span>}
    </nav>
  );
}

export interface CommitData {
  sha: string;
  message: string;
  author: string;
  date: string;
}

/** The newest commit of a directory or file, with a link to its history (`historyHref`). */
export function LatestCommit({ commit, historyHref }: { commit: CommitData | null; historyHref?: string }) {
  if (!commit) return null;
  const [subject] = commit.message.split("\n");
  return (
    <div className="flex items-center gap-3 border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-sm" data-testid="latest-commit">
      <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-slate-300 text-xs font-semibold uppercase text-slate-700">{commit.author.slice(0, 1)}</span>
      <span className="hidden shrink-0 font-semibold text-slate-900 sm:inline">{commit.author}</span>
      <span className="min-w-0 flex-1 truncate text-slate-600" title={commit.message}>
        {subject}
      </span>
      <span className="hidden shrink-0 items-center gap-1 font-mono text-xs text-slate-500 sm:flex" title={commit.sha}>
        <CommitIcon /> {commit.sha.slice(0, 7)}
      </span>
      <span className="shrink-0 text-xs text-slate-500" title={fullDate(commit.date)}>
        {relativeTime(commit.date)}
      </span>
      {historyHref && (
        <Link href={historyHref} className="flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-900" data-testid="history-link">
          <HistoryIcon className="text-slate-500" /> History
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
      <tbody className="divide-y divide-slate-100">
        {path && (
          <tr className="hover:bg-slate-50">
            <td className="px-4 py-2" colSpan={2}>
              <Link href={parent || ref !== repo.defaultBranch ? codeUrl(repo.owner, repo.name, "tree", ref, parent) : repoUrl(repo.owner, repo.name)} className="block font-mono text-slate-600 hover:text-emerald-700" aria-label="Parent directory">
                ..
              </Link>
            </td>
          </tr>
        )}
        {entries.map((e) => (
          <tr key={e.path} className="hover:bg-slate-50">
            <td className="px-4 py-2">
              <div className="flex min-w-0 items-center gap-2">
                {e.type === "tree" ? <FolderIcon className="text-sky-500" /> : e.type === "commit" ? <SubmoduleIcon className="text-slate-500" /> : <FileIcon className="text-slate-400" />}
                {e.type === "commit" ? (
                  <span className="truncate text-slate-700" title={`submodule at ${e.sha}`}>
                    {e.name} <span className="font-mono text-xs text-slate-500">@ {e.sha.slice(0, 7)}</span>
                  </span>
                ) : (
                  <Link href={codeUrl(repo.owner, repo.name, e.type === "tree" ? "tree" : "blob", ref, e.path)} className="truncate text-slate-800 hover:text-emerald-700 hover:underline" data-testid="tree-entry" data-type={e.type}>
                    {e.name}
                  </Link>
                )}
              </div>
            </td>
            <td className="w-28 px-4 py-2 text-right text-xs text-slate-500">{e.type === "blob" && e.size !== null ? formatBytes(e.size) : ""}</td>
          </tr>
        ))}
        {entries.length === 0 && (
          <tr>
            <td className="px-4 py-6 text-center text-slate-500" colSpan={2}>
              This directory is empty.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function Panel({ title, icon, children, testId, actions }: { title: React.ReactNode; icon?: React.ReactNode; children: React.ReactNode; testId?: string; actions?: React.ReactNode }) {
  return (
    <section className={cx(card, "overflow-hidden")} data-testid={testId}>
      <div className="flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2.5 text-sm font-semibold">
        {icon ?? <BookIcon className="text-slate-500" />}
        <span className="min-w-0 flex-1 truncate">{title}</span>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Notice({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <div className="px-6 py-12 text-center text-sm text-slate-600" data-testid={testId}>
      {children}
    </div>
  );
}
