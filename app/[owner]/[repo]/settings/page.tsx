import type { Metadata } from "next";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { loadBranches } from "@/components/code/data";
import { SettingsSection } from "@/components/repo-settings/section";
import { GeneralSettings } from "@/components/repo-settings/general-settings";
import { VisibilitySettings } from "@/components/repo-settings/visibility-settings";
import { CollaboratorsSettings, type CollaboratorRecord } from "@/components/repo-settings/collaborators-settings";
import { DangerZone } from "@/components/repo-settings/danger-zone";
import { TeamAccessList } from "@/components/repo-settings/team-access";
import { TransferRepo } from "@/components/repo-settings/transfer-repo";
import { AiSettings } from "@/components/repo-settings/ai-settings";
import { DeployKeysManager } from "@/components/settings/ssh-keys-manager";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";

export async function generateMetadata({ params }: { params: SettingsParams }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Settings · ${r.fullName}` };
}

/** /<owner>/<repo>/settings: General, Visibility, Collaborators, Deploy keys, AI and Danger zone (transfer, delete; admins; the layout adds the header and nav). */
export default async function RepoSettingsPage({ params }: { params: SettingsParams }) {
  const repo = await loadAdminRepo(params);
  const caller = await getServerCaller();
  const [branches, collaborators, teamAccess, aiKeys, aiStatus, aiBudget, actor, orgs, deployKeys] = await Promise.all([
    repo.isEmpty ? Promise.resolve([]) : loadBranches(repo.id),
    caller.repos.collaborators({ repoId: repo.id }),
    caller.teams.repoAccess({ repoId: repo.id }),
    caller.repoAiKeys.list({ repoId: repo.id }),
    caller.ai.status({ repoId: repo.id }),
    caller.repoAiKeys.budget({ repoId: repo.id }),
    getCurrentActor(),
    caller.orgs.list().catch(() => []),
    caller.repos.deployKeys.list({ repoId: repo.id }),
  ]);
  // where the caller may transfer it: themself and the organizations where they may create (docs/orgs.md)
  const transferTargets = [actor?.user.username, ...orgs.filter((o) => o.canCreateRepos).map((o) => o.name)].filter(
    (o): o is string => !!o && o.toLowerCase() !== repo.owner.toLowerCase(),
  );
  return (
    <>
      <SettingsSection id="general" title="General">
        <GeneralSettings
          repoId={repo.id}
          description={repo.description}
          defaultBranch={repo.defaultBranch}
          branches={branches.map((b) => b.name)}
          isEmpty={repo.isEmpty}
        />
      </SettingsSection>
      <SettingsSection id="visibility" title="Visibility">
        <VisibilitySettings repoId={repo.id} fullName={repo.fullName} isPrivate={repo.isPrivate} />
      </SettingsSection>
      <SettingsSection
        id="collaborators"
        title="Collaborators"
        description="People besides you who can read, push to or manage this repository."
      >
        <CollaboratorsSettings
          repoId={repo.id}
          owner={repo.owner}
          isPrivate={repo.isPrivate}
          collaborators={collaborators as CollaboratorRecord[]}
        />
        <TeamAccessList teams={teamAccess} />
      </SettingsSection>
      <SettingsSection
        id="deploy-keys"
        title="Deploy keys"
        description="SSH keys that may clone this repository only (and push, when allowed), without a user account (docs/ssh.md)."
      >
        <DeployKeysManager repoId={repo.id} initialKeys={deployKeys} />
      </SettingsSection>
      <SettingsSection
        id="ai"
        title="AI"
        description="A model key for this repository's AI features, used instead of the server's. Without any key they run on the local engine."
      >
        <AiSettings repoId={repo.id} keys={aiKeys} status={aiStatus} budget={aiBudget} />
      </SettingsSection>
      <SettingsSection id="danger-zone" title="Danger zone" danger>
        <div className="space-y-6">
          <TransferRepo repoId={repo.id} name={repo.name} fullName={repo.fullName} owners={transferTargets} />
          <DangerZone repoId={repo.id} fullName={repo.fullName} />
        </div>
      </SettingsSection>
    </>
  );
}
