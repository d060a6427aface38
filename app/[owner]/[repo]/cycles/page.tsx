import type { Metadata } from "next";
import Link from "next/link";
import { loadIssuesContext } from "@/components/issues/data";
import { IssuesShell } from "@/components/issues/shell";
import { Progress } from "@/components/planning/progress";
import { NewCycleButton } from "@/components/planning/new-cycle";
import { Badge } from "@/components/ui/badge";
import { CycleIcon } from "@/components/ui/icons-planning";
import { card, cx } from "@/components/ui/styles";
import { cycleDay as day, daysLeft } from "@/components/planning/dates";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Cycles · ${r.fullName}` };
}

/**
 * /<owner>/<repo>/cycles (docs/ui.md "Pages"): cycles with dates and exact progress (cycles.list),
 * the current one highlighted; New cycle for writers.
 */
export default async function CyclesPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  const cycles = await ctx.caller.cycles.list({ repoId: ctx.repo.id });
  const last = cycles.reduce<string | null>((max, c) => (!max || c.endsAt > max ? c.endsAt : max), null);
  // the next cycle starts the day after the latest one ends (or today)
  const next = last && new Date(last).getTime() > Date.now() ? new Date(new Date(last).getTime() + 1) : new Date();
  const defaultStart = next.toISOString().slice(0, 10);
  return (
    <IssuesShell
      repo={ctx.repo}
      section="cycles"
      actions={ctx.canWrite ? <NewCycleButton repoId={ctx.repo.id} defaultStart={defaultStart} /> : undefined}
    >
      {cycles.length === 0 ? (
        <div className={cx(card, "px-6 py-12 text-center")} data-testid="no-cycles">
          <CycleIcon className="h-8! w-8! text-subtle-foreground" />
          <h2 className="mt-3 font-semibold">No cycles yet</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {ctx.canWrite
              ? "Cycles are time-boxed iterations (sprints). Create one and plan issues into it."
              : "Cycles are time-boxed iterations (sprints); none were created here."}
          </p>
        </div>
      ) : (
        <ul className="space-y-3" data-testid="cycles-list">
          {cycles.map((c) => {
            const current = c.timing === "current";
            return (
              <li
                key={c.id}
                className={cx(
                  card,
                  "grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_16rem] sm:items-center sm:gap-6",
                  current && "border-primary-border bg-primary-muted/40 ring-1 ring-primary-border",
                )}
                aria-current={current ? "true" : undefined}
                data-testid="cycle-row"
                data-number={c.number}
                data-timing={c.timing}
              >
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <CycleIcon className={current ? "text-primary" : "text-subtle-foreground"} />
                    <Link
                      href={`/${ctx.repo.owner}/${ctx.repo.name}/cycles/${c.number}`}
                      className="font-semibold text-foreground hover:text-primary hover:underline"
                    >
                      Cycle {c.number}
                    </Link>
                    {c.name && <span className="min-w-0 break-words text-muted-foreground">{c.name}</span>}
                    {current ? (
                      <Badge tone="primary" data-testid="current-cycle">
                        Current · {daysLeft(c.endsAt)} day{daysLeft(c.endsAt) === 1 ? "" : "s"} left
                      </Badge>
                    ) : (
                      <Badge>{c.timing === "upcoming" ? "Upcoming" : "Completed"}</Badge>
                    )}
                  </div>
                  <div className="mt-0.5 text-xs text-subtle-foreground">
                    <time dateTime={c.startsAt}>{day(c.startsAt)}</time> – <time dateTime={c.endsAt}>{day(c.endsAt)}</time> ·{" "}
                    {c.issues.total} issue{c.issues.total === 1 ? "" : "s"}, {c.issues.open} open
                  </div>
                </div>
                <Progress counts={c.issues} label={`Progress of cycle ${c.number}`} />
              </li>
            );
          })}
        </ul>
      )}
    </IssuesShell>
  );
}
