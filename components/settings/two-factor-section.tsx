"use client";
/**
 * The "Two-factor authentication" section of /settings/security (docs/security.md "Two-factor
 * authentication"): off → enable (two-factor-setup.tsx); on → status, recovery codes left,
 * regenerate and disable (two-factor-manage.tsx); fresh recovery codes are shown once
 * (two-factor-recovery-codes.tsx).
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import type { TwoFactorStatus } from "@/server/services/two-factor/two-factor-status";
import { TwoFactorSetup } from "./two-factor-setup";
import { TwoFactorManage } from "./two-factor-manage";
import { TwoFactorRecoveryCodes } from "./two-factor-recovery-codes";

export function TwoFactorSection({ initialStatus }: { initialStatus: TwoFactorStatus }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({ ...trpc.users.twoFactor.status.queryOptions(), initialData: initialStatus });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [setupKey, setSetupKey] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.twoFactor.status.queryKey() });
  const s = status.data;
  return (
    <section aria-labelledby="two-factor-heading" className="space-y-4" data-testid="two-factor-section">
      <div>
        <h2 id="two-factor-heading" className="text-lg font-semibold text-foreground">
          Two-factor authentication
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          After your password (or GitHub), signing in asks for a code from an authenticator app. Personal access tokens and SSH keys are not
          affected.
        </p>
      </div>
      {codes ? (
        <TwoFactorRecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : s.totp ? (
        <>
          <p className="text-sm text-foreground" data-testid="two-factor-status">
            <span className="mr-2 rounded-full bg-primary-muted px-2 py-0.5 text-xs font-medium text-primary">Enabled</span>
            Authenticator app · {s.recoveryCodesLeft} recovery {s.recoveryCodesLeft === 1 ? "code" : "codes"} left
          </p>
          <TwoFactorManage onCodes={setCodes} onDisabled={() => void refresh()} />
        </>
      ) : (
        <TwoFactorSetup key={setupKey} onEnabled={(c) => (setCodes(c), void refresh())} onCancel={() => setSetupKey((k) => k + 1)} />
      )}
    </section>
  );
}
