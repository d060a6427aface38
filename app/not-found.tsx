import Link from "next/link";
import { headers } from "next/headers";
import { button } from "@/components/ui/styles";
import { getCurrentActor } from "@/server/auth/session";
import { safeCallbackUrl } from "@/components/auth/safe-callback";

/**
 * The site's 404: unknown users and repositories, and private repositories the viewer cannot
 * read (never saying which). Signed out, it offers "Sign in" back to this address, since the
 * page may be a private repository (GitHub does the same). The path comes from proxy.ts
 * (x-svc-path), as not-found pages get no params.
 */
export default async function NotFound() {
  const [actor, h] = await Promise.all([getCurrentActor(), headers()]);
  const path = safeCallbackUrl(h.get("x-svc-path") ?? "/");
  return (
    <div className="mx-auto max-w-lg px-4 py-24 text-center" data-testid="not-found">
      <p className="font-mono text-5xl font-bold text-subtle-foreground">404</p>
      <h1 className="mt-4 text-2xl font-semibold">This page could not be found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        {actor
          ? "The user, repository, branch or file does not exist, or you do not have access to it."
          : "The user, repository, branch or file does not exist, or it is private: sign in to see it if you have access."}
      </p>
      <div className="mt-6 flex justify-center gap-2">
        {actor ? (
          <Link href="/" className={button.secondary}>
            Back to your dashboard
          </Link>
        ) : (
          <>
            <Link href={`/signin?callbackUrl=${encodeURIComponent(path)}`} className={button.primary} data-testid="not-found-sign-in">
              Sign in
            </Link>
            <Link href="/" className={button.secondary}>
              Home
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
