/**
 * The commit page (server component; docs/pulls.md "Viewer"): /<owner>/<repo>/commit/<sha>: the commit's
 * message, author, parents and its diff against the first parent (repos.commit) in the diff viewer.
 */
import Link from "next/link";
import { getServerCaller } from "@/server/auth/session";
import { button, card, container, cx } from "@/components/ui/styles";
import { CopyButton } from "@/components/ui/copy-button";
import { fullDate, relativeTime } from "@/components/ui/format";
import { loadRepo, orNotFound } from "@/components/code/data";
import { splitCommitMessage } from "@/components/code/history";
import { codeUrl, commitUrl } from "@/components/code/urls";
import { DiffViewer } from "./diff-viewer";
import { packFile, PAGE_DIFF_LINES } from "./model";
import { firstScreenFiles } from "@/lib/highlight/diff";
import { highlightDiff } from "@/server/highlight";

export async function CommitPage({ owner, name, sha }: { owner: string; name: string; sha: string }) {
  const repo = await loadRepo(owner, name);
  const caller = await getServerCaller();
  const commit = await orNotFound(caller.repos.commit({ repoId: repo.id, sha, maxLines: PAGE_DIFF_LINES }));
  const highlights = await highlightDiff(commit.diff, { to: firstScreenFiles(commit.diff) });
  const { title, body } = splitCommitMessage(commit.message);
  return (
    <div className={cx(container, "py-6")}>
      <section className={cx(card, "mb-5 p-4")} data-testid="commit-header" data-sha={commit.sha}>
        <div className="flex flex-wrap items-start gap-3">
          <div className="min-w-0 flex-1">
            <h1 className="text-lg font-semibold [overflow-wrap:anywhere]" data-testid="commit-title">
              {title || <span className="italic text-subtle-foreground">No commit message</span>}
            </h1>
            {body && (
              <pre
                className="mt-2 whitespace-pre-wrap font-mono text-xs leading-5 text-muted-foreground [overflow-wrap:anywhere]"
                data-testid="commit-body"
              >
                {body}
              </pre>
            )}
          </div>
          <Link href={codeUrl(repo.owner, repo.name, "tree", commit.sha)} className={cx(button.secondary, "text-xs")}>
            Browse files
          </Link>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <span>
            <span className="font-semibold text-foreground">{commit.author}</span> authored{" "}
            <time dateTime={commit.date} title={fullDate(commit.date)}>
              {relativeTime(commit.date)}
            </time>
          </span>
          {commit.committer !== commit.author && (
            <span>
              <span className="font-medium text-foreground">{commit.committer}</span> committed{" "}
              <time dateTime={commit.committedAt} title={fullDate(commit.committedAt)}>
                {relativeTime(commit.committedAt)}
              </time>
            </span>
          )}
          <span className="ml-auto flex flex-wrap items-center gap-2">
            {commit.parents.length > 0 && (
              <span data-testid="commit-parents">
                {commit.parents.length === 1 ? "1 parent" : `${commit.parents.length} parents`}{" "}
                {commit.parents.map((p) => (
                  <Link key={p} href={commitUrl(repo.owner, repo.name, p)} className="font-mono text-primary hover:underline">
                    {p.slice(0, 7)}{" "}
                  </Link>
                ))}
              </span>
            )}
            <span className="font-mono" data-testid="commit-full-sha">
              commit {commit.sha.slice(0, 12)}
            </span>
            <CopyButton text={commit.sha} label="Copy full SHA" iconOnly testId="copy-commit-sha" />
          </span>
        </div>
      </section>
      {commit.parents.length > 1 && <p className="mb-3 text-sm text-muted-foreground">Showing the changes against the first parent.</p>}
      <DiffViewer
        files={commit.diff.files.map(packFile)}
        highlights={highlights}
        totalFiles={commit.diff.totalFiles}
        source={{ kind: "commit", repoId: repo.id, sha: commit.sha }}
      />
    </div>
  );
}
