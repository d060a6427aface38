/** "or" divider plus the GitHub button, only when GitHub OAuth is configured (server component). */
import { getConfig } from "@/server/config";
import { GithubButton } from "./github-button";

export function GithubSignIn({ callbackUrl }: { callbackUrl: string }) {
  if (!getConfig().github) return null;
  return (
    <>
      <div className="my-4 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <GithubButton callbackUrl={callbackUrl} />
    </>
  );
}
