import type { Metadata } from "next";
import { getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { BranchRulesManager } from "@/components/repo-settings/branch-rules-manager";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";

export async function generateMetadata({ params }: { params: SettingsParams }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Branches · ${r.fullName}` };
}

/** /<owner>/<repo>/settings/branches (docs/ui.md "Repository settings"): branch protection rules — list, add, edit, delete, and each rule's recent admin bypasses (admins). */
export default async function BranchesSettingsPage({ params }: { params: SettingsParams }) {
  const repo = await loadAdminRepo(params);
  const caller = await getServerCaller();
  const [rules, bypasses] = await Promise.all([
    caller.branchProtection.list({ repoId: repo.id }),
    caller.branchProtection.bypasses({ repoId: repo.id }),
  ]);
  return (
    <SettingsSection
      id="branches"
      title="Branch protection"
      description="Rules for the branches whose name matches a pattern (main, release/*). When several patterns match, the most specific one applies: an exact name first, then the longest text before the first wildcard."
    >
      <BranchRulesManager repoId={repo.id} repoPath={repo.fullName} rules={rules} bypasses={bypasses} />
    </SettingsSection>
  );
}
