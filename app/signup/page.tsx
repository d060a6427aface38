import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { getConfig } from "@/server/config";
import { AuthCard } from "@/components/auth/auth-card";
import { SignUpForm } from "@/components/auth/signup-form";
import { GithubSignIn } from "@/components/auth/github-sign-in";
import { OidcSignIn } from "@/components/auth/oidc-sign-in";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await getCurrentActor()) redirect(callbackUrl);
  const signInHref = callbackUrl === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Already have an account?{" "}
          <Link href={signInHref} className="font-medium text-primary hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      {getConfig().oidcOnly ? (
        <p className="mb-4 text-sm text-muted-foreground" data-testid="signup-off">
          Sign-up is turned off: your account is created the first time you sign in with {getConfig().oidc?.name}.
        </p>
      ) : (
        <SignUpForm callbackUrl={callbackUrl} />
      )}
      <GithubSignIn callbackUrl={callbackUrl} enabled={!!getConfig().github} />
      <OidcSignIn callbackUrl={callbackUrl} name={getConfig().oidc?.name} only={getConfig().oidcOnly} />
    </AuthCard>
  );
}
