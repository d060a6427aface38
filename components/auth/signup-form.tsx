"use client";
import { useState } from "react";
import { signIn } from "next-auth/react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";

export function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const trpc = useTRPC();
  const signUp = useMutation(trpc.users.signUp.mutationOptions());
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await signUp.mutateAsync({ username: username.trim(), password, name: name.trim() || undefined, email: email.trim() || undefined });
    } catch (err) {
      setBusy(false);
      setError(errorMessage(err));
      return;
    }
    const res = await signIn("credentials", { redirect: false, username: username.trim(), password, callbackUrl });
    if (!res || res.error) {
      setBusy(false);
      setError("your account was created, but signing in failed; try signing in");
      return;
    }
    window.location.assign(callbackUrl);
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" noValidate data-testid="signup-form">
      <FormError message={error} />
      <Field label="Username" id="username" hint="Letters, digits and single hyphens; up to 39 characters.">
        <Input name="username" autoComplete="username" autoFocus required value={username} onChange={(e) => setUsername(e.target.value)} />
      </Field>
      <Field label="Password" id="password" hint="At least 8 characters.">
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={
            <>
              Name <span className="font-normal text-subtle-foreground">(optional)</span>
            </>
          }
          id="name"
        >
          <Input name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field
          label={
            <>
              Email <span className="font-normal text-subtle-foreground">(optional)</span>
            </>
          }
          id="email"
        >
          <Input name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
      </div>
      <Button type="submit" variant="primary" className="w-full py-2" disabled={busy || !hydrated} data-testid="signup-submit">
        {busy ? "Creating account…" : "Create account"}
      </Button>
    </form>
  );
}
