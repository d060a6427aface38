"use client";
/**
 * Enabling TOTP (users.twoFactor.setup then confirm): the QR code to scan, the key to type in by
 * hand, and the first code from the app. On success the parent shows the recovery codes.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { button, card, cx } from "@/components/ui/styles";

export function TwoFactorSetup({ onEnabled, onCancel }: { onEnabled: (recoveryCodes: string[]) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const setup = useMutation({ ...trpc.users.twoFactor.setup.mutationOptions(), onError: (e) => setError(e.message) });
  const confirm = useMutation({
    ...trpc.users.twoFactor.confirm.mutationOptions(),
    onSuccess: (r) => onEnabled(r.recoveryCodes),
    onError: (e) => setError(e.message),
  });
  if (!setup.data) {
    return (
      <div className="space-y-2">
        <FormError message={error} />
        <button
          type="button"
          className={button.primary}
          disabled={setup.isPending}
          onClick={() => setup.mutate()}
          data-testid="two-factor-enable"
        >
          {setup.isPending ? "Preparing…" : "Enable two-factor authentication"}
        </button>
      </div>
    );
  }
  const { qrSvg, secret } = setup.data;
  return (
    <form
      className={cx(card, "space-y-4 p-4")}
      onSubmit={(e) => {
        e.preventDefault();
        setError(undefined);
        confirm.mutate({ code: code.trim() });
      }}
      data-testid="two-factor-setup"
    >
      <FormError message={error} />
      <p className="text-sm text-muted-foreground">
        Scan this QR code with an authenticator app (1Password, Google Authenticator, Aegis, …), or enter the key by hand.
      </p>
      <img
        src={`data:image/svg+xml;base64,${btoa(qrSvg)}`}
        alt="QR code for your authenticator app"
        width={176}
        height={176}
        className="rounded-md bg-white"
      />
      <div className="text-sm">
        <span className="text-muted-foreground">Key: </span>
        <code className="break-all font-mono text-foreground" data-testid="totp-secret">
          {secret}
        </code>
      </div>
      <Field label="Code from the app" id="totp-confirm-code">
        <Input
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          className="max-w-40 font-mono tracking-widest"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <div className="flex gap-2">
        <button type="submit" className={button.primary} disabled={confirm.isPending} data-testid="two-factor-confirm">
          {confirm.isPending ? "Verifying…" : "Verify and enable"}
        </button>
        <button type="button" className={button.secondary} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
