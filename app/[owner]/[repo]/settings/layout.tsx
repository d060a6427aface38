import { settingsUrl } from "@/components/code/urls";
import { container, cx } from "@/components/ui/styles";
import { AlertIcon, BranchIcon, CodeIcon, GearIcon, KeyIcon, PeopleIcon } from "@/components/ui/icons";
import { NoteIcon, TagIcon } from "@/components/ui/icons-planning";
import { SideNav } from "@/components/ui/side-nav";
import { loadAdminRepo, type SettingsParams } from "@/components/repo-settings/load";

/**
 * The frame of every repository settings page (docs/ui.md "Repository settings"), under the
 * repository header (app/[owner]/[repo]/layout.tsx): admins only — everyone else gets the 404 page,
 * decided here before anything streams — and a left nav — General, Collaborators, AI and Danger
 * zone are sections of /settings, Branches, Labels, Templates and Webhooks pages of their own. On phones the nav wraps
 * above the content.
 */
export default async function RepoSettingsLayout({ params, children }: { params: SettingsParams; children: React.ReactNode }) {
  const repo = await loadAdminRepo(params);
  const base = settingsUrl(repo.owner, repo.name);
  const icon = (Icon: (p: { className?: string }) => React.ReactNode, danger = false) => (
    <Icon className={danger ? "text-danger" : "text-subtle-foreground"} />
  );
  return (
    <>
      <div className={cx(container, "grid gap-6 py-6 lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8")}>
        <SideNav
          label="Settings sections"
          items={[
            { href: base, label: "General", icon: icon(GearIcon), testId: "settings-nav-general" },
            { href: `${base}#collaborators`, label: "Collaborators", icon: icon(PeopleIcon), testId: "settings-nav-collaborators" },
            { href: `${base}/branches`, label: "Branches", icon: icon(BranchIcon), testId: "settings-nav-branches" },
            { href: `${base}/labels`, label: "Labels", icon: icon(TagIcon), testId: "settings-nav-labels" },
            { href: `${base}/templates`, label: "Templates", icon: icon(NoteIcon), testId: "settings-nav-templates" },
            { href: `${base}/webhooks`, label: "Webhooks", icon: icon(CodeIcon), testId: "settings-nav-webhooks" },
            { href: `${base}#deploy-keys`, label: "Deploy keys", icon: icon(KeyIcon), testId: "settings-nav-deploy-keys" },
            { href: `${base}#ai`, label: "AI", icon: icon(KeyIcon), testId: "settings-nav-ai" },
            {
              href: `${base}#danger-zone`,
              label: "Danger zone",
              icon: icon(AlertIcon, true),
              danger: true,
              testId: "settings-nav-danger-zone",
            },
          ]}
        />
        <div className="min-w-0 space-y-6">{children}</div>
      </div>
    </>
  );
}
