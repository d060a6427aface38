"use client";
/** The "Sign in with <OIDC_NAME>" button: next-auth's signIn("oidc"), a redirect to the OpenID provider. */
import { useState } from "react";
import { signIn } from "next-auth/react";
import { button, cx } from "@/components/ui/styles";
import { twoFactorGate } from "./two-factor-gate";

export function OidcButton({ callbackUrl, name, primary }: { callbackUrl: string; name: string; primary?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={cx(primary ? button.primary : button.secondary, "w-full py-2")}
      disabled={busy}
      data-testid="oidc-sign-in"
      onClick={() => {
        setBusy(true);
        void signIn("oidc", { callbackUrl: twoFactorGate(callbackUrl) });
      }}
    >
      <svg viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
        <rect x="3" y="7" width="10" height="7" rx="1.5" />
        <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
      </svg>
      {busy ? "Redirecting…" : `Sign in with ${name}`}
    </button>
  );
}
