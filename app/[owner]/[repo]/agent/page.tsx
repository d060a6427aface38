import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { repoUrl } from "@/components/code/urls";
import { safeCallbackUrl } from "@/components/auth/safe-callback";
import { AgentPage } from "@/components/agent/agent-page";
import type { Selection } from "@/components/agent/context-picker";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";

type Params = Promise<{ owner: string; repo: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Agent · ${r.fullName}` };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** `?file=<path>&start=<n>&end=<n>` (from the code browser's "Ask the agent about these lines") → the selection, else null. */
function selectionOf(search: Record<string, string | string[] | undefined>): Selection | null {
  const file = one(search.file).slice(0, 4096);
  const a = Number(one(search.start));
  const b = Number(one(search.end) || one(search.start));
  if (!file || !Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < 1 || a > 10_000_000 || b > 10_000_000) return null;
  return { file, startLine: Math.min(a, b), endLine: Math.max(a, b) };
}

/**
 * /<owner>/<repo>/agent (docs/agent.md): the coding agent, for signed-in readers of the
 * repository (signed out: sign in and come back here). Sessions, status and modes are rendered
 * on the server; the page (components/agent/agent-page.tsx) does the rest.
 */
export default async function Page({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ owner, repo }, search] = await Promise.all([params, searchParams]);
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  if (!(await getCurrentActor())) {
    const here = `${repoUrl(r.owner, r.name)}/agent`;
    const back = safeCallbackUrl((await headers()).get("x-svc-path") ?? here);
    redirect(`/signin?callbackUrl=${encodeURIComponent(back.startsWith(here) ? back : here)}`);
  }
  const caller = await getServerCaller();
  const [status, modes, sessions] = await Promise.all([
    caller.agent.status({ repoId: r.id }),
    caller.agent.getModes(),
    caller.agent.listSessions({ repoId: r.id, limit: 100 }),
  ]);
  const wanted = one(search.session);
  return (
    <AgentPage
      repo={{
        id: r.id,
        owner: r.owner,
        name: r.name,
        defaultBranch: r.defaultBranch,
        isEmpty: r.isEmpty,
        canWrite: r.permission === "write" || r.permission === "admin",
      }}
      status={{
        available: status.available,
        message: status.message,
        env: status.env,
        defaultProvider: status.defaultProvider,
        defaultModel: status.defaultModel,
        source: status.source,
      }}
      modes={modes}
      sessions={sessions}
      initialSessionId={sessions.some((s) => s.id === wanted) ? wanted : null}
      initialSelection={selectionOf(search)}
    />
  );
}
