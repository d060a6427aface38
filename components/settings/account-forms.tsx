"use client";
/**
 * /settings/account forms (docs/api.md "Accounts"): the profile (name, email → users.updateProfile)
 * and the password (users.changePassword: current password required; other sessions are signed
 * out). Server messages are shown as written; success is a toast and, for the profile, a refresh so
 * the top bar shows the new name.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useRefresh } from "@/components/repo-settings/use-refresh";

/** Minimum password length, as sign-up (server/services/users/sign-up.ts MIN_PASSWORD_LENGTH). */
const MIN_PASSWORD = 8;

export function ProfileForm({ name, email }: { name: string | null; email: string | null }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.users.updateProfile.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [values, setValues] = useState({ name: name ?? "", email: email ?? "" });
  const [error, setError] = useState<string>();
  const dirty = values.name.trim() !== (name ?? "") || values.email.trim().toLowerCase() !== (email ?? "");
  const emailConflict = error && /email/i.test(error) ? error : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const saved = await update.mutateAsync({ name: values.name.trim(), email: values.email.trim() });
      setValues({ name: saved.name ?? "", email: saved.email ?? "" });
      toast.success("Profile saved");
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = update.isPending || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" noValidate data-testid="profile-form">
      {error && !emailConflict && <FormError message={error} />}
      <Field label="Name" hint="Shown next to your username. Leave empty to show only the username.">
        <Input
          value={values.name}
          maxLength={100}
          autoComplete="name"
          onChange={(e) => setValues({ ...values, name: e.target.value })}
          data-testid="profile-name"
        />
      </Field>
      <Field label="Email" hint="Never shown on your profile. Each address belongs to one account." error={emailConflict}>
        <Input
          type="email"
          value={values.email}
          maxLength={254}
          autoComplete="email"
          onChange={(e) => setValues({ ...values, email: e.target.value })}
          data-testid="profile-email"
        />
      </Field>
      <Button type="submit" variant="primary" disabled={!hydrated || busy || !dirty} data-testid="save-profile">
        {busy ? "Saving…" : "Save profile"}
      </Button>
    </form>
  );
}

export function PasswordForm() {
  const trpc = useTRPC();
  const change = useMutation(trpc.users.changePassword.mutationOptions());
  const hydrated = useHydrated();
  const empty = { current: "", next: "", confirm: "" };
  const [values, setValues] = useState(empty);
  const [error, setError] = useState<string>();
  const [touched, setTouched] = useState(false);
  const tooShort = values.next.length > 0 && values.next.length < MIN_PASSWORD;
  const mismatch = values.confirm.length > 0 && values.confirm !== values.next;
  const currentWrong = error && /current password/i.test(error) ? error : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setTouched(true);
    setError(undefined);
    if (!values.current || values.next.length < MIN_PASSWORD || values.next !== values.confirm) return;
    try {
      const result = await change.mutateAsync({ currentPassword: values.current, newPassword: values.next });
      setValues(empty);
      setTouched(false);
      toast.success(
        result.signedOut > 0
          ? `Password changed. ${result.signedOut} other session${result.signedOut === 1 ? " was" : "s were"} signed out.`
          : "Password changed",
      );
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" noValidate data-testid="password-form">
      {error && !currentWrong && <FormError message={error} />}
      <Field label="Current password" error={currentWrong ?? (touched && !values.current ? "Enter your current password" : undefined)}>
        <Input
          type="password"
          autoComplete="current-password"
          value={values.current}
          onChange={(e) => setValues({ ...values, current: e.target.value })}
          data-testid="current-password"
        />
      </Field>
      <Field
        label="New password"
        hint={`At least ${MIN_PASSWORD} characters.`}
        error={tooShort && touched ? `Use at least ${MIN_PASSWORD} characters` : undefined}
      >
        <Input
          type="password"
          autoComplete="new-password"
          value={values.next}
          maxLength={1024}
          onChange={(e) => setValues({ ...values, next: e.target.value })}
          data-testid="new-password"
        />
      </Field>
      <Field label="Confirm new password" error={mismatch && touched ? "The passwords do not match" : undefined}>
        <Input
          type="password"
          autoComplete="new-password"
          value={values.confirm}
          maxLength={1024}
          onChange={(e) => setValues({ ...values, confirm: e.target.value })}
          data-testid="confirm-password"
        />
      </Field>
      <p className="text-xs text-subtle-foreground">
        Changing your password signs out every other browser. This one stays signed in; personal access tokens keep working.
      </p>
      <Button
        type="submit"
        variant="primary"
        disabled={!hydrated || change.isPending || !values.current || !values.next || !values.confirm}
        data-testid="change-password"
      >
        {change.isPending ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}
