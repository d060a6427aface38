"use client";
/** The New organization form (docs/orgs.md "Pages"): orgs.create, then the organization's page. */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";

export function NewOrgForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.orgs.create.mutationOptions());
  const [name, setName] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [error, setError] = useState<string>();
  const [navigating, setNavigating] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) {
      setError("organization name is required");
      return;
    }
    try {
      const org = await create.mutateAsync({ name: name.trim(), displayName: displayName.trim() || undefined });
      setNavigating(true);
      router.push(`/${org.name}`);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = create.isPending || navigating;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-6" noValidate data-testid="new-org-form">
      <FormError message={error} />
      <Field label="Organization name" id="org-name" hint="Its URL: letters, digits and single hyphens; shared with usernames.">
        <Input name="name" autoFocus autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} placeholder="acme" />
      </Field>
      <Field
        label={
          <>
            Display name <span className="font-normal text-subtle-foreground">(optional)</span>
          </>
        }
        id="org-display-name"
      >
        <Input name="displayName" value={displayName} maxLength={100} onChange={(e) => setDisplayName(e.target.value)} />
      </Field>
      <div className="border-t border-border pt-4">
        <Button type="submit" variant="primary" disabled={busy || !hydrated} data-testid="create-org-submit">
          {busy ? "Creating…" : "Create organization"}
        </Button>
      </div>
    </form>
  );
}
