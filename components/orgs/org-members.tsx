"use client";
/**
 * Organization settings → Members (docs/orgs.md "Pages"): add by username with a role, change a
 * role, remove (orgs.addMember / setRole / removeMember). The server refuses to leave the
 * organization without an owner; its message is shown on the row.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { NativeSelect } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useRefresh } from "@/components/repo-settings/use-refresh";
import { AddWithRoleForm, USERNAME_FIELD } from "@/components/repo-settings/add-with-role-form";
import type { OrgMemberView } from "@/server/services/orgs/model";

type Role = OrgMemberView["role"];

const ROLES: { value: Role; label: string }[] = [
  { value: "member", label: "Member" },
  { value: "owner", label: "Owner" },
];

/** The Members section: the add form (AddWithRoleForm) and one row per member with its role select and Remove. */
export function OrgMembers({ org, members }: { org: string; members: OrgMemberView[] }) {
  const trpc = useTRPC();
  const add = useMutation(trpc.orgs.addMember.mutationOptions());
  return (
    <div className="space-y-6">
      <AddWithRoleForm
        label="Add a member"
        id="member-username"
        {...USERNAME_FIELD}
        emptyMessage="enter the username of the person to add"
        role={{ label: "Role", id: "member-role", testId: "new-member-role", options: ROLES, defaultValue: "member", width: "9rem" }}
        onAdd={(username, role) => add.mutateAsync({ name: org, username, role })}
        testIds={{ form: "add-member-form", name: "new-member-username", submit: "add-member" }}
      />
      <ul className="divide-y divide-border rounded-md border border-border" data-testid="member-list">
        {members.map((m) => (
          <MemberRow key={`${m.userId}:${m.role}`} org={org} member={m} />
        ))}
      </ul>
    </div>
  );
}

function MemberRow({ org, member: m }: { org: string; member: OrgMemberView }) {
  const trpc = useTRPC();
  const setRole = useMutation(trpc.orgs.setRole.mutationOptions());
  const remove = useMutation(trpc.orgs.removeMember.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);

  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = setRole.isPending || remove.isPending || refreshing;
  return (
    <li className="px-4 py-3" data-testid="member-row" data-username={m.username}>
      <div className="flex flex-wrap items-center gap-3">
        <Avatar username={m.username} size="md" />
        <div className="min-w-0 flex-1 truncate font-medium text-foreground">
          {m.username}
          {m.name && <span className="ml-2 font-normal text-subtle-foreground">{m.name}</span>}
        </div>
        <NativeSelect
          className="w-28!"
          value={m.role}
          disabled={busy}
          aria-label={`Role of ${m.username}`}
          onChange={(e) => run(() => setRole.mutateAsync({ name: org, username: m.username, role: e.target.value as Role }))}
          data-testid="member-role"
        >
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </NativeSelect>
        <Button
          variant="dangerOutline"
          size="sm"
          disabled={busy}
          aria-label={`Remove ${m.username}`}
          onClick={() => setConfirming(true)}
          data-testid="member-remove"
        >
          Remove
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${m.username} from ${org}?`}
        confirmLabel="Remove member"
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void run(async () => {
            try {
              await remove.mutateAsync({ name: org, username: m.username });
            } finally {
              setConfirming(false);
            }
          })
        }
      >
        <p>
          <strong>{m.username}</strong> loses the access the organization gives its members (its base permission
          {m.role === "owner" ? " and owner rights" : ""}). Access given to them on single repositories stays.
        </p>
      </ConfirmDialog>
      {error && (
        <div className="mt-2">
          <FormError message={error} />
        </div>
      )}
    </li>
  );
}
