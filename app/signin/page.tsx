import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { getConfig } from "@/server/config";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/signin-form";
import { GithubSignIn } from "@/components/auth/github-sign-in";
import { PasskeySignIn } from "@/components/auth/passkey-sign-in";
import { OidcSignIn } from "@/components/auth/oidc-sign-in";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

export const metadata: Metadata = { title: "Sign in" };

/** Messages for the `error` query parameter next-auth adds when it redirects here. */
const NEXT_AUTH_ERRORS: Record<string, string> = {
  CredentialsSignin: "incorrect username or password",
  SessionRequired: "sign in to see that page",
  OAuthAccountNotLinked: "that GitHub account is linked to another user",
  AccessDenied: "access denied",
  OidcIssuer: "the single sign-on provider answered for another issuer than the configured one",
  OidcClaims: "the single sign-on provider's ID token has no subject",
  OAuthCallback: "single sign-on failed; try again",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await getCurrentActor()) redirect(callbackUrl);
  const errorCode = typeof params.error === "string" ? params.error : undefined;
  const initialError = errorCode ? (NEXT_AUTH_ERRORS[errorCode] ?? "signing in failed; try again") : undefined;
  const signUpHref = callbackUrl === "/" ? "/signup" : `/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  return (
    <AuthCard
      title="Sign in to svc"
      footer={
        !getConfig().oidcOnly && (
          <>
            New to svc?{" "}
            <Link href={signUpHref} className="font-medium text-primary hover:underline">
              Create an account
            </Link>
          </>
        )
      }
    >
      {!getConfig().oidcOnly && <SignInForm callbackUrl={callbackUrl} initialError={initialError} />}
      <GithubSignIn callbackUrl={callbackUrl} enabled={!!getConfig().github} />
      {!getConfig().oidcOnly && <PasskeySignIn callbackUrl={callbackUrl} />}
      <OidcSignIn callbackUrl={callbackUrl} name={getConfig().oidc?.name} only={getConfig().oidcOnly} error={initialError} />
    </AuthCard>
  );
}
