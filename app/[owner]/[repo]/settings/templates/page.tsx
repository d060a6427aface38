import type { Metadata } from "next";
import { getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { TemplatesManager } from "@/components/repo-settings/templates-manager";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";
import { issuesUrl } from "@/components/issues/model";

export async function generateMetadata({ params }: { params: SettingsParams }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Issue templates · ${r.fullName}` };
}

/** /<owner>/<repo>/settings/templates (docs/ui.md "Repository settings"): list, create, edit and delete issue templates (admins). */
export default async function TemplatesSettingsPage({ params }: { params: SettingsParams }) {
  const repo = await loadAdminRepo(params);
  const caller = await getServerCaller();
  const [templates, labels] = await Promise.all([
    caller.issues.listTemplates({ repoId: repo.id }),
    caller.issues.listLabels({ repoId: repo.id }),
  ]);
  return (
    <SettingsSection
      id="templates"
      title="Issue templates"
      description="Starting points for new issues: a title, a body, labels and a priority."
    >
      <TemplatesManager repoId={repo.id} templates={templates} labels={labels} newIssueHref={issuesUrl(repo.owner, repo.name, "new")} />
    </SettingsSection>
  );
}
