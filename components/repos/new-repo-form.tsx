"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { cx, label } from "@/components/ui/styles";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { LockIcon, RepoIcon } from "@/components/ui/icons";

/**
 * The New repository form. `owners`: the user first, then the organizations where they may create
 * (docs/orgs.md "Pages"); `owner` is the one selected at first.
 */
export function NewRepoForm({ owner: initialOwner, owners = [initialOwner] }: { owner: string; owners?: string[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.repos.create.mutationOptions());
  const [owner, setOwner] = useState(initialOwner);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  const [defaultBranch, setDefaultBranch] = useState("main");
  const [error, setError] = useState<string>();
  const [navigating, setNavigating] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) {
      setError("repository name is required");
      return;
    }
    try {
      const repo = await create.mutateAsync({
        owner,
        name: name.trim(),
        description: description.trim() || undefined,
        isPrivate,
        defaultBranch: defaultBranch.trim() || undefined,
      });
      setNavigating(true);
      router.push(`/${repo.owner}/${repo.name}`);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = create.isPending || navigating;
  const radio = (checked: boolean) =>
    cx(
      "flex cursor-pointer items-start gap-3 rounded-md border p-3",
      checked ? "border-primary bg-primary-muted/50 ring-1 ring-ring" : "border-border hover:bg-muted",
    );

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-6" noValidate data-testid="new-repo-form">
      <FormError message={error} />
      <div className="flex flex-wrap items-end gap-2">
        {owners.length > 1 ? (
          <Field label="Owner" id="repo-owner">
            <NativeSelect name="owner" value={owner} onChange={(e) => setOwner(e.target.value)} data-testid="new-repo-owner">
              {owners.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </NativeSelect>
          </Field>
        ) : (
          <div>
            <span className={label}>Owner</span>
            <div className="mt-1 rounded-md border border-border bg-muted px-3 py-1.5 text-sm text-muted-foreground">{owner}</div>
          </div>
        )}
        <span className="pb-1.5 text-lg text-subtle-foreground">/</span>
        <Field
          label="Repository name"
          id="repo-name"
          className="min-w-48 flex-1"
          hint="Letters, digits, '.', '-' and '_'; up to 100 characters."
        >
          <Input name="name" autoFocus autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} placeholder="my-project" />
        </Field>
      </div>
      <Field
        label={
          <>
            Description <span className="font-normal text-subtle-foreground">(optional)</span>
          </>
        }
        id="repo-description"
      >
        <Input name="description" value={description} maxLength={350} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <fieldset className="space-y-2">
        <legend className={label}>Visibility</legend>
        <label className={radio(!isPrivate)}>
          <input
            type="radio"
            name="visibility"
            value="public"
            className="mt-1 accent-primary"
            checked={!isPrivate}
            onChange={() => setIsPrivate(false)}
          />
          <span>
            <span className="flex items-center gap-1.5 text-sm font-medium">
              <RepoIcon /> Public
            </span>
            <span className="block text-xs text-muted-foreground">Anyone can see and clone this repository. You choose who can push.</span>
          </span>
        </label>
        <label className={radio(isPrivate)}>
          <input
            type="radio"
            name="visibility"
            value="private"
            className="mt-1 accent-primary"
            checked={isPrivate}
            onChange={() => setIsPrivate(true)}
          />
          <span>
            <span className="flex items-center gap-1.5 text-sm font-medium">
              <LockIcon /> Private
            </span>
            <span className="block text-xs text-muted-foreground">Only you and collaborators can see this repository.</span>
          </span>
        </label>
      </fieldset>
      <Field label="Default branch" id="repo-branch" className="max-w-xs">
        <Input
          name="defaultBranch"
          autoComplete="off"
          className="font-mono"
          value={defaultBranch}
          onChange={(e) => setDefaultBranch(e.target.value)}
        />
      </Field>
      <div className="border-t border-border pt-4">
        <Button type="submit" variant="primary" disabled={busy || !hydrated} data-testid="create-repo-submit">
          {busy ? "Creating…" : "Create repository"}
        </Button>
      </div>
    </form>
  );
}
