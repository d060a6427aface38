/**
 * The inbox page, /inbox (server component; docs/pulls.md "The inbox page"): the
 * viewer's pull requests across every repository they can read, as GitHub's and Graphite's
 * dashboards show them — three tabs with counts (Awaiting review, Your pull requests — grouped
 * as Ready to merge and Awaiting review when any is ready —, Participated), a repository filter, an Open / Closed / All filter on Participated, a pager, and
 * an empty state per list. Rows are the pull request list's (components/pulls/list-row.tsx) with
 * the repository shown.
 *
 * Reads through the tRPC server caller: repos.list {member: true} for the filter's options (and
 * repos.get when the URL names another readable repository), then pulls.inboxSummary for the
 * counts and one inbox list (one row more than a page, to know whether there is a next page)
 * side by side.
 */
import Link from "next/link";
import { redirect } from "next/navigation";
import { orNull } from "@/components/code/data";
import { Badge } from "@/components/ui/badge";
import { button, card, container, cx } from "@/components/ui/styles";
import { PullListRow } from "@/components/pulls/list-row";
import { PullRequestIcon } from "@/components/pulls/ui";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { InboxRepoFilter } from "./repo-filter";
import { InboxSummarySync } from "./summary-sync";
import {
  INBOX_PAGE_SIZE,
  INBOX_TABS,
  PARTICIPATED_STATES,
  TAB_INFO,
  countBadge,
  emptyState,
  inboxHref,
  inboxPage,
  inboxPageCount,
  inboxRepo,
  inboxTab,
  participatedState,
  tabCount,
  type InboxItem,
  type InboxSummary,
  type InboxTab,
} from "./model";

type Query = Record<string, string | string[] | undefined>;
const STATE_LABEL = { open: "Open", closed: "Closed", all: "All" } as const;

export async function InboxPage({ query }: { query: Query }) {
  // app/inbox/layout.tsx sends the signed-out to sign in; a session that ends between two tabs of the page lands here
  if (!(await getCurrentActor())) redirect("/signin?callbackUrl=%2Finbox");
  const caller = await getServerCaller();
  const tab = inboxTab(query.tab);
  const state = participatedState(query.state);
  const page = inboxPage(query.page);
  const wanted = inboxRepo(query.repo);

  const [members, named] = await Promise.all([
    caller.repos.list({ member: true, limit: 100 }),
    wanted ? orNull(caller.repos.get(wanted)) : null,
  ]);
  const repoName = named ? `${named.owner}/${named.name}` : null;
  const unknownRepo = typeof query.repo === "string" && query.repo !== "" && !named;
  const options = members.map((r) => `${r.owner}/${r.name}`);
  if (repoName && !options.includes(repoName)) options.unshift(repoName);

  const repoId = named?.id;
  const paging = { limit: INBOX_PAGE_SIZE + 1, offset: (page - 1) * INBOX_PAGE_SIZE, repoId };
  // Your pull requests: the ready-to-merge group heads the first page (up to 100), the awaiting-review list pages below it
  const [summary, rows, ready]: [InboxSummary, InboxItem[], InboxItem[]] = unknownRepo
    ? [{ awaitingReview: 0, myPrs: 0, readyToMerge: 0, participated: 0 }, [], []]
    : await Promise.all([
        caller.pulls.inboxSummary({ repoId }),
        tab === "review"
          ? caller.pulls.inboxAwaitingReview(paging)
          : tab === "mine"
            ? caller.pulls.inboxMyPrs(paging)
            : caller.pulls.inboxParticipated({ ...paging, state }),
        tab === "mine" && page === 1 ? caller.pulls.inboxReadyToMerge({ limit: 100, repoId }) : [],
      ]);
  const items = rows.slice(0, INBOX_PAGE_SIZE);
  const hasNext = rows.length > INBOX_PAGE_SIZE;
  // the summary counts Participated's open ones only: other states have no page count
  const total = tab === "participated" && state !== "open" ? null : summary[TAB_INFO[tab].count];
  const grouped = tab === "mine" && ready.length > 0;
  const pageCount = total === null ? null : inboxPageCount(total);
  const here = { tab, state, repo: repoName };
  const empty = emptyState(tab, state, repoName);

  return (
    <div className={cx(container, "py-6")} data-testid="inbox-page">
      {!repoName && !unknownRepo && <InboxSummarySync summary={summary} />}
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Inbox</h1>
        <div className="w-full sm:ml-auto sm:w-72">
          <InboxRepoFilter repos={options} value={repoName} tab={tab} state={state} />
        </div>
      </div>
      <div className={card}>
        <nav
          className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-muted px-4 py-3 text-sm"
          aria-label="Inbox lists"
          data-testid="inbox-tabs"
        >
          {INBOX_TABS.map((t) => (
            <TabLink key={t} tab={t} active={tab === t} count={tabCount(t, summary)} href={inboxHref({ ...here, tab: t })} />
          ))}
        </nav>
        {tab === "participated" && (
          <nav
            className="flex flex-wrap items-center gap-1 border-b border-border px-4 py-2 text-sm"
            aria-label="Filter by state"
            data-testid="inbox-state-filter"
          >
            {PARTICIPATED_STATES.map((s) => (
              <Link
                key={s}
                href={inboxHref({ ...here, state: s })}
                aria-current={state === s ? "page" : undefined}
                className={cx(
                  "rounded-full border px-3 py-1",
                  state === s
                    ? "border-primary bg-primary-muted font-medium text-primary"
                    : "border-border bg-card text-muted-foreground hover:bg-muted",
                )}
                data-testid={`inbox-state-${s}`}
              >
                {STATE_LABEL[s]}
              </Link>
            ))}
          </nav>
        )}
        {unknownRepo ? (
          <Empty
            testId="inbox-unknown-repo"
            title={`No repository named ${String(query.repo).slice(0, 201)} that you can read.`}
            text="Pick one of your repositories in the filter, or clear it."
          >
            <Link href={inboxHref({ tab, state })} className={cx(button.secondary, "mt-4")}>
              Show all repositories
            </Link>
          </Empty>
        ) : items.length === 0 && page > 1 ? (
          <Empty testId="inbox-empty-page" title="No pull requests on this page." text="The list has fewer pages now.">
            <Link href={inboxHref(here)} className={cx(button.secondary, "mt-4")}>
              Back to the first page
            </Link>
          </Empty>
        ) : grouped ? (
          <>
            <InboxGroup title="Ready to merge" testId="inbox-ready" items={ready} />
            <InboxGroup title="Awaiting review" testId="inbox-awaiting" items={items} />
          </>
        ) : items.length === 0 ? (
          <Empty testId="inbox-empty" title={empty.title} text={empty.text} data-tab={tab} />
        ) : (
          <ul className="divide-y divide-border" data-testid="inbox-list" data-tab={tab}>
            {items.map((pr) => (
              <PullListRow key={pr.id} repo={pr.repo} pr={pr} showRepo />
            ))}
          </ul>
        )}
      </div>
      {(page > 1 || hasNext) && (
        <nav className="mt-4 flex items-center justify-center gap-3 text-sm" aria-label="Pagination" data-testid="inbox-pagination">
          <PageLink href={inboxHref({ ...here, page: page - 1 })} disabled={page <= 1}>
            Previous
          </PageLink>
          <span className="text-muted-foreground">
            Page {page}
            {pageCount !== null && page <= pageCount && <> of {pageCount}</>}
          </span>
          <PageLink href={inboxHref({ ...here, page: page + 1 })} disabled={!hasNext}>
            Next
          </PageLink>
        </nav>
      )}
    </div>
  );
}

/** One group of the Your pull requests tab: a heading with its count, then its rows (or "None."). */
function InboxGroup({ title, testId, items }: { title: string; testId: string; items: InboxItem[] }) {
  const id = `${testId}-heading`;
  return (
    <section aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="flex items-center gap-2 border-b border-border px-4 py-2 text-sm font-semibold">
        {title}
        <Badge tone="neutral">{countBadge(items.length)}</Badge>
      </h2>
      {items.length === 0 ? (
        <p className="border-b border-border px-4 py-3 text-sm text-muted-foreground">None.</p>
      ) : (
        <ul className="divide-y divide-border border-b border-border" data-testid="inbox-list" data-tab="mine">
          {items.map((pr) => (
            <PullListRow key={pr.id} repo={pr.repo} pr={pr} showRepo />
          ))}
        </ul>
      )}
    </section>
  );
}

function TabLink({ tab, active, count, href }: { tab: InboxTab; active: boolean; count: number; href: string }) {
  return (
    <Link
      href={href}
      className={cx("flex items-center gap-1.5", active ? "font-semibold text-foreground" : "text-muted-foreground hover:text-foreground")}
      aria-current={active ? "page" : undefined}
      data-testid={`inbox-tab-${tab}`}
    >
      {TAB_INFO[tab].label}
      <Badge tone={active ? "primary" : "neutral"} data-testid={`inbox-count-${tab}`} data-count={count}>
        {countBadge(count)}
      </Badge>
    </Link>
  );
}

function PageLink({ href, disabled, children }: { href: string; disabled: boolean; children: React.ReactNode }) {
  if (disabled) {
    return (
      <span className={cx(button.secondary, "pointer-events-none opacity-50")} aria-disabled="true">
        {children}
      </span>
    );
  }
  return (
    <Link href={href} className={button.secondary}>
      {children}
    </Link>
  );
}

function Empty({
  title,
  text,
  testId,
  children,
  ...rest
}: {
  title: string;
  text: string;
  testId: string;
  children?: React.ReactNode;
  "data-tab"?: string;
}) {
  return (
    <div className="px-4 py-12 text-center" data-testid={testId} {...rest}>
      <PullRequestIcon className="h-6! w-6! text-subtle-foreground" />
      <p className="mt-2 font-medium text-foreground [overflow-wrap:anywhere]">{title}</p>
      <p className="mt-1 text-sm text-subtle-foreground">{text}</p>
      {children}
    </div>
  );
}
