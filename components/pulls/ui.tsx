/**
 * Pull request icons and badges (GitHub's octicons git-pull-request, -draft, -closed, merge):
 * green open, grey draft, purple merged, red closed, with theme tokens for both themes.
 */
import { cx } from "@/components/ui/styles";

type IconProps = { className?: string };
const iconBase = "inline-block h-4 w-4 shrink-0";

/** One of the four looks of a pull request. */
export type PullLook = "open" | "draft" | "merged" | "closed";

export function pullLook(pr: { state: string; isDraft: boolean }): PullLook {
  if (pr.state === "merged") return "merged";
  if (pr.state === "closed") return "closed";
  return pr.isDraft ? "draft" : "open";
}

const LOOK_TEXT: Record<PullLook, string> = { open: "Open", draft: "Draft", merged: "Merged", closed: "Closed" };
const LOOK_FG: Record<PullLook, string> = {
  open: "text-primary",
  draft: "text-subtle-foreground",
  merged: "text-merged",
  closed: "text-danger",
};
const LOOK_PILL: Record<PullLook, string> = {
  open: "bg-primary text-primary-foreground",
  draft: "bg-muted-foreground text-background",
  merged: "bg-merged text-merged-foreground",
  closed: "bg-danger text-danger-foreground",
};

export function PullRequestIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M1.5 3.25a2.25 2.25 0 1 1 3 2.122v5.256a2.251 2.251 0 1 1-1.5 0V5.372A2.25 2.25 0 0 1 1.5 3.25Zm5.677-.177L9.573.677A.25.25 0 0 1 10 .854V2.5h1A2.5 2.5 0 0 1 13.5 5v5.628a2.251 2.251 0 1 1-1.5 0V5a1 1 0 0 0-1-1h-1v1.646a.25.25 0 0 1-.427.177L7.177 3.427a.25.25 0 0 1 0-.354ZM3.75 2.5a.75.75 0 1 0 0 1.5.75.75 0 0 0 0-1.5Zm0 9.5a.75.75 0 1 0 0 1.5.75.75 0 0 0 0-1.5Zm8.25.75a.75.75 0 1 0 1.5 0 .75.75 0 0 0-1.5 0Z" />
    </svg>
  );
}

export function MergedIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M5.45 5.154A4.25 4.25 0 0 0 9.25 7.5h1.378a2.251 2.251 0 1 1 0 1.5H9.25A5.734 5.734 0 0 1 5 7.123v3.505a2.25 2.25 0 1 1-1.5 0V5.372a2.25 2.25 0 1 1 1.95-.218ZM4.25 13.5a.75.75 0 1 0 0-1.5.75.75 0 0 0 0 1.5Zm8.5-4.5a.75.75 0 1 0 0-1.5.75.75 0 0 0 0 1.5ZM5 3.25a.75.75 0 1 0 0 .005V3.25Z" />
    </svg>
  );
}

export function PullClosedIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" className={cx(iconBase, className)} aria-hidden="true">
      <path d="M3.25 1A2.25 2.25 0 0 1 4 5.372v5.256a2.251 2.251 0 1 1-1.5 0V5.372A2.251 2.251 0 0 1 3.25 1Zm9.5 5.5a.75.75 0 0 1 .75.75v3.378a2.251 2.251 0 1 1-1.5 0V7.25a.75.75 0 0 1 .75-.75Zm-2.03-5.273a.75.75 0 0 1 1.06 0l.97.97.97-.97a.748.748 0 0 1 1.265.332.75.75 0 0 1-.205.729l-.97.97.97.97a.751.751 0 0 1-.018 1.042.751.751 0 0 1-1.042.018l-.97-.97-.97.97a.749.749 0 0 1-1.275-.326.749.749 0 0 1 .215-.734l.97-.97-.97-.97a.75.75 0 0 1 0-1.06ZM2.5 3.25a.75.75 0 1 0 1.5 0 .75.75 0 0 0-1.5 0ZM3.25 12a.75.75 0 1 0 0 1.5.75.75 0 0 0 0-1.5Zm9.5 0a.75.75 0 1 0 0 1.5.75.75 0 0 0 0-1.5Z" />
    </svg>
  );
}

/** The icon of a pull request's look, coloured. */
export function PullStateIcon({ pr, className }: { pr: { state: string; isDraft: boolean }; className?: string }) {
  const look = pullLook(pr);
  const Icon = look === "merged" ? MergedIcon : look === "closed" ? PullClosedIcon : PullRequestIcon;
  return (
    <span title={LOOK_TEXT[look]} className={LOOK_FG[look]} data-testid="pull-state-icon" data-look={look}>
      <Icon className={className} />
    </span>
  );
}

/** The Open / Draft / Merged / Closed pill of the pull request header. */
export function PullStateBadge({ pr }: { pr: { state: string; isDraft: boolean } }) {
  const look = pullLook(pr);
  const Icon = look === "merged" ? MergedIcon : look === "closed" ? PullClosedIcon : PullRequestIcon;
  return (
    <span
      className={cx("inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-medium", LOOK_PILL[look])}
      data-testid="pull-state-badge"
      data-look={look}
    >
      <Icon />
      {LOOK_TEXT[look]}
    </span>
  );
}

/** A branch name in GitHub's blue-grey "branch label" style; `owner` prefixes it for forks. */
export function BranchLabel({ name, owner, testId }: { name: string; owner?: string | null; testId?: string }) {
  return (
    <code className="rounded-md bg-accent px-1.5 py-0.5 font-mono text-xs text-foreground [overflow-wrap:anywhere]" data-testid={testId}>
      {owner ? `${owner}:` : ""}
      {name}
    </code>
  );
}
