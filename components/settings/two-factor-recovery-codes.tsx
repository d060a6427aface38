"use client";
/**
 * Recovery codes shown once (after enabling TOTP or regenerating): the ten codes, a copy button and
 * a download as svc-recovery-codes.txt. They are never shown again (hashed at rest).
 */
import { CopyButton } from "@/components/ui/copy-button";
import { button, card, cx } from "@/components/ui/styles";

export function TwoFactorRecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const textFile = `svc recovery codes — each works once, keep them somewhere safe\n\n${codes.join("\n")}\n`;
  return (
    <div className={cx(card, "space-y-3 p-4")} data-testid="recovery-codes">
      <h3 className="font-semibold text-foreground">Save your recovery codes</h3>
      <p className="text-sm text-muted-foreground">
        If you lose your authenticator app, each of these codes signs you in once. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-foreground" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c} data-testid="recovery-code">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={codes.join("\n")} label="Copy codes" testId="copy-recovery-codes" />
        <a
          className={button.secondary}
          download="svc-recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(textFile)}`}
          data-testid="download-recovery-codes"
        >
          Download
        </a>
        <button type="button" className={button.primary} onClick={onDone} data-testid="recovery-codes-done">
          I have saved them
        </button>
      </div>
    </div>
  );
}
