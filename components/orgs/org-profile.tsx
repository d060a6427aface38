/**
 * /<org> for an organization (docs/orgs.md "Pages"): its repositories the viewer may see
 * (repos.list {owner}, 30 a page: `page`, `hasNext`) and its people (orgs.members). Server component; the /[owner] route renders
 * it when users.profile answers kind "organization".
 */
import Link from "next/link";
import type { RepoView } from "@/server/services/repos/repo-view";
import type { OrgMemberView, OrgView } from "@/server/services/orgs/model";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { card, container, cx } from "@/components/ui/styles";
import { ProfileRepos } from "@/components/profile/profile-repos";
import { PageLinks } from "@/components/profile/page-links";

export function OrgProfile({
  org,
  repos,
  members,
  page = 1,
  hasNext = false,
}: {
  org: OrgView;
  repos: RepoView[];
  members: OrgMemberView[];
  page?: number;
  hasNext?: boolean;
}) {
  const isOwner = org.viewerRole === "owner";
  const canCreate = isOwner || (org.viewerRole === "member" && org.membersCanCreateRepos);
  return (
    <div className={cx(container, "py-8")} data-testid="org-page">
      <header className="flex flex-wrap items-center gap-4 border-b border-border pb-6">
        <Avatar username={org.name} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="break-words text-2xl font-semibold" data-testid="org-name">
            {org.displayName ?? org.name}
          </h1>
          {org.displayName && <p className="text-muted-foreground">{org.name}</p>}
          <p className="mt-1 text-sm text-subtle-foreground">Organization</p>
        </div>
        <div className="flex gap-2">
          {canCreate && (
            <Button asChild variant="primary">
              <Link href={`/new?owner=${encodeURIComponent(org.name)}`} data-testid="org-new-repo">
                New repository
              </Link>
            </Button>
          )}
          {org.viewerRole && (
            <Button asChild>
              <Link href={`/organizations/${encodeURIComponent(org.name)}/teams`} data-testid="org-teams-link">
                Teams
              </Link>
            </Button>
          )}
          {isOwner && (
            <Button asChild>
              <Link href={`/organizations/${encodeURIComponent(org.name)}/settings`} data-testid="org-settings-link">
                Settings
              </Link>
            </Button>
          )}
        </div>
      </header>
      <div className="mt-6 grid gap-8 md:grid-cols-[minmax(0,1fr)_16rem]">
        <section aria-labelledby="org-repos-title" className="min-w-0">
          <h2 id="org-repos-title" className="mb-3 text-lg font-semibold">
            Repositories
          </h2>
          <ProfileRepos repos={repos} username={org.name} isSelf={false} page={page} />
          <PageLinks
            page={page}
            hasNext={hasNext}
            href={(n) => (n === 1 ? `/${encodeURIComponent(org.name)}` : `/${encodeURIComponent(org.name)}?page=${n}`)}
          />
        </section>
        <section aria-labelledby="org-people-title" className="min-w-0">
          <h2 id="org-people-title" className="mb-3 text-lg font-semibold">
            People
          </h2>
          <ul className={cx(card, "divide-y divide-border")} data-testid="org-people">
            {members.map((m) => (
              <li key={m.userId} className="flex items-center gap-2 px-3 py-2" data-testid="org-person" data-username={m.username}>
                <Avatar username={m.username} size="sm" />
                <Link href={`/${m.username}`} className="min-w-0 flex-1 truncate text-sm font-medium text-primary hover:underline">
                  {m.username}
                </Link>
                {m.role === "owner" && <Badge>Owner</Badge>}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
