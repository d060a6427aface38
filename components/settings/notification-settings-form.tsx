"use client";
/**
 * /settings/notifications form (docs/notifications-email.md "Settings"): email on or off, one
 * checkbox per reason (checked = emailed; unchecked reasons are stored as muted), and the daily
 * digest → users.updateNotificationSettings. Editable whether or not this server sends email.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { NotificationSettingsView } from "@/server/services/users/notification-settings";

type Reason = NotificationSettingsView["reasons"][number]["id"];

export function NotificationSettingsForm({ initial }: { initial: NotificationSettingsView }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.users.updateNotificationSettings.mutationOptions());
  const hydrated = useHydrated();
  const [saved, setSaved] = useState(initial);
  const [email, setEmail] = useState(initial.email);
  const [muted, setMuted] = useState<Set<Reason>>(new Set(initial.mutedReasons));
  const [digest, setDigest] = useState(initial.dailyDigest);
  const [error, setError] = useState<string>();
  const dirty =
    email !== saved.email ||
    digest !== saved.dailyDigest ||
    muted.size !== saved.mutedReasons.length ||
    saved.mutedReasons.some((r) => !muted.has(r));

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const next = await update.mutateAsync({ email, dailyDigest: digest, mutedReasons: [...muted] });
      setSaved(next);
      setMuted(new Set(next.mutedReasons));
      toast.success("Notification settings saved");
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  function toggleReason(id: Reason, emailed: boolean) {
    setMuted((s) => {
      const n = new Set(s);
      if (emailed) n.delete(id);
      else n.add(id);
      return n;
    });
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-5" noValidate data-testid="notification-settings-form">
      {error && <FormError message={error} />}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-primary"
          checked={email}
          onChange={(e) => setEmail(e.target.checked)}
          data-testid="notify-email"
        />
        <span>
          <span className="font-medium text-foreground">Email me notifications</span>
          <span className="block text-xs text-subtle-foreground">Off: notifications stay in svc only.</span>
        </span>
      </label>
      <fieldset className="space-y-2" disabled={!email} aria-describedby="notify-reasons-hint">
        <legend className="text-sm font-medium text-foreground">Email me when</legend>
        <p id="notify-reasons-hint" className="text-xs text-subtle-foreground">
          Unchecked reasons still show up in your notifications, but are not emailed.
        </p>
        {initial.reasons.map((r) => (
          <label key={r.id} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 accent-primary"
              checked={!muted.has(r.id)}
              onChange={(e) => toggleReason(r.id, e.target.checked)}
              data-testid={`notify-reason-${r.id}`}
            />
            <span>
              {r.label}
              <span className="block text-xs text-subtle-foreground">{r.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-primary"
          checked={digest}
          disabled={!email}
          onChange={(e) => setDigest(e.target.checked)}
          data-testid="notify-digest"
        />
        <span>
          <span className="font-medium text-foreground">Daily digest</span>
          <span className="block text-xs text-subtle-foreground">One email a day gathering everything, instead of an email per event.</span>
        </span>
      </label>
      <Button type="submit" variant="primary" disabled={!hydrated || update.isPending || !dirty} data-testid="save-notification-settings">
        {update.isPending ? "Saving…" : "Save notification settings"}
      </Button>
    </form>
  );
}
