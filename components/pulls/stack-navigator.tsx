/**
 * The stack navigator (Graphite-style; docs/pulls.md "Stacks in the browser"): the branches of the
 * stack this pull request belongs to, top of the stack first, each with its pull request, the
 * current one marked, and a link to the stack on the repository's stacks page (where writers
 * reorder or delete it).
 */
import Link from "next/link";
import { cx } from "@/components/ui/styles";
import { pullUrl } from "./model";
import { stacksUrl } from "./stack-model";
import { PullStateIcon } from "./ui";

export interface StackData {
  id: string;
  name: string;
  baseBranch: string;
  branches: {
    branchName: string;
    position: number;
    pr: { id: string; number: number; title: string; state: string } | null;
    isCurrent: boolean;
  }[];
}

export function StackNavigator({ repo, stack }: { repo: { owner: string; name: string }; stack: StackData }) {
  const top = [...stack.branches].sort((a, b) => b.position - a.position);
  return (
    <nav aria-label={`Stack ${stack.name}`} data-testid="stack-navigator">
      <div className="flex items-baseline gap-2">
        <h2 className="min-w-0 flex-1 text-xs font-semibold uppercase tracking-wide text-subtle-foreground [overflow-wrap:anywhere]">
          Stack · {stack.name}
        </h2>
        <Link
          href={stacksUrl(repo.owner, repo.name, stack.id)}
          className="shrink-0 text-xs text-primary hover:underline"
          data-testid="stack-navigator-link"
        >
          View stack
        </Link>
      </div>
      <ol className="mt-2 space-y-1">
        {top.map((b) => (
          <li
            key={b.branchName}
            className={cx("flex items-center gap-2 rounded-md px-2 py-1", b.isCurrent && "bg-accent font-medium")}
            aria-current={b.isCurrent ? "step" : undefined}
            data-testid="stack-branch"
          >
            {b.pr ? <PullStateIcon pr={{ state: b.pr.state, isDraft: false }} /> : <span className="inline-block h-4 w-4" />}
            {b.pr ? (
              <Link
                href={pullUrl(repo.owner, repo.name, b.pr.number)}
                className="min-w-0 flex-1 truncate text-foreground hover:text-primary"
                title={b.pr.title}
              >
                #{b.pr.number} {b.branchName}
              </Link>
            ) : (
              <span className="min-w-0 flex-1 truncate text-muted-foreground">{b.branchName}</span>
            )}
          </li>
        ))}
        <li className="flex items-center gap-2 px-2 py-1 text-xs text-subtle-foreground">
          <span className="inline-block h-4 w-4" /> {stack.baseBranch}
        </li>
      </ol>
    </nav>
  );
}
