import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { orNotFound } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { Badge } from "@/components/ui/badge";
import { card, cx } from "@/components/ui/styles";
import { CreateTeamForm } from "@/components/orgs/team-forms";

type Params = Promise<{ org: string }>;

export const metadata: Metadata = { title: "Teams" };

/**
 * /organizations/<name>/teams (docs/orgs.md "Teams"): the organization's teams for its members;
 * owners also get the New team form. Signed out: sign in; not a member: 404 (teams.list answers
 * NOT_FOUND).
 */
export default async function OrgTeamsPage({ params }: { params: Params }) {
  const name = decodeSegment((await params).org);
  const actor = await getCurrentActor();
  if (!actor) redirect(`/signin?callbackUrl=${encodeURIComponent(`/organizations/${name}/teams`)}`);
  const caller = await getServerCaller();
  const [org, teams] = await Promise.all([orNotFound(caller.orgs.get({ name })), orNotFound(caller.teams.list({ org: name }))]);
  const base = `/organizations/${encodeURIComponent(org.name)}/teams`;
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6" data-testid="org-teams-page">
      <h1 className="text-2xl font-semibold tracking-tight">
        <Link href={`/${org.name}`} className="hover:underline">
          {org.name}
        </Link>{" "}
        teams
      </h1>
      <section aria-labelledby="teams-list" className={cx(card, "p-6")}>
        <h2 id="teams-list" className="mb-4 text-lg font-semibold">
          Teams
        </h2>
        {teams.length === 0 ? (
          <p className="text-sm text-subtle-foreground" data-testid="teams-empty">
            No teams yet.
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-md border border-border" data-testid="team-list">
            {teams.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="team-row" data-slug={t.slug}>
                <div className="min-w-0 flex-1">
                  <Link href={`${base}/${encodeURIComponent(t.slug)}`} className="font-medium text-primary hover:underline">
                    {t.name}
                  </Link>
                  <span className="ml-2 text-xs text-subtle-foreground">
                    @{org.name}/{t.slug}
                  </span>
                  {t.description && <p className="text-sm text-muted-foreground">{t.description}</p>}
                </div>
                <Badge>
                  {t.memberCount} {t.memberCount === 1 ? "member" : "members"}
                </Badge>
                <Badge>
                  {t.repoCount} {t.repoCount === 1 ? "repository" : "repositories"}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
      {org.viewerRole === "owner" && (
        <section aria-labelledby="teams-new" className={cx(card, "p-6")}>
          <h2 id="teams-new" className="mb-4 text-lg font-semibold">
            New team
          </h2>
          <CreateTeamForm org={org.name} />
        </section>
      )}
    </div>
  );
}
