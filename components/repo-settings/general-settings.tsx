"use client";
/** Settings → General: the description and the default branch (repos.update). */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { SavedNote } from "./section";
import { useRefresh } from "./use-refresh";

export function GeneralSettings({
  repoId,
  description,
  defaultBranch,
  branches,
  isEmpty,
}: {
  repoId: string;
  description: string | null;
  defaultBranch: string;
  branches: string[];
  isEmpty: boolean;
}) {
  return (
    <div className="space-y-6">
      <DescriptionForm repoId={repoId} description={description} />
      <div className="border-t border-border pt-6">
        <DefaultBranchForm repoId={repoId} defaultBranch={defaultBranch} branches={branches} isEmpty={isEmpty} />
      </div>
    </div>
  );
}

function DescriptionForm({ repoId, description }: { repoId: string; description: string | null }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.repos.update.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [value, setValue] = useState(description ?? "");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const dirty = value.trim() !== (description ?? "");

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await update.mutateAsync({ repoId, description: value.trim() || null });
      setValue(value.trim());
      setSaved(true);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = update.isPending || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" noValidate data-testid="description-form">
      <Field
        label="Description"
        id="repo-description"
        error={error}
        hint="Shown under the repository name and in the About box. Up to 350 characters; leave empty to remove it."
      >
        <Input
          value={value}
          maxLength={350}
          placeholder="A short description of the project"
          onChange={(e) => {
            setValue(e.target.value);
            setSaved(false);
            setError(undefined);
          }}
        />
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={!hydrated || busy || !dirty} data-testid="save-description">
          {busy ? "Saving…" : "Save"}
        </Button>
        {saved && !busy && <SavedNote testId="description-saved">Description saved</SavedNote>}
      </div>
    </form>
  );
}

function DefaultBranchForm({
  repoId,
  defaultBranch,
  branches,
  isEmpty,
}: {
  repoId: string;
  defaultBranch: string;
  branches: string[];
  isEmpty: boolean;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.repos.update.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultBranch);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string | null>(null);
  // the default branch may not have been pushed (only other branches were)
  const missing = !isEmpty && !branches.includes(defaultBranch);
  const options = missing ? [defaultBranch, ...branches] : branches.length > 0 ? branches : [defaultBranch];

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(null);
    try {
      const repo = await update.mutateAsync({ repoId, defaultBranch: value });
      setSaved(repo.defaultBranch);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = update.isPending || refreshing;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" noValidate data-testid="default-branch-form">
      <Field
        label="Default branch"
        id="default-branch"
        error={error}
        hint={
          isEmpty ? (
            <span className="text-warning" data-testid="default-branch-empty-hint">
              This repository is empty, so there is no branch to choose yet. Push one or more branches, then pick the default here.
            </span>
          ) : (
            <>
              The branch shown on the repository page and checked out by <code className="font-mono">git clone</code>.
            </>
          )
        }
      >
        <div className="flex flex-wrap items-center gap-2">
          <NativeSelect
            className="w-auto! max-w-full min-w-48 font-mono"
            value={value}
            disabled={isEmpty || busy}
            onChange={(e) => {
              setValue(e.target.value);
              setSaved(null);
              setError(undefined);
            }}
            data-testid="default-branch-select"
          >
            {options.map((b) => (
              <option key={b} value={b}>
                {b === defaultBranch && missing ? `${b} (not pushed)` : b}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" disabled={!hydrated || isEmpty || busy || value === defaultBranch} data-testid="save-default-branch">
            {busy ? "Updating…" : "Update"}
          </Button>
          {saved && !busy && <SavedNote testId="default-branch-saved">Default branch is now {saved}</SavedNote>}
        </div>
      </Field>
    </form>
  );
}
