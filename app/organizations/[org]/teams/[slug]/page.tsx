import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { orNotFound } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { card, cx } from "@/components/ui/styles";
import { AddTeamMemberForm, AddTeamRepoForm, DeleteTeamButton, TeamRemoveButton } from "@/components/orgs/team-forms";

type Params = Promise<{ org: string; slug: string }>;

export const metadata: Metadata = { title: "Team" };

/**
 * /organizations/<name>/teams/<slug> (docs/orgs.md "Teams"): a team's members and repositories
 * (teams.get) for the organization's members; owners add and remove them and may delete the team.
 * Signed out: sign in; not a member: 404.
 */
export default async function TeamPage({ params }: { params: Params }) {
  const p = await params;
  const name = decodeSegment(p.org);
  const slug = decodeSegment(p.slug);
  const actor = await getCurrentActor();
  if (!actor) redirect(`/signin?callbackUrl=${encodeURIComponent(`/organizations/${name}/teams/${slug}`)}`);
  const caller = await getServerCaller();
  const team = await orNotFound(caller.teams.get({ org: name, slug }));
  const isOwner = team.viewerRole === "owner";
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6" data-testid="team-page">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-sm text-subtle-foreground">
            <Link href={`/organizations/${encodeURIComponent(team.org)}/teams`} className="hover:underline">
              {team.org} teams
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="team-name-heading">
            {team.name}
          </h1>
          <p className="text-sm text-subtle-foreground">
            @{team.org}/{team.slug} · default permission {team.permission}
          </p>
          {team.description && <p className="mt-1 text-muted-foreground">{team.description}</p>}
        </div>
        {isOwner && <DeleteTeamButton org={team.org} slug={team.slug} />}
      </div>
      <section aria-labelledby="team-members" className={cx(card, "space-y-4 p-6")}>
        <h2 id="team-members" className="text-lg font-semibold">
          Members
        </h2>
        {isOwner && <AddTeamMemberForm org={team.org} slug={team.slug} />}
        {team.members.length === 0 ? (
          <p className="text-sm text-subtle-foreground">No members yet.</p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" data-testid="team-member-list">
            {team.members.map((m) => (
              <li key={m.userId} className="flex items-center gap-3 px-4 py-3" data-testid="team-member-row" data-username={m.username}>
                <Avatar username={m.username} size="md" />
                <Link href={`/${m.username}`} className="min-w-0 flex-1 truncate font-medium text-primary hover:underline">
                  {m.username}
                  {m.name && <span className="ml-2 font-normal text-subtle-foreground">{m.name}</span>}
                </Link>
                {isOwner && <TeamRemoveButton org={team.org} slug={team.slug} username={m.username} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="team-repos" className={cx(card, "space-y-4 p-6")}>
        <h2 id="team-repos" className="text-lg font-semibold">
          Repositories
        </h2>
        {isOwner && <AddTeamRepoForm org={team.org} slug={team.slug} defaultPermission={team.permission} />}
        {team.repositories.length === 0 ? (
          <p className="text-sm text-subtle-foreground">No repositories yet.</p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" data-testid="team-repo-list">
            {team.repositories.map((r) => (
              <li key={r.repoId} className="flex items-center gap-3 px-4 py-3" data-testid="team-repo-row" data-name={r.name}>
                <Link href={`/${r.owner}/${r.name}`} className="min-w-0 flex-1 truncate font-medium text-primary hover:underline">
                  {r.owner}/{r.name}
                </Link>
                {r.isPrivate && <Badge>Private</Badge>}
                <Badge tone="primary">{r.permission}</Badge>
                {isOwner && <TeamRemoveButton org={team.org} slug={team.slug} repo={r.name} />}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
