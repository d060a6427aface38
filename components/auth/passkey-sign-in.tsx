"use client";
/**
 * "Sign in with a passkey" on the sign-in page (docs/security.md "Passkeys"): options from
 * users.passkeys.signInOptions (discoverable credentials: the browser offers the passkeys it has
 * for this site), the browser ceremony (@simplewebauthn/browser startAuthentication), then
 * next-auth's "passkey" provider verifies the assertion and signs in — no password, no second
 * step (user verification makes the passkey both factors).
 */
import { useState } from "react";
import { signIn } from "next-auth/react";
import { useMutation } from "@tanstack/react-query";
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ceremonyError } from "./passkey-errors";

export function PasskeySignIn({ callbackUrl }: { callbackUrl: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const options = useMutation(trpc.users.passkeys.signInOptions.mutationOptions());

  async function onClick() {
    setError(undefined);
    if (!browserSupportsWebAuthn()) {
      setError("this browser does not support passkeys");
      return;
    }
    setBusy(true);
    try {
      const optionsJSON = await options.mutateAsync();
      const response = await startAuthentication({ optionsJSON });
      const res = await signIn("passkey", { redirect: false, response: JSON.stringify(response), callbackUrl });
      if (!res || res.error) {
        setError(!res?.error || res.error === "CredentialsSignin" ? "that passkey could not sign you in" : res.error);
        setBusy(false);
        return;
      }
      window.location.assign(callbackUrl); // a full navigation: every server component sees the session
    } catch (e) {
      setError(ceremonyError(e));
      setBusy(false);
    }
  }

  return (
    <div className="mt-4 space-y-2">
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-subtle-foreground">
        <span className="h-px flex-1 bg-accent" />
        or
        <span className="h-px flex-1 bg-accent" />
      </div>
      <FormError message={error} />
      <Button variant="secondary" className="w-full py-2" disabled={busy || !hydrated} onClick={onClick} data-testid="passkey-sign-in">
        {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </Button>
    </div>
  );
}
