/**
 * Repository settings → Collaborators, the teams part (docs/orgs.md "Teams"): the organization's
 * teams with access to this repository and their permission (teams.repoAccess). Granting is done
 * on the team's page, so this list links there. Nothing for a repository without team access.
 */
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { TeamAccessView } from "@/server/services/teams/repo-access";

export function TeamAccessList({ teams }: { teams: TeamAccessView[] }) {
  if (teams.length === 0) return null;
  return (
    <div className="mt-6">
      <h3 id="team-access-title" className="mb-2 text-sm font-semibold text-foreground">
        Teams with access
      </h3>
      <ul
        aria-labelledby="team-access-title"
        className="divide-y divide-border rounded-md border border-border"
        data-testid="team-access-list"
      >
        {teams.map((t) => (
          <li key={`${t.org}/${t.slug}`} className="flex items-center gap-3 px-4 py-3" data-testid="team-access-row" data-slug={t.slug}>
            <Link
              href={`/organizations/${encodeURIComponent(t.org)}/teams/${encodeURIComponent(t.slug)}`}
              className="min-w-0 flex-1 truncate font-medium text-primary hover:underline"
            >
              {t.name}
              <span className="ml-2 font-normal text-subtle-foreground">
                @{t.org}/{t.slug} · {t.memberCount} {t.memberCount === 1 ? "member" : "members"}
              </span>
            </Link>
            <Badge tone="primary">{t.permission}</Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}
