/** The open-issue count of the repository header's Issues tab: one COUNT query (issues.counts). */
import { getServerCaller } from "@/server/auth/session";

export async function OpenIssuesCount({ repoId }: { repoId: string }) {
  let n: number;
  try {
    const caller = await getServerCaller();
    n = (await caller.issues.counts({ repoId })).open;
  } catch {
    return null;
  }
  if (n === 0) return null;
  return (
    <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground" data-testid="open-issues-count">
      {n > 999 ? `${Math.floor(n / 1000)}k` : n}
    </span>
  );
}
