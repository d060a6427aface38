import type { Metadata } from "next";
import Link from "next/link";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { button, card, container, cx } from "@/components/ui/styles";
import { KeyIcon, RepoIcon } from "@/components/ui/icons";
import { RepoList } from "@/components/dashboard/repo-list";
import { MyIssues } from "@/components/dashboard/issue-list";

export const metadata: Metadata = { title: "svc" };

const PAGE_SIZE = 30;
/** Open issues shown in each of the dashboard's "Assigned to you" / "Created by you" lists. */
const ISSUES_SHOWN = 10;

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await getCurrentActor();
  if (!actor) return <Landing />;
  const raw = (await searchParams).page;
  const page = Math.min(Math.max(Number.parseInt(typeof raw === "string" ? raw : "1", 10) || 1, 1), 10_000);
  return <Dashboard username={actor.user.username} page={page} />;
}

function Landing() {
  return (
    <div className={cx(container, "py-16 sm:py-24")}>
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-bold tracking-tight text-foreground sm:text-5xl">Your code, on your server.</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          svc is a self-hosted git platform: push with the <code className="rounded bg-accent px-1 font-mono text-base">git</code> CLI over
          HTTP, browse code with syntax highlighting, and script everything with personal access tokens.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link href="/signup" className={cx(button.primary, "px-5 py-2 text-base")}>
            Create an account
          </Link>
          <Link href="/signin" className={cx(button.secondary, "px-5 py-2 text-base")}>
            Sign in
          </Link>
        </div>
      </div>
      <div className="mx-auto mt-16 grid max-w-4xl gap-4 sm:grid-cols-3">
        {[
          { title: "Git over HTTP", text: "Clone, fetch and push with any git client. A token is your password." },
          { title: "Code browser", text: "Branches, trees, highlighted files and rendered READMEs." },
          { title: "Scoped tokens", text: "Read-only, push or admin tokens with expiry, revocable any time." },
        ].map((f) => (
          <div key={f.title} className={cx(card, "p-5")}>
            <h2 className="font-semibold">{f.title}</h2>
            <p className="mt-1 text-sm text-muted-foreground">{f.text}</p>
          </div>
        ))}
      </div>
    </div>
  );
}

async function Dashboard({ username, page }: { username: string; page: number }) {
  const caller = await getServerCaller();
  // one extra row tells whether there is a next page; owned + collaborating (docs/ui.md "Pages")
  const [rows, assigned, created] = await Promise.all([
    caller.repos.list({ member: true, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
    caller.issues.listMine({ filter: "assigned", limit: ISSUES_SHOWN }),
    caller.issues.listMine({ filter: "created", limit: ISSUES_SHOWN }),
  ]);
  const repos = rows.slice(0, PAGE_SIZE);
  const hasNext = rows.length > PAGE_SIZE;
  return (
    <div className={cx(container, "grid gap-8 py-8 lg:grid-cols-[1fr_18rem]")}>
      <section>
        <div className="mb-4 flex items-center justify-between gap-4">
          <h1 className="text-xl font-semibold">Your repositories</h1>
          <Link href="/new" className={button.primary} data-testid="new-repo-button">
            <RepoIcon /> New repository
          </Link>
        </div>
        <RepoList repos={repos} username={username} page={page} />
        {(page > 1 || hasNext) && (
          <nav className="mt-4 flex items-center justify-between text-sm" aria-label="Pagination">
            {page > 1 ? (
              <Link href={page === 2 ? "/" : `/?page=${page - 1}`} className={button.secondary}>
                ← Newer
              </Link>
            ) : (
              <span />
            )}
            <span className="text-subtle-foreground">Page {page}</span>
            {hasNext ? (
              <Link href={`/?page=${page + 1}`} className={button.secondary}>
                Older →
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>
      <aside className="space-y-4">
        <MyIssues title="Assigned to you" issues={assigned} empty="No open issues are assigned to you." testId="assigned-issues" />
        <MyIssues title="Created by you" issues={created} empty="You have no open issues." testId="created-issues" />
        <div className={cx(card, "p-4")}>
          <h2 className="flex items-center gap-2 text-sm font-semibold">
            <KeyIcon /> Push from the command line
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            git asks for a username and password over HTTP: use your username and a personal access token with the{" "}
            <code className="font-mono text-xs">repo:write</code> scope as the password.
          </p>
          <Link href="/settings/tokens" className={cx(button.secondary, "mt-3 w-full")}>
            Manage access tokens
          </Link>
        </div>
      </aside>
    </div>
  );
}
