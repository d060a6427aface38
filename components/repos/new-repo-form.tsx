"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { button, cx, hint, input, label } from "@/components/ui/styles";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { LockIcon, RepoIcon } from "@/components/ui/icons";

export function NewRepoForm({ owner }: { owner: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.repos.create.mutationOptions());
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
    cx("flex cursor-pointer items-start gap-3 rounded-md border p-3", checked ? "border-emerald-500 bg-emerald-50/50 ring-1 ring-emerald-500" : "border-slate-200 hover:bg-slate-50");

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-6" noValidate data-testid="new-repo-form">
      <FormError message={error} />
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <span className={label}>Owner</span>
          <div className="mt-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-1.5 text-sm text-slate-700">{owner}</div>
        </div>
        <span className="pb-1.5 text-lg text-slate-400">/</span>
        <div className="min-w-48 flex-1">
          <label htmlFor="repo-name" className={label}>
            Repository name
          </label>
          <input id="repo-name" name="name" autoFocus autoComplete="off" className={cx(input, "mt-1")} value={name} onChange={(e) => setName(e.target.value)} placeholder="my-project" />
        </div>
      </div>
      <p className={cx(hint, "-mt-4")}>Letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;; up to 100 characters.</p>
      <div>
        <label htmlFor="repo-description" className={label}>
          Description <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input id="repo-description" name="description" className={cx(input, "mt-1")} value={description} maxLength={350} onChange={(e) => setDescription(e.target.value)} />
      </div>
      <fieldset className="space-y-2">
        <legend className={label}>Visibility</legend>
        <label className={radio(!isPrivate)}>
          <input type="radio" name="visibility" value="public" className="mt-1 accent-emerald-600" checked={!isPrivate} onChange={() => setIsPrivate(false)} />
          <span>
            <span className="flex items-center gap-1.5 text-sm font-medium">
              <RepoIcon /> Public
            </span>
            <span className="block text-xs text-slate-600">Anyone can see and clone this repository. You choose who can push.</span>
          </span>
        </label>
        <label className={radio(isPrivate)}>
          <input type="radio" name="visibility" value="private" className="mt-1 accent-emerald-600" checked={isPrivate} onChange={() => setIsPrivate(true)} />
          <span>
            <span className="flex items-center gap-1.5 text-sm font-medium">
              <LockIcon /> Private
            </span>
            <span className="block text-xs text-slate-600">Only you and collaborators can see this repository.</span>
          </span>
        </label>
      </fieldset>
      <div className="max-w-xs">
        <label htmlFor="repo-branch" className={label}>
          Default branch
        </label>
        <input id="repo-branch" name="defaultBranch" autoComplete="off" className={cx(input, "mt-1 font-mono")} value={defaultBranch} onChange={(e) => setDefaultBranch(e.target.value)} />
      </div>
      <div className="border-t border-slate-200 pt-4">
        <button type="submit" className={button.primary} disabled={busy || !hydrated} data-testid="create-repo-submit">
          {busy ? "Creating…" : "Create repository"}
        </button>
      </div>
    </form>
  );
}
