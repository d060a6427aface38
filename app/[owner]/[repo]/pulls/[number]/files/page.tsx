import { TRPCError } from "@trpc/server";
import { card, cx } from "@/components/ui/styles";
import { firstScreenFiles } from "@/lib/highlight/diff";
import { highlightDiff } from "@/server/highlight";
import { packFile, PAGE_DIFF_LINES } from "@/components/diff/model";
import { loadPull, loadPullCommits, loadPullsContext } from "@/components/pulls/data";
import { PullFilesView } from "@/components/pulls/files-view";
import { RevisionPicker, SinceReviewBanner } from "@/components/pulls/revision-picker";
import { loadRevisionState, RevisionFiles } from "@/components/pulls/revision-files";
import { rangeHref } from "@/components/pulls/revision-range";

type Params = Promise<{ owner: string; repo: string; number: string }>;
type Search = Promise<{ from?: string | string[]; to?: string | string[] }>;

/**
 * The Files changed tab (docs/pulls.md "Pages"): the pull request's three-dot diff (pulls.getDiff,
 * merge base → head) in the shared diff viewer — unified or split, file tree, collapsed large and
 * generated files, virtualized; files past the first page's line budget load as they scroll into
 * view; the reader's "Viewed" checkboxes (viewed files collapse until the file changes again); the
 * inline review threads, comment forms, suggestions and "Review changes" (docs/pulls.md "Review in
 * the browser (Files changed tab)"); each owned file's code owners in its header.
 *
 * The revision picker (docs/ui.md "Revision picker"): `?from=A&to=B` shows the interdiff between
 * two revisions instead (read-only); a reader who reviewed an older revision gets a banner
 * linking to the changes since that review.
 */
export default async function PullFilesPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { owner, repo, number } = await params;
  const ctx = await loadPullsContext(owner, repo);
  const pr = await loadPull(ctx, Number(number));
  const base = `/${encodeURIComponent(ctx.repo.owner)}/${encodeURIComponent(ctx.repo.name)}/pulls/${pr.number}/files`;
  const rev = await loadRevisionState(ctx, pr.id, await searchParams);
  // the picker's "Single commit…" (an aid: without the list it is left out)
  const commits = rev.revisions.length > 1 ? (await loadPullCommits(ctx, pr.id).catch(() => ({ commits: [] }))).commits.slice(0, 250) : [];
  const toolbar =
    rev.revisions.length > 1 ? (
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <RevisionPicker
          base={base}
          revisions={rev.revisions}
          since={rev.since}
          current={rev.range}
          commits={commits.map((c) => ({ sha: c.sha, message: c.message }))}
          commitBase={`/${encodeURIComponent(ctx.repo.owner)}/${encodeURIComponent(ctx.repo.name)}/commit`}
        />
      </div>
    ) : null;
  if (rev.range)
    return (
      <>
        {toolbar}
        <RevisionFiles ctx={ctx} prId={pr.id} range={rev.range} base={base} />
      </>
    );
  const head = (
    <>
      {rev.since && rev.sinceFiles !== null && <SinceReviewBanner files={rev.sinceFiles} href={rangeHref(base, rev.since)} />}
      {toolbar}
    </>
  );
  let diff;
  try {
    diff = await ctx.caller.pulls.getDiff({ prId: pr.id, maxLines: PAGE_DIFF_LINES });
  } catch (e) {
    if (e instanceof TRPCError && (e.code === "CONFLICT" || e.code === "BAD_REQUEST")) {
      return (
        <div className={cx(card, "px-6 py-10 text-center text-sm text-muted-foreground")} data-testid="pull-diff-problem">
          {e.message}
        </div>
      );
    }
    throw e;
  }
  if (diff.totalFiles === 0)
    return (
      <>
        {head}
        <p className="text-sm text-muted-foreground" data-testid="pull-no-files">
          No files changed.
        </p>
      </>
    );
  // the first screen is highlighted here; the viewer asks for the rest as it comes into view
  const [highlights, marks, threads, owned] = await Promise.all([
    highlightDiff(diff, { to: firstScreenFiles(diff) }),
    ctx.caller.pulls.viewedFiles({ prId: pr.id }),
    ctx.caller.pulls.comments({ prId: pr.id }),
    // each file's code owners (CODEOWNERS at the diff's base), one call for every file; the
    // "Owned by" lines are an aid, so a failure leaves them out rather than the page
    ctx.caller.pulls.codeOwners({ prId: pr.id }).catch(() => null),
  ]);
  const review = {
    threads,
    headSha: pr.headSha,
    isAuthor: !!ctx.me && pr.author?.id === ctx.me.id,
    open: pr.state === "open",
    canWrite: ctx.canWrite,
    me: ctx.me,
    repo: { owner: ctx.repo.owner, name: ctx.repo.name },
  };
  return (
    <>
      {head}
      <PullFilesView
        prId={pr.id}
        repoId={ctx.repo.id}
        range={{ base: diff.mergeBaseSha, head: diff.headSha }}
        marks={marks}
        codeOwners={owned?.owners ?? {}}
        signedIn={!!ctx.me}
        review={review}
        files={diff.files.map(packFile)}
        highlights={highlights}
        totalFiles={diff.totalFiles}
        source={{ kind: "pull", prId: pr.id, repoId: ctx.repo.id }}
      />
    </>
  );
}
