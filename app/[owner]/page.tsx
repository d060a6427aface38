import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { orNotFound } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { RESERVED_USERNAMES } from "@/lib/names";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { container, cx } from "@/components/ui/styles";
import { shortDate } from "@/components/ui/format";
import { ProfileRepos } from "@/components/profile/profile-repos";
import { OrgProfile } from "@/components/orgs/org-profile";
import { TwoFactorRequiredNotice } from "@/components/orgs/two-factor-required-notice";
import { PageLinks } from "@/components/profile/page-links";

type Params = Promise<{ owner: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;
const PAGE_SIZE = 30;

/**
 * The user named by the URL (users.profile), or the 404 page. Reserved top-level names
 * (signin, settings, new, api… — names sign-up refuses) never reach a user; the static routes
 * take them first anyway. Memoized per request (metadata + page).
 */
const loadProfile = cache(async (raw: string) => {
  const username = decodeSegment(raw);
  if (RESERVED_USERNAMES.has(username.toLowerCase())) notFound();
  return orNotFound((await getServerCaller()).users.profile({ username }));
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const user = await loadProfile((await params).owner);
  return { title: user.name ? `${user.username} (${user.name})` : user.username };
}

/**
 * /<username> (docs/ui.md "Pages"): avatar, name, username and the repositories the viewer may see;
 * for an organization, its repositories and people (docs/orgs.md "Pages").
 */
export default async function ProfilePage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const user = await loadProfile((await params).owner);
  const raw = (await searchParams).page;
  const page = Math.min(Math.max(Number.parseInt(typeof raw === "string" ? raw : "1", 10) || 1, 1), 10_000);
  if (user.kind === "organization") {
    const caller = await getServerCaller();
    // one extra row tells whether there is a next page
    const [org, rows, members] = await Promise.all([
      orNotFound(caller.orgs.get({ name: user.username })),
      caller.repos.list({ owner: user.username, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
      caller.orgs.members({ name: user.username }),
    ]);
    // a member without two-factor authentication of an organization requiring it: a notice (docs/security.md)
    const blocked = org.requireTwoFactor && org.viewerRole !== null && !(await caller.users.twoFactor.status()).enabled;
    const profile = (
      <OrgProfile org={org} repos={rows.slice(0, PAGE_SIZE)} members={members} page={page} hasNext={rows.length > PAGE_SIZE} />
    );
    return blocked ? (
      <>
        <TwoFactorRequiredNotice org={org.name} />
        {profile}
      </>
    ) : (
      profile
    );
  }
  const [actor, caller] = await Promise.all([getCurrentActor(), getServerCaller()]);
  // one extra row tells whether there is a next page
  const rows = await caller.repos.list({ owner: user.username, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  const repos = rows.slice(0, PAGE_SIZE);
  const isSelf = actor?.user.id === user.id;
  const pageUrl = (n: number) => (n === 1 ? `/${user.username}` : `/${user.username}?page=${n}`);
  return (
    <div className={cx(container, "grid gap-8 py-8 md:grid-cols-[15rem_minmax(0,1fr)]")}>
      <aside className="min-w-0" data-testid="profile-card">
        <Avatar username={user.username} size="lg" className="md:h-40! md:w-40! md:text-6xl!" />
        <h1 className="mt-4 min-w-0">
          {user.name && (
            <span className="block break-words text-2xl font-semibold leading-tight text-foreground" data-testid="profile-name">
              {user.name}
            </span>
          )}
          <span
            className={cx("block break-all", user.name ? "text-lg text-muted-foreground" : "text-2xl font-semibold text-foreground")}
            data-testid="profile-username"
          >
            {user.username}
          </span>
        </h1>
        <p className="mt-2 text-sm text-subtle-foreground">Joined {shortDate(user.createdAt)}</p>
        {isSelf && (
          <Button asChild variant="secondary" className="mt-4 w-full">
            <Link href="/settings/account" data-testid="edit-profile">
              Edit profile
            </Link>
          </Button>
        )}
      </aside>
      <section aria-labelledby="profile-repos-title" className="min-w-0">
        <h2 id="profile-repos-title" className="mb-3 text-lg font-semibold">
          Repositories
        </h2>
        <ProfileRepos repos={repos} username={user.username} isSelf={isSelf} page={page} />
        <PageLinks page={page} hasNext={rows.length > PAGE_SIZE} href={pageUrl} />
      </section>
    </div>
  );
}
