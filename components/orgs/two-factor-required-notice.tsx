/**
 * The notice on an organization's page for a member without two-factor authentication when the
 * organization requires it (docs/security.md "Organizations requiring two-factor
 * authentication"): its repositories stay hidden from them until they enable it.
 */
import Link from "next/link";
import { AlertIcon } from "@/components/ui/icons";
import { container, cx } from "@/components/ui/styles";

export function TwoFactorRequiredNotice({ org }: { org: string }) {
  return (
    <div className={cx(container, "pt-6")}>
      <div
        role="status"
        className="flex items-start gap-2 rounded-md border border-danger-border bg-danger-muted px-3 py-2 text-sm text-foreground"
        data-testid="org-two-factor-required"
      >
        <AlertIcon className="mt-0.5 text-danger" />
        <span>
          {org} requires two-factor authentication. Until you{" "}
          <Link href="/settings/security" className="font-medium text-primary underline">
            enable it
          </Link>
          , you cannot see or use its private repositories, from the browser, with tokens or over SSH.
        </span>
      </div>
    </div>
  );
}
