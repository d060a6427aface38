import { getCurrentActor } from "@/server/auth/session";
import { Avatar } from "@/components/ui/avatar";
import { SideNav } from "@/components/ui/side-nav";
import { GearIcon, KeyIcon, DeviceIcon, InboxIcon, LockIcon } from "@/components/ui/icons";

/**
 * The frame of /settings/* (docs/ui.md "Pages"): the signed-in user's avatar and name, a sidebar
 * (Account, Security, Notifications, Sessions, Tokens, SSH keys) and the page. Signed out, each page redirects to sign in.
 */
export default async function SettingsLayout({ children }: { children: React.ReactNode }) {
  const actor = await getCurrentActor();
  if (!actor) return <>{children}</>;
  const { username, name } = actor.user;
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-8 sm:px-6 lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8">
      <div className="space-y-4">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar username={username} size="md" />
          <div className="min-w-0">
            <div className="truncate font-semibold text-foreground">{name || username}</div>
            <div className="truncate text-xs text-subtle-foreground">Your personal account</div>
          </div>
        </div>
        <SideNav
          label="Settings"
          items={[
            {
              href: "/settings/account",
              label: "Account",
              icon: <GearIcon className="text-subtle-foreground" />,
              testId: "settings-nav-account",
            },
            {
              href: "/settings/security",
              label: "Security",
              icon: <LockIcon className="text-subtle-foreground" />,
              testId: "settings-nav-security",
            },
            {
              href: "/settings/notifications",
              label: "Notifications",
              icon: <InboxIcon className="text-subtle-foreground" />,
              testId: "settings-nav-notifications",
            },
            {
              href: "/settings/sessions",
              label: "Sessions",
              icon: <DeviceIcon className="text-subtle-foreground" />,
              testId: "settings-nav-sessions",
            },
            {
              href: "/settings/tokens",
              label: "Tokens",
              icon: <KeyIcon className="text-subtle-foreground" />,
              testId: "settings-nav-tokens",
            },
            {
              href: "/settings/keys",
              label: "SSH keys",
              icon: <KeyIcon className="text-subtle-foreground" />,
              testId: "settings-nav-keys",
            },
          ]}
        />
      </div>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
