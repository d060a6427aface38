/**
 * The pull request list (server component; docs/pulls.md "Pages"): Open / Merged / Closed tabs with
 * counts, an author filter, rows (list-row.tsx: state icon, title, labels, draft badge, branches,
 * byline, review decision and comment count slots), a link to the repository's stacks, and a pager.
 * pulls.counts for the tabs and pulls.list for the page: two statements.
 */
import Link from "next/link";
import { orNull } from "@/components/code/data";
import { BranchIcon } from "@/components/ui/icons";
import { button, card, container, cx } from "@/components/ui/styles";
import type { PullsContext } from "./data";
import { PullListRow } from "./list-row";
import { PULLS_PAGE_SIZE, listHref, listPage, listState, pullsUrl, type PullListState, type PullRow } from "./model";
import { RecentPushBanner } from "./recent-push-banner";
import { stacksUrl } from "./stack-model";
import { MergedIcon, PullClosedIcon, PullRequestIcon } from "./ui";

type Query = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function PullList({ ctx, query }: { ctx: PullsContext; query: Query }) {
  const { repo, caller, me } = ctx;
  const base = pullsUrl(repo.owner, repo.name);
  const state = listState(query.state);
  const authorName = first(query.author)?.slice(0, 39) || null;
  const author = authorName ? await orNull(caller.users.profile({ username: authorName })) : null;
  const authorId = author?.id;
  const unknownAuthor = !!authorName && !author;
  const counts = unknownAuthor ? { open: 0, closed: 0, merged: 0 } : await caller.pulls.counts({ repoId: repo.id, authorId });
  const paging = listPage(query.page, counts[state]);
  const pulls: PullRow[] = unknownAuthor
    ? []
    : await caller.pulls.list({ repoId: repo.id, state, authorId, limit: PULLS_PAGE_SIZE, offset: (paging.page - 1) * PULLS_PAGE_SIZE });
  const people = (await orNull(caller.repos.assignees({ repoId: repo.id }))) ?? [];

  const tab = (s: PullListState, label: string, Icon: typeof PullRequestIcon) => (
    <Link
      href={listHref(base, { state: s, author: authorName })}
      className={cx(
        "flex items-center gap-1.5",
        state === s ? "font-semibold text-foreground" : "text-muted-foreground hover:text-foreground",
      )}
      aria-current={state === s ? "page" : undefined}
      data-testid={`pulls-state-${s}`}
    >
      <Icon />
      <span data-testid={`pulls-count-${s}`}>{counts[s]}</span> {label}
    </Link>
  );

  return (
    <div className={cx(container, "py-6")}>
      <RecentPushBanner repo={repo} className="mb-4" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <nav className="flex flex-wrap items-center gap-1 text-sm" aria-label="Filter by author" data-testid="pulls-author-filter">
          <span className="mr-1 text-xs font-semibold uppercase tracking-wide text-subtle-foreground">Author</span>
          <Link
            href={listHref(base, { state })}
            aria-current={!authorName ? "page" : undefined}
            className={cx(
              "rounded-full border px-3 py-1",
              !authorName
                ? "border-primary bg-primary-muted font-medium text-primary"
                : "border-border bg-card text-muted-foreground hover:bg-muted",
            )}
          >
            Everyone
          </Link>
          {me && (
            <Link
              href={listHref(base, { state, author: me.username })}
              aria-current={authorName === me.username ? "page" : undefined}
              className={cx(
                "rounded-full border px-3 py-1",
                authorName === me.username
                  ? "border-primary bg-primary-muted font-medium text-primary"
                  : "border-border bg-card text-muted-foreground hover:bg-muted",
              )}
              data-testid="pulls-author-me"
            >
              Yours
            </Link>
          )}
          {people
            .filter((p) => p.username !== me?.username)
            .slice(0, 8)
            .map((p) => (
              <Link
                key={p.id}
                href={listHref(base, { state, author: p.username })}
                aria-current={authorName === p.username ? "page" : undefined}
                className={cx(
                  "rounded-full border px-3 py-1",
                  authorName === p.username
                    ? "border-primary bg-primary-muted font-medium text-primary"
                    : "border-border bg-card text-muted-foreground hover:bg-muted",
                )}
              >
                {p.username}
              </Link>
            ))}
        </nav>
        <Link href={stacksUrl(repo.owner, repo.name)} className={cx(button.secondary, "ml-auto")} data-testid="stacks-link">
          <BranchIcon /> Stacks
        </Link>
        {me && (
          <Link href={`/${repo.owner}/${repo.name}/compare`} className={button.primary} data-testid="new-pull-button">
            New pull request
          </Link>
        )}
      </div>
      <div className={card}>
        <div className="flex flex-wrap items-center gap-4 border-b border-border bg-muted px-4 py-3 text-sm">
          {tab("open", "Open", PullRequestIcon)}
          {tab("merged", "Merged", MergedIcon)}
          {tab("closed", "Closed", PullClosedIcon)}
          {authorName && (
            <span className="ml-auto text-xs text-muted-foreground" data-testid="pulls-author-active">
              by {authorName} ·{" "}
              <Link href={listHref(base, { state })} className="hover:text-primary">
                clear
              </Link>
            </span>
          )}
        </div>
        {pulls.length === 0 ? (
          <div className="px-4 py-12 text-center" data-testid="no-pulls">
            <PullRequestIcon className="h-6! w-6! text-subtle-foreground" />
            <p className="mt-2 font-medium text-foreground">
              {unknownAuthor
                ? `No user named ${authorName}.`
                : `There aren’t any ${state} pull requests${authorName ? ` by ${authorName}` : ""}.`}
            </p>
            <p className="mt-1 text-sm text-subtle-foreground">
              Pull requests propose changes from a branch; push one and open it from the compare page.
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-border" data-testid="pull-list">
            {pulls.map((pr) => (
              <PullListRow key={pr.id} repo={repo} pr={pr} />
            ))}
          </ul>
        )}
      </div>
      {paging.pageCount > 1 && (
        <nav className="mt-4 flex items-center justify-center gap-3 text-sm" aria-label="Pagination" data-testid="pulls-pagination">
          <Link
            href={listHref(base, { state, author: authorName, page: paging.page - 1 })}
            className={cx(button.secondary, paging.page <= 1 && "pointer-events-none opacity-50")}
            aria-disabled={paging.page <= 1}
          >
            Previous
          </Link>
          <span className="text-muted-foreground">
            Page {paging.page} of {paging.pageCount}
          </span>
          <Link
            href={listHref(base, { state, author: authorName, page: paging.page + 1 })}
            className={cx(button.secondary, paging.page >= paging.pageCount && "pointer-events-none opacity-50")}
            aria-disabled={paging.page >= paging.pageCount}
          >
            Next
          </Link>
        </nav>
      )}
    </div>
  );
}
