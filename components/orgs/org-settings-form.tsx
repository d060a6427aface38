"use client";
/**
 * Organization settings → General (docs/orgs.md "Pages"): display name, the base permission of
 * members (none | read | write), whether members may create repositories and the token policy
 * (personal access tokens used on its repositories must expire within N days; docs/orgs.md
 * "Token policy") and the two-factor requirement (docs/security.md "Organizations requiring
 * two-factor authentication") (orgs.update).
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { SavedNote } from "@/components/repo-settings/section";
import { useRefresh } from "@/components/repo-settings/use-refresh";
import type { OrgView } from "@/server/services/orgs/model";

type Base = OrgView["basePermission"];
const BASES: { value: Base; label: string }[] = [
  { value: "none", label: "None: members see only repositories they are given" },
  { value: "read", label: "Read: members can read every repository" },
  { value: "write", label: "Write: members can push to every repository" },
];

export function OrgSettingsForm({ org }: { org: OrgView }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.orgs.update.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [displayName, setDisplayName] = useState(org.displayName ?? "");
  const [base, setBase] = useState<Base>(org.basePermission);
  const [membersCreate, setMembersCreate] = useState(org.membersCanCreateRepos);
  const [requireExpiry, setRequireExpiry] = useState(org.tokenMaxDays !== null);
  const [maxDays, setMaxDays] = useState(String(org.tokenMaxDays ?? 30));
  const [requireTwoFactor, setRequireTwoFactor] = useState(org.requireTwoFactor);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    const days = Number(maxDays);
    if (requireExpiry && (!Number.isInteger(days) || days < 1 || days > 366)) {
      setError("Token lifetime must be a whole number of days from 1 to 366");
      return;
    }
    try {
      await update.mutateAsync({
        name: org.name,
        displayName: displayName.trim(),
        basePermission: base,
        membersCanCreateRepos: membersCreate,
        tokenMaxDays: requireExpiry ? days : null,
        requireTwoFactor,
      });
      setSaved(true);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = update.isPending || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-5" noValidate data-testid="org-settings-form">
      <FormError message={error} />
      <Field label="Display name" id="org-display-name">
        <Input value={displayName} maxLength={100} onChange={(e) => setDisplayName(e.target.value)} />
      </Field>
      <Field label="Base permission of members" id="org-base-permission" hint="Owners are admins of every repository.">
        <NativeSelect value={base} onChange={(e) => setBase(e.target.value as Base)} data-testid="org-base-permission">
          {BASES.map((b) => (
            <option key={b.value} value={b.value}>
              {b.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="accent-primary"
          checked={membersCreate}
          onChange={(e) => setMembersCreate(e.target.checked)}
          data-testid="org-members-create"
        />
        Members can create repositories
      </label>
      <fieldset className="space-y-2" data-testid="org-token-policy">
        <legend className="text-sm font-medium text-foreground">Personal access tokens</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="accent-primary"
            checked={requireExpiry}
            onChange={(e) => setRequireExpiry(e.target.checked)}
            data-testid="org-token-policy-on"
          />
          Require tokens used on this organization&apos;s repositories to expire
        </label>
        {requireExpiry && (
          <Field
            label="Maximum token lifetime (days)"
            id="org-token-max-days"
            hint="Tokens without an expiry, or made to live longer, are refused (403) on its repositories. Browser sessions are not affected."
          >
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={366}
              className="w-32"
              value={maxDays}
              onChange={(e) => setMaxDays(e.target.value)}
              data-testid="org-token-max-days"
            />
          </Field>
        )}
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-primary"
          checked={requireTwoFactor}
          onChange={(e) => setRequireTwoFactor(e.target.checked)}
          data-testid="org-require-two-factor"
        />
        <span>
          Require two-factor authentication
          <span className="block text-xs text-subtle-foreground">
            Members and collaborators without it lose access to this organization&apos;s repositories (public ones stay readable) until they
            enable it, with every credential: browser, tokens and SSH keys. You need it on your own account first.
          </span>
        </span>
      </label>
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={!hydrated || busy} data-testid="org-settings-save">
          {busy ? "Saving…" : "Save"}
        </Button>
        {saved && !busy && <SavedNote testId="org-settings-saved">Saved</SavedNote>}
      </div>
    </form>
  );
}
