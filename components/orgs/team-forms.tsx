"use client";
/**
 * Organization teams, the owners' controls (docs/orgs.md "Teams"): create a team
 * (teams.create), add and remove members (teams.addMember / removeMember), grant and remove
 * repositories (teams.addRepo / removeRepo), delete the team (teams.delete). Errors from the
 * server (not an organization member, unknown repository…) are shown next to the form.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useRefresh } from "@/components/repo-settings/use-refresh";
import { AddWithRoleForm, USERNAME_FIELD } from "@/components/repo-settings/add-with-role-form";
import type { TeamPermission } from "@/server/services/repos/grants";

const PERMISSIONS: { value: TeamPermission; label: string }[] = [
  { value: "read", label: "Read" },
  { value: "write", label: "Write" },
  { value: "admin", label: "Admin" },
];

/** Runs a mutation, then refreshes the page's server data; keeps the error message. */
function useAction() {
  const { refresh, refreshing } = useRefresh();
  const [error, setError] = useState<string>();
  async function run(action: () => Promise<unknown>): Promise<boolean> {
    setError(undefined);
    try {
      await action();
      refresh();
      return true;
    } catch (err) {
      setError(errorMessage(err));
      return false;
    }
  }
  return { run, error, refreshing };
}

/** The New team form of /organizations/<org>/teams: name, description, default permission; opens the new team. */
export function CreateTeamForm({ org }: { org: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const create = useMutation(trpc.teams.create.mutationOptions());
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [permission, setPermission] = useState<TeamPermission>("read");
  const [error, setError] = useState<string>();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("enter the team's name");
    try {
      const team = await create.mutateAsync({ org, name: name.trim(), description: description.trim() || undefined, permission });
      router.push(`/organizations/${encodeURIComponent(org)}/teams/${encodeURIComponent(team.slug)}`);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-3" data-testid="create-team-form">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_9rem] sm:items-start">
        <Field label="Team name" id="team-name" error={error}>
          <Input value={name} maxLength={100} autoComplete="off" onChange={(e) => setName(e.target.value)} data-testid="team-name" />
        </Field>
        <Field label="Default permission" id="team-permission">
          <NativeSelect value={permission} onChange={(e) => setPermission(e.target.value as TeamPermission)} data-testid="team-permission">
            {PERMISSIONS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field label="Description (optional)" id="team-description">
        <Input value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} data-testid="team-description" />
      </Field>
      <Button type="submit" variant="primary" disabled={!hydrated || create.isPending} data-testid="create-team">
        {create.isPending ? "Creating…" : "Create team"}
      </Button>
    </form>
  );
}

/** Add a member (an organization member's username) to team `slug`. */
export function AddTeamMemberForm({ org, slug }: { org: string; slug: string }) {
  const trpc = useTRPC();
  const add = useMutation(trpc.teams.addMember.mutationOptions());
  return (
    <AddWithRoleForm
      label="Add a member"
      id="team-member-username"
      {...USERNAME_FIELD}
      emptyMessage="enter the username of an organization member"
      onAdd={(username) => add.mutateAsync({ org, slug, username })}
      testIds={{ form: "add-team-member-form", name: "team-member-username", submit: "add-team-member" }}
    />
  );
}

/** Grant team `slug` a permission on one of the organization's repositories (by name). */
export function AddTeamRepoForm({ org, slug, defaultPermission }: { org: string; slug: string; defaultPermission: TeamPermission }) {
  const trpc = useTRPC();
  const add = useMutation(trpc.teams.addRepo.mutationOptions());
  return (
    <AddWithRoleForm
      label="Add a repository"
      id="team-repo-name"
      placeholder="repository"
      maxLength={100}
      emptyMessage="enter the name of one of the organization's repositories"
      normalize={(s) => s.replace(new RegExp(`^${org}/`, "i"), "")}
      role={{
        label: "Permission",
        id: "team-repo-permission",
        testId: "team-repo-permission",
        options: PERMISSIONS,
        defaultValue: defaultPermission,
        width: "8rem",
      }}
      onAdd={(repo, permission) => add.mutateAsync({ org, slug, repo, permission })}
      testIds={{ form: "add-team-repo-form", name: "team-repo-name", submit: "add-team-repo" }}
    />
  );
}

/** A Remove button for a member (`username`) or a repository (`repo`) of team `slug`. */
export function TeamRemoveButton({ org, slug, username, repo }: { org: string; slug: string; username?: string; repo?: string }) {
  const trpc = useTRPC();
  const removeMember = useMutation(trpc.teams.removeMember.mutationOptions());
  const removeRepo = useMutation(trpc.teams.removeRepo.mutationOptions());
  const { run, error, refreshing } = useAction();
  const busy = removeMember.isPending || removeRepo.isPending || refreshing;
  const what = username ?? `${org}/${repo}`;
  return (
    <span className="flex items-center gap-2">
      {error && <FormError message={error} />}
      <Button
        variant="dangerOutline"
        size="sm"
        disabled={busy}
        aria-label={`Remove ${what} from the team`}
        onClick={() =>
          run(() => (username ? removeMember.mutateAsync({ org, slug, username }) : removeRepo.mutateAsync({ org, slug, repo: repo! })))
        }
        data-testid={username ? "team-member-remove" : "team-repo-remove"}
      >
        Remove
      </Button>
    </span>
  );
}

/** Deletes team `slug` after a confirmation (ConfirmDialog), then opens the organization's teams. */
export function DeleteTeamButton({ org, slug }: { org: string; slug: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const del = useMutation(trpc.teams.delete.mutationOptions());
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  async function onConfirm() {
    try {
      await del.mutateAsync({ org, slug });
      router.push(`/organizations/${encodeURIComponent(org)}/teams`);
    } catch (err) {
      setOpen(false);
      setError(errorMessage(err));
    }
  }
  return (
    <span className="flex items-center gap-2">
      {error && <FormError message={error} />}
      <Button variant="dangerOutline" size="sm" onClick={() => setOpen(true)} data-testid="team-delete">
        Delete team
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete team ${org}/${slug}?`}
        confirmLabel="Delete team"
        busy={del.isPending}
        onConfirm={onConfirm}
        onCancel={() => setOpen(false)}
      >
        <p>Its members lose the access it grants, and its review requests are removed.</p>
      </ConfirmDialog>
    </span>
  );
}
