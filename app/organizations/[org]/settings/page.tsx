import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { orNotFound } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { card, cx } from "@/components/ui/styles";
import { OrgSettingsForm } from "@/components/orgs/org-settings-form";
import { OrgMembers } from "@/components/orgs/org-members";

type Params = Promise<{ org: string }>;

export const metadata: Metadata = { title: "Organization settings" };

/**
 * /organizations/<name>/settings (docs/orgs.md "Pages"): owners change the organization's
 * settings and members. Signed out: sign in; not an owner: 404 (as a repository's settings).
 */
export default async function OrgSettingsPage({ params }: { params: Params }) {
  const name = decodeSegment((await params).org);
  const actor = await getCurrentActor();
  if (!actor) redirect(`/signin?callbackUrl=${encodeURIComponent(`/organizations/${name}/settings`)}`);
  const caller = await getServerCaller();
  const [org, members] = await Promise.all([orNotFound(caller.orgs.get({ name })), orNotFound(caller.orgs.members({ name }))]);
  if (org.viewerRole !== "owner") notFound();
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">
          <Link href={`/${org.name}`} className="hover:underline">
            {org.name}
          </Link>{" "}
          settings
        </h1>
      </div>
      <section aria-labelledby="org-general" className={cx(card, "p-6")}>
        <h2 id="org-general" className="mb-4 text-lg font-semibold">
          General
        </h2>
        <OrgSettingsForm org={org} />
      </section>
      <section aria-labelledby="org-members" className={cx(card, "p-6")}>
        <h2 id="org-members" className="mb-4 text-lg font-semibold">
          Members
        </h2>
        <OrgMembers org={org.name} members={members} />
      </section>
      <section aria-labelledby="org-teams" className={cx(card, "p-6")}>
        <h2 id="org-teams" className="mb-2 text-lg font-semibold">
          Teams
        </h2>
        <p className="text-sm text-muted-foreground">
          Teams group members and grant them access to some repositories; CODEOWNERS can name them as @{org.name}/team.{" "}
          <Link
            href={`/organizations/${encodeURIComponent(org.name)}/teams`}
            className="text-primary underline underline-offset-2"
            data-testid="org-settings-teams-link"
          >
            Manage teams
          </Link>
        </p>
      </section>
    </div>
  );
}
