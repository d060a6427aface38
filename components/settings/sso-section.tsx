"use client";
/**
 * Single sign-on on /settings/account (docs/security.md "Single sign-on (OpenID Connect)",
 * "Linking"): the OpenID Connect identities linked to the account (users.externalIdentities.list),
 * each with an Unlink button (refused for the account's last way to sign in), and "Link <name>":
 * POST /api/oidc/link (a link intent in an httpOnly cookie), then signIn("oidc"); the provider's
 * answer comes back here, with `?sso=<reason>` when the link was refused (`linkError`).
 */
import { useState } from "react";
import { signIn } from "next-auth/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/provider";
import { FormError } from "@/components/ui/form-error";
import { Button } from "@/components/ui/button";
import { card, cx } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";
import { twoFactorGate } from "@/components/auth/two-factor-gate";

/** Messages for the `sso` query parameter (server/auth/oidc-provider.ts REFUSAL_PAGE). */
const LINK_ERRORS: Record<string, string> = {
  "link-expired": "linking took too long or was already used; start again",
  "linked-elsewhere": "that identity is already linked to another account",
  "already-linked": "an identity of this provider is already linked to your account; unlink it first",
};

export function SsoSection({ providerName, linkError }: { providerName: string; linkError?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.users.externalIdentities.list.queryOptions());
  const unlink = useMutation(trpc.users.externalIdentities.unlink.mutationOptions());
  const [error, setError] = useState<string | undefined>(linkError ? (LINK_ERRORS[linkError] ?? "linking failed") : undefined);
  const [linking, setLinking] = useState(false);

  async function startLink() {
    setError(undefined);
    setLinking(true);
    const res = await fetch("/api/oidc/link", { method: "POST" }).catch(() => null);
    if (!res?.ok) {
      const body = (await res?.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(body?.error?.message ?? "could not start linking; try again");
      setLinking(false);
      return;
    }
    // linking signs in again: a user with two-factor authentication confirms it on the way back
    await signIn("oidc", { callbackUrl: twoFactorGate("/settings/account#sso") });
  }

  async function onUnlink(id: string) {
    setError(undefined);
    try {
      await unlink.mutateAsync({ id });
      await queryClient.invalidateQueries({ queryKey: trpc.users.externalIdentities.list.queryKey() });
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  const rows = list.data ?? [];
  return (
    <div className="max-w-2xl space-y-4" data-testid="sso-section">
      <p className="text-sm text-muted-foreground">
        Link your {providerName} identity to sign in to this account with it. An identity is never linked by its email: only from here.
      </p>
      <FormError message={error} />
      {rows.length > 0 && (
        <ul className={cx(card, "divide-y divide-border")} data-testid="sso-identities">
          {rows.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="sso-identity">
              <div className="min-w-0 text-sm">
                <div className="truncate font-medium text-foreground">{r.issuer}</div>
                <code className="block truncate font-mono text-xs text-muted-foreground">{r.subject}</code>
                <div className="text-xs text-subtle-foreground">
                  Linked <time dateTime={String(r.createdAt)}>{relativeTime(String(r.createdAt))}</time>
                  {r.lastUsedAt && (
                    <>
                      {" · last used "}
                      <time dateTime={String(r.lastUsedAt)} title={fullDate(String(r.lastUsedAt))}>
                        {relativeTime(String(r.lastUsedAt))}
                      </time>
                    </>
                  )}
                </div>
              </div>
              <Button variant="dangerOutline" size="sm" disabled={unlink.isPending} onClick={() => void onUnlink(r.id)}>
                Unlink
              </Button>
            </li>
          ))}
        </ul>
      )}
      {list.isSuccess && rows.length === 0 && <p className="text-sm text-subtle-foreground">No identity linked.</p>}
      <Button variant="secondary" disabled={linking} onClick={() => void startLink()} data-testid="sso-link">
        {linking ? "Redirecting…" : `Link ${providerName}`}
      </Button>
    </div>
  );
}
