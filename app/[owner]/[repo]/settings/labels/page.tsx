import type { Metadata } from "next";
import { getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { LabelsManager } from "@/components/repo-settings/labels-manager";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";
import { issuesUrl } from "@/components/issues/model";

export async function generateMetadata({ params }: { params: SettingsParams }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Labels · ${r.fullName}` };
}

/** /<owner>/<repo>/settings/labels (docs/ui.md "Repository settings"): list, create, edit and delete labels (admins). */
export default async function LabelsSettingsPage({ params }: { params: SettingsParams }) {
  const repo = await loadAdminRepo(params);
  const labels = await (await getServerCaller()).issues.listLabels({ repoId: repo.id });
  return (
    <SettingsSection id="labels" title="Labels" description="Labels are shared by every issue of this repository.">
      <LabelsManager repoId={repo.id} labels={labels} issuesHref={issuesUrl(repo.owner, repo.name)} />
    </SettingsSection>
  );
}
