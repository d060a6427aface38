import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getServerCaller } from "@/server/auth/session";
import { loadBranches, loadRepo } from "@/components/code/data";
import { RepoHeader } from "@/components/code/parts";
import { decodeSegment } from "@/components/code/resolve";
import { container, cx } from "@/components/ui/styles";
import { AlertIcon, GearIcon, LockIcon, PeopleIcon } from "@/components/ui/icons";
import { SettingsSection } from "@/components/repo-settings/section";
import { GeneralSettings } from "@/components/repo-settings/general-settings";
import { VisibilitySettings } from "@/components/repo-settings/visibility-settings";
import { CollaboratorsSettings, type CollaboratorRecord } from "@/components/repo-settings/collaborators-settings";
import { DangerZone } from "@/components/repo-settings/danger-zone";

type Params = Promise<{ owner: string; repo: string }>;

/** The repository for its settings page: admins only; everyone else gets the 404 page, as on GitHub. */
async function loadAdminRepo(params: Params) {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  if (r.permission !== "admin") notFound();
  return r;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const r = await loadAdminRepo(params);
  return { title: `Settings · ${r.fullName}` };
}

const SECTIONS = [
  { id: "general", title: "General", Icon: GearIcon },
  { id: "visibility", title: "Visibility", Icon: LockIcon },
  { id: "collaborators", title: "Collaborators", Icon: PeopleIcon },
  { id: "danger-zone", title: "Danger zone", Icon: AlertIcon },
];

export default async function RepoSettingsPage({ params }: { params: Params }) {
  const repo = await loadAdminRepo(params);
  const caller = await getServerCaller();
  const [branches, collaborators] = await Promise.all([repo.isEmpty ? Promise.resolve([]) : loadBranches(repo.id), caller.repos.collaborators({ repoId: repo.id })]);
  return (
    <>
      <RepoHeader repo={repo} tab="settings" />
      <div className={cx(container, "grid gap-6 py-6 lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8")}>
        <nav aria-label="Settings sections" className="lg:sticky lg:top-6 lg:self-start">
          <ul className="flex flex-wrap gap-1 text-sm lg:flex-col">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  className={cx("flex items-center gap-2 rounded-md px-3 py-1.5 font-medium hover:bg-slate-200/70", s.id === "danger-zone" ? "text-red-700" : "text-slate-700 hover:text-slate-900")}
                >
                  <s.Icon className={s.id === "danger-zone" ? "text-red-500" : "text-slate-500"} />
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-6">
          <SettingsSection id="general" title="General">
            <GeneralSettings repoId={repo.id} description={repo.description} defaultBranch={repo.defaultBranch} branches={branches.map((b) => b.name)} isEmpty={repo.isEmpty} />
          </SettingsSection>
          <SettingsSection id="visibility" title="Visibility">
            <VisibilitySettings repoId={repo.id} fullName={repo.fullName} isPrivate={repo.isPrivate} />
          </SettingsSection>
          <SettingsSection id="collaborators" title="Collaborators" description="People besides you who can read, push to or manage this repository.">
            <CollaboratorsSettings repoId={repo.id} owner={repo.owner} isPrivate={repo.isPrivate} collaborators={collaborators as CollaboratorRecord[]} />
          </SettingsSection>
          <SettingsSection id="danger-zone" title="Danger zone" danger>
            <DangerZone repoId={repo.id} fullName={repo.fullName} />
          </SettingsSection>
        </div>
      </div>
    </>
  );
}
