/**
 * Dashboard issue sections (docs/ui.md "Pages"): "Assigned to you" and "Created by you" — open
 * issues from issues.listMine, each linking to /<owner>/<repo>/issues/<number>, with its own empty
 * state. Server component.
 */
import type { MyIssueView } from "@/server/services/issues/mine";
import { card, cx } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";
import { PrefetchLink } from "@/components/ui/prefetch-link";

export function MyIssues({ title, issues, empty, testId }: { title: string; issues: MyIssueView[]; empty: string; testId: string }) {
  return (
    <section className={cx(card, "p-4")} data-testid={testId}>
      <h2 className="text-sm font-semibold">{title}</h2>
      {issues.length === 0 ? (
        <p className="mt-2 text-sm text-subtle-foreground" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className="mt-2 space-y-2">
          {issues.map((i) => (
            <li key={i.id} className="text-sm">
              <PrefetchLink
                href={`/${i.repo.owner}/${i.repo.name}/issues/${i.number}`}
                className="font-medium text-primary hover:underline"
              >
                {i.title}
              </PrefetchLink>
              <div className="text-xs text-subtle-foreground">
                {i.repo.owner}/{i.repo.name}#{i.number} · <span title={fullDate(i.updatedAt)}>updated {relativeTime(i.updatedAt)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
