/** The open-issue count of the repository header's Issues tab: one list query of up to 100 ids ("99+" beyond). */
import { getServerCaller } from "@/server/auth/session";

export async function OpenIssuesCount({ repoId }: { repoId: string }) {
  let n: number;
  try {
    const caller = await getServerCaller();
    n = (await caller.issues.list({ repoId, state: "open", limit: 100 })).length;
  } catch {
    return null;
  }
  if (n === 0) return null;
  return (
    <span className="rounded-full bg-slate-200 px-1.5 text-xs font-medium text-slate-700" data-testid="open-issues-count">
      {n > 99 ? "99+" : n}
    </span>
  );
}
