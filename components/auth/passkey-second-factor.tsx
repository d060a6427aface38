"use client";
/**
 * "Use a passkey" on the second step of signing in (/signin/two-factor; docs/security.md
 * "Two-factor", "Passkeys"): options for the pending sign-in's passkeys
 * (users.passkeys.secondFactorOptions, read from the session cookie), the browser ceremony, then
 * users.passkeys.secondFactorVerify completes the session and the page goes on to `callbackUrl`.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ceremonyError } from "./passkey-errors";

export function PasskeySecondFactor({ callbackUrl }: { callbackUrl: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const options = useMutation(trpc.users.passkeys.secondFactorOptions.mutationOptions());
  const verify = useMutation(trpc.users.passkeys.secondFactorVerify.mutationOptions());

  async function onClick() {
    setError(undefined);
    if (!browserSupportsWebAuthn()) {
      setError("this browser does not support passkeys; use another second factor");
      return;
    }
    setBusy(true);
    try {
      const optionsJSON = await options.mutateAsync();
      const response = await startAuthentication({ optionsJSON });
      await verify.mutateAsync({ response });
      window.location.assign(callbackUrl);
    } catch (e) {
      setError(ceremonyError(e));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3" data-testid="passkey-second-factor">
      <FormError message={error} />
      <Button
        variant="primary"
        className="w-full py-2"
        disabled={busy || !hydrated}
        onClick={onClick}
        data-testid="passkey-second-factor-button"
      >
        {busy ? "Waiting for your passkey…" : "Use a passkey"}
      </Button>
    </div>
  );
}
