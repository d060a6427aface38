/** A compact list of issues (project and cycle pages): status, title, number, priority, assignee. Server component. */
import Link from "next/link";
import type { Issue } from "@/components/issues/model";
import { issueUrl, statusLabel } from "@/components/issues/model";
import { Avatar, PriorityIcon, StatusIcon, priorityLabel } from "@/components/issues/ui";
import { card, cx } from "@/components/ui/styles";

/** `action`, when given, renders a control at the end of each row (e.g. writers' Remove). */
export function IssueRows({
  issues,
  owner,
  repo,
  empty,
  action,
}: {
  issues: Issue[];
  owner: string;
  repo: string;
  empty: string;
  action?: (issue: Issue) => React.ReactNode;
}) {
  if (issues.length === 0) return <p className={cx(card, "px-4 py-6 text-center text-sm text-muted-foreground")}>{empty}</p>;
  return (
    <ul className={cx(card, "divide-y divide-border")}>
      {issues.map((i) => (
        <li key={i.id} className="flex items-center gap-3 px-4 py-2.5" data-testid="planning-issue" data-number={i.number}>
          <span title={statusLabel(i.status)}>
            <StatusIcon status={i.status} />
            <span className="sr-only">{statusLabel(i.status)}</span>
          </span>
          <Link
            href={issueUrl(owner, repo, i.number)}
            className="min-w-0 flex-1 truncate font-medium text-foreground hover:text-primary hover:underline"
          >
            {i.title}
          </Link>
          <span className="shrink-0 text-xs text-subtle-foreground">#{i.number}</span>
          <span className="shrink-0" title={priorityLabel(i.priority)}>
            <PriorityIcon priority={i.priority} />
            <span className="sr-only">{priorityLabel(i.priority)}</span>
          </span>
          {i.assignee && <Avatar username={i.assignee.username} size="sm" />}
          {action?.(i)}
        </li>
      ))}
    </ul>
  );
}
