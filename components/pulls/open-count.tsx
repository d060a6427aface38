/** The open pull request count of the repository header's Pull requests tab: one COUNT query (pulls.counts). */
import { getServerCaller } from "@/server/auth/session";

export async function OpenPullsCount({ repoId }: { repoId: string }) {
  let n: number;
  try {
    const caller = await getServerCaller();
    n = (await caller.pulls.counts({ repoId })).open;
  } catch {
    return null;
  }
  if (n === 0) return null;
  return (
    <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground" data-testid="open-pulls-count">
      {n > 999 ? `${Math.floor(n / 1000)}k` : n}
    </span>
  );
}
