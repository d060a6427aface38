import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { TwoFactorSection } from "@/components/settings/two-factor-section";
import { PasskeysSection } from "@/components/settings/passkeys-section";

export const metadata: Metadata = { title: "Password and authentication" };

/**
 * /settings/security: "Password and authentication" — two-factor authentication (TOTP and
 * recovery codes; docs/security.md "Two-factor authentication") and passkeys (docs/security.md
 * "Passkeys"). A thin composition of sections.
 */
export default async function SecurityPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Fsecurity");
  const caller = await getServerCaller();
  const [twoFactor, passkeys] = await Promise.all([caller.users.twoFactor.status(), caller.users.passkeys.list()]);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Password and authentication</h1>
        <p className="mt-1 text-sm text-muted-foreground">How you prove it is you when you sign in.</p>
      </div>
      <TwoFactorSection initialStatus={twoFactor} />
      <PasskeysSection initialPasskeys={passkeys} />
    </div>
  );
}
