import type { Metadata } from "next";
import { getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { WebhooksManager } from "@/components/repo-settings/webhooks-manager";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";

export async function generateMetadata({ params }: { params: SettingsParams }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Webhooks · ${r.fullName}` };
}

/** /<owner>/<repo>/settings/webhooks (docs/ui.md "Repository settings"): the repository's webhooks and their deliveries (admins). */
export default async function WebhooksSettingsPage({ params }: { params: SettingsParams }) {
  const repo = await loadAdminRepo(params);
  const hooks = await (await getServerCaller()).webhooks.list({ repoId: repo.id });
  return (
    <SettingsSection
      id="webhooks"
      title="Webhooks"
      description="svc POSTs GitHub-shaped event payloads to these URLs, signed with the webhook's secret, after each change."
    >
      <WebhooksManager repoId={repo.id} initial={hooks} />
    </SettingsSection>
  );
}
