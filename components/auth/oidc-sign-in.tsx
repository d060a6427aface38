/**
 * The single sign-on part of the sign-in and sign-up pages (docs/security.md "Single sign-on
 * (OpenID Connect)"): nothing without `name` (OIDC_NAME; the page passes it when OIDC_* is
 * configured); with `only` (OIDC_ONLY=1) the button alone
 * (primary, with the page's error above it, as there is no password form to show it); else an
 * "or" divider and the button.
 */
import { FormError } from "@/components/ui/form-error";
import { OidcButton } from "./oidc-button";

export function OidcSignIn({ callbackUrl, name, only, error }: { callbackUrl: string; name?: string; only?: boolean; error?: string }) {
  if (!name) return null;
  if (only) {
    return (
      <div className="space-y-4" data-testid="oidc-only">
        <FormError message={error} />
        <OidcButton callbackUrl={callbackUrl} name={name} primary />
      </div>
    );
  }
  return (
    <>
      <div className="my-4 flex items-center gap-3 text-xs uppercase tracking-wide text-subtle-foreground">
        <span className="h-px flex-1 bg-accent" />
        or
        <span className="h-px flex-1 bg-accent" />
      </div>
      <OidcButton callbackUrl={callbackUrl} name={name} />
    </>
  );
}
