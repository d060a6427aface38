/** "or" divider plus the GitHub button, only when GitHub OAuth is configured (`enabled`: the page reads the server config). */
import { GithubButton } from "./github-button";
import { twoFactorGate } from "./two-factor-gate";

export function GithubSignIn({ callbackUrl, enabled }: { callbackUrl: string; enabled: boolean }) {
  if (!enabled) return null;
  return (
    <>
      <div className="my-4 flex items-center gap-3 text-xs uppercase tracking-wide text-subtle-foreground">
        <span className="h-px flex-1 bg-accent" />
        or
        <span className="h-px flex-1 bg-accent" />
      </div>
      <GithubButton callbackUrl={twoFactorGate(callbackUrl)} />
    </>
  );
}
