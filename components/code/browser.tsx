/**
 * The code browser pages (server components): repository home, directory and file views.
 * See docs/ui.md for the URL scheme and decisions.
 */
import { RecentPushBanner } from "@/components/pulls/recent-push-banner";
import Link from "next/link";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { button, card, container, cx } from "@/components/ui/styles";
import { FileIcon, KeyIcon } from "@/components/ui/icons";
import { formatBytes, fullDate, relativeTime } from "@/components/ui/format";
import { BranchSwitcher } from "./branch-switcher";
import { AskAgentLink } from "./ask-agent-link";
import { FileActions } from "./file-actions";
import { FileFinder } from "./file-finder";
import { LineSelection } from "./line-selection";
import { loadBranches, loadRepo, orNotFound, orNull, type BranchData, type RepoData } from "./data";
import { MAX_HIGHLIGHT_BYTES, plainCodeHtml } from "@/lib/highlight/code";
import { highlightFile } from "@/server/highlight";
import { MarkdownView } from "./markdown";
import { DirectoryContent, isMarkdown, latestCommit } from "./directory";
import { Breadcrumbs, CloneBox, CommandBlock, LatestCommit, Notice, type EntryData } from "./parts";
import { resolveBlob, resolveTree } from "./targets";
import { codeUrl, encodeSegments, parentPath, repoUrl } from "./urls";

/** The element id of the file view's code (line selection and copy find it by this id). */
const CODE_VIEW_ID = "code-view";

function Toolbar({
  repo,
  branches,
  gitRef: ref,
  kind,
  path,
}: {
  repo: RepoData;
  branches: BranchData;
  gitRef: string;
  kind: "tree" | "blob";
  path: string;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3">
      <BranchSwitcher
        repoId={repo.id}
        owner={repo.owner}
        repo={repo.name}
        branches={branches.map((b) => ({ name: b.name, sha: b.sha, isDefault: b.isDefault }))}
        current={ref}
        kind={kind}
        path={path}
      />
      {path && <Breadcrumbs repo={repo} gitRef={ref} path={path} isFile={kind === "blob"} />}
      <div className="ml-auto">
        <FileFinder repoId={repo.id} owner={repo.owner} repo={repo.name} gitRef={ref} />
      </div>
    </div>
  );
}

/** /<owner>/<repo>: default branch root with README and the about/clone sidebar, or set-up help when empty. */
export async function RepoHome({ owner, name }: { owner: string; name: string }) {
  const repo = await loadRepo(owner, name);
  if (repo.isEmpty) return <EmptyRepo repo={repo} />;
  const caller = await getServerCaller();
  // the default branch's root is read while the branch list loads: it is the page's ref unless
  // that branch is missing (only other branches were pushed)
  const [branches, defaultTree] = await Promise.all([
    loadBranches(repo.id),
    orNull(caller.repos.tree({ repoId: repo.id, ref: repo.defaultBranch, path: "" })),
  ]);
  const ref = branches.some((b) => b.name === repo.defaultBranch) ? repo.defaultBranch : (branches[0]?.name ?? repo.defaultBranch);
  const tree =
    ref === repo.defaultBranch && defaultTree ? defaultTree : await orNotFound(caller.repos.tree({ repoId: repo.id, ref, path: "" }));
  return (
    <>
      <RecentPushBanner repo={repo} padded />
      <div className={cx(container, "grid gap-6 py-6 lg:grid-cols-[minmax(0,1fr)_18rem]")}>
        <div className="min-w-0">
          <Toolbar repo={repo} branches={branches} gitRef={ref} kind="tree" path="" />
          <DirectoryContent repo={repo} gitRef={ref} sha={tree.sha} path="" entries={tree.entries as EntryData[]} />
        </div>
        <aside className="space-y-4">
          <div className={cx(card, "space-y-4 p-4")}>
            <div>
              <h2 className="text-sm font-semibold">About</h2>
              <p className="mt-1 text-sm text-muted-foreground">
                {repo.description || <span className="italic text-subtle-foreground">No description</span>}
              </p>
            </div>
            <CloneBox url={repo.cloneUrl} sshUrl={repo.sshCloneUrl} />
            <dl className="space-y-1 text-sm text-muted-foreground">
              <div className="flex justify-between gap-2">
                <dt>Branches</dt>
                <dd className="font-medium text-foreground">{branches.length}</dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt>Default branch</dt>
                <dd className="truncate font-mono text-xs font-medium text-foreground">{repo.defaultBranch}</dd>
              </div>
              {repo.pushedAt && (
                <div className="flex justify-between gap-2">
                  <dt>Last push</dt>
                  <dd className="text-foreground" title={fullDate(repo.pushedAt)}>
                    {relativeTime(repo.pushedAt)}
                  </dd>
                </div>
              )}
            </dl>
          </div>
        </aside>
      </div>
    </>
  );
}

/** /<owner>/<repo>/tree/<ref>/<path> */
export async function TreePage({ owner, name, segments }: { owner: string; name: string; segments: string[] }) {
  const { repo, branches, ref, path, tree } = await resolveTree(owner, name, segments.join("/"));
  return (
    <>
      <div className={cx(container, "py-6")}>
        <Toolbar repo={repo} branches={branches} gitRef={ref} kind="tree" path={path} />
        <DirectoryContent repo={repo} gitRef={ref} sha={tree.sha} path={path} entries={tree.entries as EntryData[]} />
      </div>
    </>
  );
}

/** /<owner>/<repo>/blob/<ref>/<path> */
export async function BlobPage({ owner, name, segments, plain }: { owner: string; name: string; segments: string[]; plain: boolean }) {
  const { repo, branches, ref, path, blob } = await resolveBlob(owner, name, segments.join("/"));
  const [commit, actor] = await Promise.all([latestCommit(repo.id, ref, path), getCurrentActor()]);
  const fileName = path.split("/").pop()!;
  const rawUrl = `${repoUrl(repo.owner, repo.name)}/raw/${encodeSegments(ref)}/${encodeSegments(path)}`;
  const lines = blob.text !== null ? blob.text.split("\n").length - (blob.text.endsWith("\n") ? 1 : 0) : 0;
  const markdown = isMarkdown(path) && blob.text !== null && !blob.truncated;
  const showPreview = markdown && !plain;
  const selfUrl = codeUrl(repo.owner, repo.name, "blob", ref, path);
  const isImage = /\.(png|jpe?g|gif|webp|avif|ico|bmp|svg)$/i.test(path);

  let body: React.ReactNode;
  if (blob.lfs && !blob.lfs.stored) {
    // a Git LFS pointer whose object this repository does not serve: the pointer text, with a note
    body = (
      <>
        <div className="border-b border-warning-border bg-warning-muted px-4 py-2 text-xs text-warning" data-testid="lfs-missing-notice">
          Stored in Git LFS ({formatBytes(blob.lfs.size)}); object not uploaded. The pointer file is shown.
        </div>
        <div
          className="code-view"
          id={CODE_VIEW_ID}
          data-testid="code-view"
          data-lang="none"
          dangerouslySetInnerHTML={{ __html: plainCodeHtml(blob.text ?? "") }}
        />
      </>
    );
  } else if (blob.isBinary) {
    body = isImage ? (
      <div className="flex justify-center bg-[repeating-conic-gradient(#f1f5f9_0_25%,#fff_0_50%)] bg-[length:16px_16px] p-6">
        {/* a plain img: the raw file is served as is, with no image optimization to go through */}
        <img src={rawUrl} alt={fileName} className="max-h-[70vh] max-w-full" />
      </div>
    ) : (
      <Notice testId="binary-notice">
        Binary file ({formatBytes(blob.size)}) not shown.{" "}
        <a href={rawUrl} className="font-medium text-primary hover:underline">
          Download
        </a>
      </Notice>
    );
  } else if (blob.truncated || blob.text === null) {
    body = (
      <Notice testId="too-large-notice">
        This file is too large to display ({formatBytes(blob.size)}).{" "}
        <a href={rawUrl} className="font-medium text-primary hover:underline">
          View raw
        </a>
      </Notice>
    );
  } else if (showPreview) {
    body = (
      <div className="px-6 py-5 sm:px-8">
        <MarkdownView source={blob.text} owner={repo.owner} repo={repo.name} gitRef={ref} dir={parentPath(path)} />
      </div>
    );
  } else if (blob.text.length === 0) {
    body = <Notice>This file is empty.</Notice>;
  } else {
    const highlighted = await highlightFile(blob.text, fileName);
    body = highlighted ? (
      <>
        {highlighted.stopped && (
          <div className="border-b border-warning-border bg-warning-muted px-4 py-2 text-xs text-warning" data-testid="highlight-stopped">
            {highlighted.highlightedLines > 0
              ? `Syntax highlighting stopped after line ${highlighted.highlightedLines}`
              : "Syntax highlighting is off for this view"}
            {highlighted.stopped === "busy" ? " (the server is busy)" : " (it took too long)"}; the rest is plain text.
          </div>
        )}
        <div
          className="code-view"
          id={CODE_VIEW_ID}
          data-testid="code-view"
          data-lang={highlighted.lang}
          dangerouslySetInnerHTML={{ __html: highlighted.html }}
        />
      </>
    ) : (
      <>
        <div className="border-b border-warning-border bg-warning-muted px-4 py-2 text-xs text-warning">
          Syntax highlighting is off for files over {formatBytes(MAX_HIGHLIGHT_BYTES)}.
        </div>
        <div
          className="code-view"
          id={CODE_VIEW_ID}
          data-testid="code-view"
          data-lang="none"
          dangerouslySetInnerHTML={{ __html: plainCodeHtml(blob.text) }}
        />
      </>
    );
  }

  const tab = (active: boolean) =>
    cx(
      "rounded-md px-2.5 py-1 text-xs font-medium",
      active ? "bg-card text-foreground shadow-sm ring-1 ring-border" : "text-muted-foreground hover:text-foreground",
    );
  return (
    <>
      <div className={cx(container, "py-6")}>
        <Toolbar repo={repo} branches={branches} gitRef={ref} kind="blob" path={path} />
        <div className={cx(card, "overflow-hidden")} data-testid="file-view">
          <LatestCommit commit={commit} historyHref={codeUrl(repo.owner, repo.name, "commits", ref, path)} />
          <div className="flex flex-wrap items-center gap-3 border-b border-border px-4 py-2 text-xs text-muted-foreground">
            {markdown && (
              <div className="flex rounded-md bg-muted p-0.5">
                <Link href={selfUrl} className={tab(showPreview)} scroll={false}>
                  Preview
                </Link>
                <Link href={`${selfUrl}?plain=1`} className={tab(!showPreview)} scroll={false}>
                  Code
                </Link>
              </div>
            )}
            <span className="flex items-center gap-1.5 font-medium text-foreground">
              <FileIcon className="text-subtle-foreground" /> {fileName}
            </span>
            {blob.text !== null && !blob.truncated && (
              <span>
                {lines} {lines === 1 ? "line" : "lines"}
              </span>
            )}
            <span>{formatBytes(blob.size)}</span>
            {blob.lfs?.stored && (
              <span className="rounded-full border border-border px-2 py-0.5 font-medium text-foreground" data-testid="lfs-badge">
                Stored with Git LFS
              </span>
            )}
            <div className="ml-auto flex flex-wrap items-center justify-end gap-1">
              {actor && !showPreview && blob.text !== null && !blob.truncated && (
                <AskAgentLink owner={repo.owner} name={repo.name} path={path} />
              )}
              <a href={rawUrl} className={cx(button.secondary, "h-7 px-2! py-1! text-xs")} data-testid="raw-link">
                Raw
              </a>
              <FileActions
                rawUrl={rawUrl}
                fileName={fileName}
                codeViewId={CODE_VIEW_ID}
                canCopy={blob.text !== null && !blob.truncated}
                trailingNewline={blob.text?.endsWith("\n") ?? false}
              />
            </div>
          </div>
          {body}
          {!showPreview && blob.text !== null && !blob.truncated && <LineSelection containerId={CODE_VIEW_ID} />}
        </div>
      </div>
    </>
  );
}

/** A repository without commits: clone URL and how to push to it. */
function EmptyRepo({ repo }: { repo: RepoData }) {
  const canPush = repo.permission === "write" || repo.permission === "admin";
  const branch = repo.defaultBranch;
  return (
    <>
      <div className={cx(container, "py-6")}>
        <div className={cx(card, "mx-auto max-w-3xl space-y-6 p-6")} data-testid="empty-repo">
          <div>
            <h2 className="text-lg font-semibold">This repository is empty</h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {canPush ? "Push an existing project, or start a new one, from the command line." : "Nothing has been pushed to it yet."}
            </p>
          </div>
          <CloneBox url={repo.cloneUrl} sshUrl={repo.sshCloneUrl} />
          {canPush && (
            <>
              <div>
                <h3 className="mb-2 text-sm font-semibold">…push an existing repository from the command line</h3>
                <CommandBlock testId="push-existing" lines={[`git remote add origin ${repo.cloneUrl}`, `git push -u origin ${branch}`]} />
              </div>
              <div>
                <h3 className="mb-2 text-sm font-semibold">…or create a new repository on the command line</h3>
                <CommandBlock
                  testId="push-new"
                  lines={[
                    `echo "# ${repo.name}" >> README.md`,
                    "git init",
                    "git add README.md",
                    'git commit -m "first commit"',
                    `git branch -M ${branch}`,
                    `git remote add origin ${repo.cloneUrl}`,
                    `git push -u origin ${branch}`,
                  ]}
                />
              </div>
              <div className="flex items-start gap-3 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900">
                <KeyIcon className="mt-0.5 text-sky-600" />
                <p>
                  When git asks for credentials, enter your svc username and a <strong>personal access token</strong> with the{" "}
                  <code className="font-mono text-xs">repo:write</code> scope as the password — your account password does not work for git.{" "}
                  <Link href="/settings/tokens" className="font-medium underline">
                    Create a token
                  </Link>
                </p>
              </div>
            </>
          )}
        </div>
      </div>
    </>
  );
}
