"use client";
/**
 * Settings → Collaborators: list with role and date added, add by username, change a role
 * (repos.addCollaborator upserts), remove after a confirmation (repos.removeCollaborator).
 */
import { useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { badge, cx, hint } from "@/components/ui/styles";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/input";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { fullDate, shortDate } from "@/components/ui/format";
import { SavedNote } from "./section";
import { useRefresh } from "./use-refresh";
import { useConfirmRemove } from "./use-confirm-remove";
import { AddWithRoleForm, USERNAME_FIELD } from "./add-with-role-form";

export type Role = "read" | "write" | "admin";

export interface CollaboratorRecord {
  userId: string;
  username: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

const ROLES: { value: Role; label: string; description: string }[] = [
  { value: "read", label: "Read", description: "view and clone, also when the repository is private" },
  { value: "write", label: "Write", description: "read, and push to every branch" },
  { value: "admin", label: "Admin", description: "write, and change these settings, collaborators included" },
];

export function CollaboratorsSettings({
  repoId,
  owner,
  isPrivate,
  collaborators,
}: {
  repoId: string;
  owner: string;
  isPrivate: boolean;
  collaborators: CollaboratorRecord[];
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.repos.removeCollaborator.mutationOptions());
  const removal = useConfirmRemove((c: CollaboratorRecord) => remove.mutateAsync({ repoId, username: c.username }));
  const removing = removal.target;

  return (
    <div className="space-y-6">
      <AddCollaboratorForm repoId={repoId} existing={collaborators} />

      <div>
        <h3 className="mb-2 text-sm font-semibold text-foreground">People with access</h3>
        <ul className="divide-y divide-border rounded-md border border-border" data-testid="collaborator-list">
          <li className="flex items-center gap-3 px-4 py-3">
            <Avatar username={owner} size="md" />
            <div className="min-w-0 flex-1">
              <span className="font-medium text-foreground">{owner}</span>
              <span className={cx(badge, "ml-2 border-input text-muted-foreground")}>Owner</span>
            </div>
            <span className="text-sm text-subtle-foreground">Admin</span>
          </li>
          {collaborators.map((c) => (
            // keyed by role too: a changed role from the server resets the row's select
            <CollaboratorRow
              key={`${c.userId}:${c.role}`}
              repoId={repoId}
              collaborator={c}
              busy={removal.busy && (removing === null || removing.userId === c.userId)}
              onRemove={() => removal.ask(c)}
            />
          ))}
        </ul>
        {collaborators.length === 0 && (
          <p className="mt-3 text-sm text-muted-foreground" data-testid="no-collaborators">
            No collaborators yet.{" "}
            {isPrivate ? "Only you can see and push to this repository." : "Everyone can read this repository; only you can push to it."}
          </p>
        )}
      </div>

      <ConfirmDialog {...removal.dialog} title="Remove collaborator?" confirmLabel="Remove">
        <p>
          <strong>{removing?.username}</strong> will lose their <strong>{removing?.role}</strong> access
          {isPrivate ? " and will no longer see this private repository." : "; the repository stays readable for them as it is public."}
        </p>
      </ConfirmDialog>
    </div>
  );
}

function AddCollaboratorForm({ repoId, existing }: { repoId: string; existing: CollaboratorRecord[] }) {
  const trpc = useTRPC();
  const add = useMutation(trpc.repos.addCollaborator.mutationOptions());
  const [done, setDone] = useState<string | null>(null);

  async function onAdd(username: string, role: Role) {
    const already = existing.find((c) => c.username.toLowerCase() === username.toLowerCase());
    const c = await add.mutateAsync({ repoId, username, role });
    setDone(already ? `${c.username} now has ${c.role} access` : `Added ${c.username} with ${c.role} access`);
  }

  return (
    <AddWithRoleForm
      label="Add a collaborator"
      id="collaborator-username"
      {...USERNAME_FIELD}
      emptyMessage="enter the username of the person to add"
      role={{
        label: "Role",
        id: "collaborator-role",
        testId: "new-collaborator-role",
        options: ROLES,
        defaultValue: "write",
        width: "10rem",
      }}
      onAdd={onAdd}
      onEdit={() => setDone(null)}
      footer={(busy) => (
        <>
          {done && !busy && <SavedNote testId="collaborator-added">{done}</SavedNote>}
          <ul className={cx(hint, "space-y-0.5")}>
            {ROLES.map((r) => (
              <li key={r.value}>
                <span className="font-medium text-muted-foreground">{r.label}</span>: {r.description}
              </li>
            ))}
          </ul>
        </>
      )}
      testIds={{ form: "add-collaborator-form", name: "new-collaborator-username", submit: "add-collaborator" }}
    />
  );
}

function CollaboratorRow({
  repoId,
  collaborator: c,
  busy,
  onRemove,
}: {
  repoId: string;
  collaborator: CollaboratorRecord;
  busy: boolean;
  onRemove: () => void;
}) {
  const trpc = useTRPC();
  const change = useMutation(trpc.repos.addCollaborator.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const [role, setRole] = useState<Role>(c.role);
  const [error, setError] = useState<string>();

  async function onChange(next: Role) {
    const previous = role;
    setRole(next);
    setError(undefined);
    try {
      await change.mutateAsync({ repoId, username: c.username, role: next });
      refresh();
    } catch (err) {
      setRole(previous);
      setError(errorMessage(err));
    }
  }

  const pending = change.isPending || refreshing;
  return (
    <li className="px-4 py-3" data-testid="collaborator-row" data-username={c.username}>
      <div className="flex flex-wrap items-center gap-3">
        <Avatar username={c.username} size="md" />
        <div className="min-w-0 flex-1">
          <div className="truncate font-medium text-foreground" data-testid="collaborator-username">
            {c.username}
            {c.name && <span className="ml-2 font-normal text-subtle-foreground">{c.name}</span>}
          </div>
          <div className="whitespace-nowrap text-xs text-subtle-foreground" title={fullDate(c.createdAt)}>
            Added {shortDate(c.createdAt)}
          </div>
        </div>
        <div className="flex w-full items-center gap-2 pl-11 sm:w-auto sm:pl-0">
          <NativeSelect
            className="w-28!"
            value={role}
            disabled={pending || busy}
            aria-label={`Role of ${c.username}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `role-error-${c.userId}` : undefined}
            onChange={(e) => void onChange(e.target.value as Role)}
            data-testid="collaborator-role"
          >
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </NativeSelect>
          <Button
            type="button"
            variant="dangerOutline"
            className="px-2.5!"
            disabled={pending || busy}
            onClick={onRemove}
            data-testid="remove-collaborator"
          >
            Remove
          </Button>
        </div>
      </div>
      {error && (
        <div className="mt-2" id={`role-error-${c.userId}`}>
          <FormError message={error} />
        </div>
      )}
    </li>
  );
}
