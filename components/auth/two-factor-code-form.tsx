"use client";
/**
 * The code form of the sign-in second step (app/signin/two-factor): the 6-digit code from the
 * authenticator app, or — after "Use a recovery code" — one of the recovery codes.
 * users.twoFactor.verifySignIn completes the pending session; then a full navigation to
 * `callbackUrl` so every server component renders signed in.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";

export function TwoFactorCodeForm({ callbackUrl }: { callbackUrl: string }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const verify = useMutation({
    ...trpc.users.twoFactor.verifySignIn.mutationOptions(),
    onSuccess: () => window.location.assign(callbackUrl),
    onError: (e) => setError(e.message),
  });

  function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    const value = code.trim();
    if (!value) return setError(recovery ? "enter a recovery code" : "enter the 6-digit code from your app");
    verify.mutate({ code: value });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate data-testid="two-factor-form">
      <FormError message={error} />
      {recovery ? (
        <Field label="Recovery code" id="recovery-code" hint="One of the codes you saved when you turned on two-factor authentication.">
          <Input
            name="recovery-code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            placeholder="xxxxx-xxxxx"
            className="font-mono"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </Field>
      ) : (
        <Field label="Authentication code" id="totp-code" hint="The 6-digit code from your authenticator app.">
          <Input
            name="totp-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9 ]*"
            maxLength={7}
            autoFocus
            placeholder="123456"
            className="font-mono tracking-widest"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </Field>
      )}
      <Button
        type="submit"
        variant="primary"
        className="w-full py-2"
        disabled={verify.isPending || !hydrated}
        data-testid="two-factor-submit"
      >
        {verify.isPending ? "Verifying…" : "Verify"}
      </Button>
      <button
        type="button"
        className="text-sm font-medium text-primary hover:underline"
        onClick={() => {
          setRecovery(!recovery);
          setCode("");
          setError(undefined);
        }}
        data-testid="two-factor-toggle"
      >
        {recovery ? "Use your authenticator app" : "Use a recovery code"}
      </button>
    </form>
  );
}
