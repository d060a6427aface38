"use client";
import { useState } from "react";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { twoFactorGate } from "./two-factor-gate";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(initialError);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!username.trim() || !password) {
      setError("enter your username and password");
      return;
    }
    setBusy(true);
    const res = await signIn("credentials", { redirect: false, username: username.trim(), password, callbackUrl });
    if (!res || res.error) {
      setBusy(false);
      setError(!res || !res.error || res.error === "CredentialsSignin" ? "incorrect username or password" : res.error);
      return;
    }
    // a full navigation so every server component renders with the new session; through the
    // second-factor step, which asks for a code when the session is pending and else goes on
    window.location.assign(twoFactorGate(callbackUrl));
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" noValidate data-testid="signin-form">
      <FormError message={error} />
      <Field label="Username" id="username">
        <Input name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
      </Field>
      <Field label="Password" id="password">
        <Input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" variant="primary" className="w-full py-2" disabled={busy || !hydrated} data-testid="signin-submit">
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
