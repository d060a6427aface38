"use client";
/**
 * The repository header's Fork button with the fork count (docs/pulls.md "Forks"): signed-in users
 * get a dialog to name the fork (default: the repository's name) and land on the new repository;
 * anonymous visitors are sent to sign in. repos.fork: read access to the repository, repo:write.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { toast } from "@/components/ui/toast";

function ForkIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16" fill="currentColor">
      <path d="M5 5.372v.878c0 .414.336.75.75.75h4.5a.75.75 0 0 0 .75-.75v-.878a2.25 2.25 0 1 1 1.5 0v.878a2.25 2.25 0 0 1-2.25 2.25h-1.5v2.128a2.251 2.251 0 1 1-1.5 0V8.5h-1.5A2.25 2.25 0 0 1 3.5 6.25v-.878a2.25 2.25 0 1 1 1.5 0ZM5 3.25a.75.75 0 1 0-1.5 0 .75.75 0 0 0 1.5 0Zm6.75.75a.75.75 0 1 0 0-1.5.75.75 0 0 0 0 1.5Zm-3 8.75a.75.75 0 1 0-1.5 0 .75.75 0 0 0 1.5 0Z" />
    </svg>
  );
}

export function ForkButton({ repoId, name, forkCount, signedIn }: { repoId: string; name: string; forkCount: number; signedIn: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const fork = useMutation(trpc.repos.fork.mutationOptions());
  const [open, setOpen] = useState(false);
  const [forkName, setForkName] = useState(name);
  const [error, setError] = useState<string>();
  const count = (
    <>
      <span className="ml-1 rounded-full bg-muted px-1.5 text-xs tabular-nums text-muted-foreground" data-testid="fork-count">
        {forkCount}
      </span>
      <span className="sr-only">{forkCount === 1 ? " fork" : " forks"}</span>
    </>
  );

  if (!signedIn) {
    return (
      <Button variant="secondary" size="sm" asChild>
        <a href="/signin" data-testid="fork-button">
          <ForkIcon /> Fork {count}
        </a>
      </Button>
    );
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const created = await fork.mutateAsync({ repoId, name: forkName.trim() || undefined });
      toast.success(`Forked to ${created.fullName}`);
      setOpen(false);
      router.push(`/${encodeURIComponent(created.owner)}/${encodeURIComponent(created.name)}`);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" data-testid="fork-button">
          <ForkIcon /> Fork {count}
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Create a fork"
        description="A copy of this repository under your account that shares its history. Open pull requests from it back into this one."
      >
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
          <FormError message={error} />
          <Field label="Repository name" required>
            <Input value={forkName} maxLength={100} onChange={(e) => setForkName(e.target.value)} autoFocus data-testid="fork-name" />
          </Field>
          <div className="flex justify-end gap-2 border-t border-border pt-4">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={fork.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={fork.isPending} data-testid="fork-save">
              {fork.isPending ? "Forking…" : "Create fork"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
