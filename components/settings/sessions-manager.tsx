"use client";
/**
 * The signed-in user's browser sessions (users.sessions): when each began and in which browser,
 * with "Sign out" per session and "Sign out everywhere" (users.signOutEverywhere). Ending a session
 * also revokes its service token (docs/security.md "Sessions and service tokens"). Ending the
 * current one signs this browser out, so the page then goes to the sign-in page.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { button, card, cx } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";

export interface SessionRow {
  id: string;
  createdAt: string;
  userAgent: string | null;
  current: boolean;
}

/** A short browser name from a User-Agent ("Chrome on Linux"), or the raw text when unknown. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /Android/.test(userAgent)
      ? "Android"
      : /iPhone|iPad/.test(userAgent)
        ? "iOS"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return browser ? `${browser}${os ? ` on ${os}` : ""}` : userAgent.slice(0, 60);
}

export function SessionsManager({ initialSessions }: { initialSessions: SessionRow[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery({ ...trpc.users.sessions.queryOptions(), initialData: initialSessions });
  const [confirmAll, setConfirmAll] = useState(false);
  const [error, setError] = useState<string>();
  const leave = () => window.location.assign("/signin");
  const revoke = useMutation({
    ...trpc.users.revokeSession.mutationOptions(),
    onSuccess: (_data, vars) =>
      sessions.data.find((s) => s.id === vars.sessionId)?.current
        ? leave()
        : queryClient.invalidateQueries({ queryKey: trpc.users.sessions.queryKey() }),
    onError: (e) => setError(e.message),
  });
  const everywhere = useMutation({
    ...trpc.users.signOutEverywhere.mutationOptions(),
    onSuccess: leave,
    onError: (e) => setError(e.message),
  });

  return (
    <div className="space-y-4">
      <FormError message={error} />
      <ul className={cx(card, "divide-y divide-border")} data-testid="sessions">
        {sessions.data.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="session-row">
            <div className="min-w-0">
              <div className="font-medium text-foreground">
                {describeBrowser(s.userAgent)}
                {s.current && (
                  <span className="ml-2 rounded-full bg-primary-muted px-2 py-0.5 text-xs font-medium text-primary">this browser</span>
                )}
              </div>
              <div className="text-xs text-subtle-foreground">
                Signed in{" "}
                <time dateTime={s.createdAt} title={fullDate(s.createdAt)}>
                  {relativeTime(s.createdAt)}
                </time>
              </div>
            </div>
            <button
              type="button"
              className={button.secondary}
              disabled={revoke.isPending}
              onClick={() => revoke.mutate({ sessionId: s.id })}
            >
              Sign out
            </button>
          </li>
        ))}
        {sessions.data.length === 0 && <li className="px-4 py-3 text-sm text-subtle-foreground">No sessions.</li>}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger-border bg-card px-4 py-3">
        <p className="text-sm text-muted-foreground">
          Sign out of every browser, this one included. Service tokens stop working too; personal access tokens are kept.
        </p>
        <button type="button" className={button.dangerOutline} onClick={() => setConfirmAll(true)} data-testid="sign-out-everywhere">
          Sign out everywhere
        </button>
      </div>
      <ConfirmDialog
        open={confirmAll}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        busy={everywhere.isPending}
        onConfirm={() => everywhere.mutate()}
        onCancel={() => setConfirmAll(false)}
      >
        Every browser signed in to your account, this one included, is signed out and every service token stops working.
      </ConfirmDialog>
    </div>
  );
}
