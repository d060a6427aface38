import { cx } from "./styles";

export type BadgeTone = "neutral" | "primary" | "danger" | "warning";
const tones: Record<BadgeTone, string> = {
  neutral: "border-border bg-muted text-muted-foreground",
  primary: "border-primary-border bg-primary-muted text-primary",
  danger: "border-danger-border bg-danger-muted text-danger",
  warning: "border-warning-border bg-warning-muted text-warning",
};

/** A small rounded label (role, visibility, state); every tone passes AA contrast in both themes. */
export function Badge({ tone = "neutral", className, ...props }: { tone?: BadgeTone } & React.HTMLAttributes<HTMLSpanElement>) {
  return (
    <span
      className={cx("inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium", tones[tone], className)}
      {...props}
    />
  );
}

/** GitHub's "bot" label beside an automated account's name (the AI reviewer `svc-ai`). */
export function BotBadge() {
  return (
    <Badge title="An automated account, not a person" data-testid="bot-badge">
      bot
    </Badge>
  );
}
