import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { Avatar, avatarHue } from "@/components/ui/avatar";
import { PasswordForm, ProfileForm } from "@/components/settings/account-forms";
import { SsoSection } from "@/components/settings/sso-section";
import { getConfig } from "@/server/config";

export const metadata: Metadata = { title: "Account" };

/**
 * /settings/account (docs/api.md "Accounts"): profile (name, email), avatar preview, password, and
 * single sign-on when OIDC_* is configured (docs/security.md "Single sign-on (OpenID Connect)";
 * `?sso=<reason>`: a refused link).
 */
export default async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { oidc } = getConfig();
  const sso = (await searchParams).sso;
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Faccount");
  const me = await (await getServerCaller()).users.me();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Signed in as <span className="font-medium text-foreground">{me.username}</span> ·{" "}
          <Link href={`/${me.username}`} className="font-medium text-primary hover:underline" data-testid="view-profile">
            View your profile
          </Link>
        </p>
      </div>
      <SettingsSection id="profile" title="Profile">
        <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_11rem]">
          <ProfileForm name={me.name} email={me.email} />
          <div data-testid="avatar-preview" data-hue={avatarHue(me.username)}>
            <div className="text-sm font-medium text-foreground">Avatar</div>
            <div className="mt-2 flex items-center gap-3 md:flex-col md:items-start">
              <Avatar username={me.username} size="lg" />
              <div className="flex items-center gap-1.5" aria-hidden="true">
                <Avatar username={me.username} size="md" />
                <Avatar username={me.username} size="sm" />
                <Avatar username={me.username} size="xs" />
              </div>
            </div>
            <p className="mt-2 text-xs text-subtle-foreground">
              Your initial, in a colour that comes from your username, so it is the same on every page and for everyone.
            </p>
          </div>
        </div>
      </SettingsSection>
      <SettingsSection id="password" title="Password">
        <div className="max-w-md">
          <PasswordForm />
        </div>
      </SettingsSection>
      {oidc && (
        <SettingsSection id="sso" title="Single sign-on">
          <SsoSection providerName={oidc.name} linkError={typeof sso === "string" ? sso : undefined} />
        </SettingsSection>
      )}
    </div>
  );
}
