"use client";
/** "New project" button and dialog (projects.create; writers), then the new project's page. */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";

export function NewProjectButton({ repoId, baseHref }: { repoId: string; baseHref: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.projects.create.mutationOptions());
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("Name is required");
    try {
      const project = await create.mutateAsync({ repoId, name: name.trim() });
      toast.success(`Project "${project.name}" created`);
      setOpen(false);
      setName("");
      router.push(`${baseHref}/${project.id}`);
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
        <Button variant="primary" data-testid="new-project">
          New project
        </Button>
      </DialogTrigger>
      <DialogContent title="New project" description="A project groups issues toward one goal; add issues to it when you create them.">
        <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
          <Field label="Name" error={error} required>
            <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus data-testid="project-name" />
          </Field>
          <div className="flex justify-end gap-2 border-t border-border pt-4">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={create.isPending} data-testid="project-save">
              {create.isPending ? "Creating…" : "Create project"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
