"use client";
/**
 * TOTP while enabled: regenerate the recovery codes (a current code) and disable (a code, a
 * recovery code or the password). users.twoFactor.regenerateRecoveryCodes / disable.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { button } from "@/components/ui/styles";

export function TwoFactorManage({ onCodes, onDisabled }: { onCodes: (codes: string[]) => void; onDisabled: () => void }) {
  const trpc = useTRPC();
  const [action, setAction] = useState<"regenerate" | "disable" | null>(null);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const regenerate = useMutation({
    ...trpc.users.twoFactor.regenerateRecoveryCodes.mutationOptions(),
    onSuccess: (r) => (setAction(null), onCodes(r.recoveryCodes)),
    onError: (e) => setError(e.message),
  });
  const disable = useMutation({
    ...trpc.users.twoFactor.disable.mutationOptions(),
    onSuccess: () => (setAction(null), onDisabled()),
    onError: (e) => setError(e.message),
  });
  const open = (a: "regenerate" | "disable") => (setAction(a), setValue(""), setError(undefined));
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button.secondary} onClick={() => open("regenerate")} data-testid="two-factor-regenerate">
          Regenerate recovery codes
        </button>
        <button type="button" className={button.dangerOutline} onClick={() => open("disable")} data-testid="two-factor-disable">
          Disable
        </button>
      </div>
      {action && (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            setError(undefined);
            const v = value.trim();
            if (action === "regenerate") regenerate.mutate({ code: v });
            else disable.mutate(/^\d[\d ]*$/.test(v) || /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(v) ? { code: v } : { password: value });
          }}
        >
          <FormError message={error} />
          <Field
            label={action === "regenerate" ? "Current code from your app" : "Code from your app, a recovery code, or your password"}
            id="two-factor-proof"
          >
            <Input
              type={action === "disable" ? "password" : "text"}
              autoComplete={action === "regenerate" ? "one-time-code" : "current-password"}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              className="max-w-sm"
            />
          </Field>
          <div className="flex gap-2">
            <button
              type="submit"
              className={action === "disable" ? button.danger : button.primary}
              disabled={regenerate.isPending || disable.isPending}
              data-testid="two-factor-proof-submit"
            >
              {action === "regenerate" ? "Regenerate" : "Disable two-factor authentication"}
            </button>
            <button type="button" className={button.secondary} onClick={() => setAction(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
