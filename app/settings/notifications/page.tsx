import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { SettingsSection } from "@/components/repo-settings/section";
import { NotificationSettingsForm } from "@/components/settings/notification-settings-form";

export const metadata: Metadata = { title: "Notifications" };

/**
 * /settings/notifications (docs/notifications-email.md "Settings"): how notifications are emailed.
 * Without SMTP_URL the page says email is off on this server (the settings stay editable, and
 * apply once it is configured); without an address on the account, it says where to add one.
 */
export default async function NotificationSettingsPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Fnotifications");
  const settings = await (await getServerCaller()).users.notificationSettings();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Notifications</h1>
        <p className="mt-1 text-sm text-muted-foreground">Choose which notifications reach your inbox, and how often.</p>
      </div>
      {!settings.emailConfigured && (
        <div
          role="note"
          className="rounded-md border border-warning-border bg-warning-muted px-4 py-3 text-sm text-foreground"
          data-testid="email-off-notice"
        >
          <p className="font-medium">Email is off on this server.</p>
          <p className="mt-1 text-muted-foreground">
            No outgoing mail server is configured (the administrator has not set <code>SMTP_URL</code>), so svc sends no email. Your
            notifications still appear in svc, and the settings below apply once email is turned on.
          </p>
        </div>
      )}
      {settings.emailConfigured && !settings.address && (
        <div
          role="note"
          className="rounded-md border border-border bg-muted px-4 py-3 text-sm text-foreground"
          data-testid="no-address-notice"
        >
          Your account has no email address, so nothing can be emailed to you.{" "}
          <Link href="/settings/account" className="font-medium text-primary hover:underline">
            Add one in Account
          </Link>
          .
        </div>
      )}
      <SettingsSection
        id="email"
        title="Email"
        description={settings.address ? `Emails go to ${settings.address}.` : "Emails go to the address of your account."}
      >
        <NotificationSettingsForm initial={settings} />
      </SettingsSection>
    </div>
  );
}
