import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { decodeSegment } from "@/components/code/resolve";
import { Progress } from "@/components/planning/progress";
import { IssueRows } from "@/components/planning/issue-rows";
import { AddIssuePicker, RemoveIssueButton, type PlanTarget } from "@/components/planning/plan-controls";
import { Badge } from "@/components/ui/badge";
import { CycleIcon } from "@/components/ui/icons-planning";
import { cycleDay } from "@/components/planning/dates";

type Params = Promise<{ owner: string; repo: string; number: string }>;
/** Issues shown per state on a cycle page. */
const LIMIT = 100;

/** The cycle `number` of the repository (from cycles.list, with counts and timing), or the 404 page. */
const loadCycle = cache(async (owner: string, repo: string, raw: string) => {
  const ctx = await loadIssuesContext(owner, repo);
  const text = decodeSegment(raw);
  const number = /^[1-9]\d{0,6}$/.test(text) ? Number(text) : NaN;
  const cycle = Number.isNaN(number) ? undefined : (await ctx.caller.cycles.list({ repoId: ctx.repo.id })).find((c) => c.number === number);
  if (!cycle) notFound();
  return { ctx, cycle };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, number } = await params;
  const { ctx, cycle } = await loadCycle(owner, repo, number);
  return { title: `Cycle ${cycle.number} · ${ctx.repo.fullName}` };
}

/** /<owner>/<repo>/cycles/<number> (docs/ui.md "Pages"): the cycle's dates, progress and its open and closed issues. */
export default async function CyclePage({ params }: { params: Params }) {
  const { owner, repo, number } = await params;
  const { ctx, cycle } = await loadCycle(owner, repo, number);
  const [open, closed, recent] = await Promise.all([
    ctx.caller.issues.list({ repoId: ctx.repo.id, cycle: cycle.number, state: "open", limit: LIMIT }),
    ctx.caller.issues.list({ repoId: ctx.repo.id, cycle: cycle.number, state: "closed", limit: LIMIT }),
    // writers may add any of the newest open issues that are not in it yet
    ctx.canWrite ? ctx.caller.issues.list({ repoId: ctx.repo.id, state: "open", limit: LIMIT }) : Promise.resolve([]),
  ]);
  const target: PlanTarget = { kind: "cycle", id: cycle.id, label: `cycle ${cycle.number}` };
  const candidates = recent.filter((i) => i.cycleId !== cycle.id).map((i) => ({ number: i.number, title: i.title }));
  const remove = ctx.canWrite
    ? (i: { number: number }) => <RemoveIssueButton repoId={ctx.repo.id} target={target} number={i.number} />
    : undefined;
  const closedCount = cycle.issues.total - cycle.issues.open;
  const more = (shown: number, total: number) =>
    total > shown ? (
      <p className="mt-2 text-xs text-subtle-foreground">
        Showing the newest {shown} of {total}.
      </p>
    ) : null;
  return (
    <IssuesShell repo={ctx.repo} section="cycles">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href={`/${ctx.repo.owner}/${ctx.repo.name}/cycles`} className="text-primary hover:underline">
          Cycles
        </Link>
      </nav>
      <header className="mb-6 space-y-3" data-testid="cycle-header">
        <h1 className="flex min-w-0 flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
          <CycleIcon className="h-5! w-5! text-subtle-foreground" />
          Cycle {cycle.number}
          {cycle.name && <span className="min-w-0 break-words font-normal text-muted-foreground">{cycle.name}</span>}
          <Badge tone={cycle.timing === "current" ? "primary" : "neutral"}>
            {cycle.timing === "current" ? "Current" : cycle.timing === "upcoming" ? "Upcoming" : "Completed"}
          </Badge>
        </h1>
        <p className="text-sm text-muted-foreground">
          <time dateTime={cycle.startsAt}>{cycleDay(cycle.startsAt)}</time> – <time dateTime={cycle.endsAt}>{cycleDay(cycle.endsAt)}</time>
        </p>
        <Progress counts={cycle.issues} label={`Progress of cycle ${cycle.number}`} className="max-w-md" />
        {ctx.canWrite && <AddIssuePicker repoId={ctx.repo.id} target={target} candidates={candidates} />}
      </header>
      <section aria-labelledby="cycle-open" className="mb-6">
        <h2 id="cycle-open" className="mb-2 font-semibold">
          Open <span className="text-sm font-normal text-subtle-foreground">{cycle.issues.open}</span>
        </h2>
        <IssueRows issues={open} owner={ctx.repo.owner} repo={ctx.repo.name} empty="No open issues in this cycle." action={remove} />
        {more(open.length, cycle.issues.open)}
      </section>
      <section aria-labelledby="cycle-closed">
        <h2 id="cycle-closed" className="mb-2 font-semibold">
          Closed <span className="text-sm font-normal text-subtle-foreground">{closedCount}</span>
        </h2>
        <IssueRows issues={closed} owner={ctx.repo.owner} repo={ctx.repo.name} empty="No closed issues yet." action={remove} />
        {more(closed.length, closedCount)}
      </section>
    </IssuesShell>
  );
}
