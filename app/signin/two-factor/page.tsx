import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { getPendingSecondFactor } from "@/server/auth/pending-page";
import { AuthCard } from "@/components/auth/auth-card";
import { TwoFactorCodeForm } from "@/components/auth/two-factor-code-form";
import { PasskeySecondFactor } from "@/components/auth/passkey-second-factor";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

export const metadata: Metadata = { title: "Two-factor authentication" };

/**
 * /signin/two-factor: the second step of signing in (docs/security.md "Two-factor
 * authentication"). Every interactive sign-in returns through here (components/auth/two-factor-gate.ts):
 * signed in (nothing pending) → straight on to callbackUrl; a sign-in waiting for its second
 * factor → the code form (and other factors the user has); neither → /signin.
 */
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await getCurrentActor()) redirect(callbackUrl);
  const pending = await getPendingSecondFactor();
  if (!pending) redirect(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  return (
    <AuthCard
      title="Two-factor authentication"
      footer={
        <>
          Not you, or the code is lost?{" "}
          <Link href={`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`} className="font-medium text-primary hover:underline">
            Sign in again
          </Link>
        </>
      }
    >
      <p className="mb-4 text-sm text-muted-foreground">
        Signing in as <span className="font-medium text-foreground">{pending.username}</span>.
      </p>
      {pending.totp && <TwoFactorCodeForm callbackUrl={callbackUrl} />}
      {pending.totp && pending.passkeys && <p className="my-4 text-center text-xs text-subtle-foreground">or</p>}
      {pending.passkeys && <PasskeySecondFactor callbackUrl={callbackUrl} />}
    </AuthCard>
  );
}
