"use client";
import { useState } from "react";
import { signIn } from "next-auth/react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { button, cx, hint, input, label } from "@/components/ui/styles";
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
      <div>
        <label htmlFor="username" className={label}>
          Username
        </label>
        <input id="username" name="username" autoComplete="username" autoFocus required className={cx(input, "mt-1")} value={username} onChange={(e) => setUsername(e.target.value)} />
        <p className={hint}>Letters, digits and single hyphens; up to 39 characters.</p>
      </div>
      <div>
        <label htmlFor="password" className={label}>
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="new-password" required className={cx(input, "mt-1")} value={password} onChange={(e) => setPassword(e.target.value)} />
        <p className={hint}>At least 8 characters.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="name" className={label}>
            Name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="name" name="name" autoComplete="name" className={cx(input, "mt-1")} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <label htmlFor="email" className={label}>
            Email <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="email" name="email" type="email" autoComplete="email" className={cx(input, "mt-1")} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
      </div>
      <button type="submit" className={cx(button.primary, "w-full py-2")} disabled={busy || !hydrated} data-testid="signup-submit">
        {busy ? "Creating account…" : "Create account"}
      </button>
    </form>
  );
}
