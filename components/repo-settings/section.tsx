/** Layout pieces of the repository settings page (server-safe: no client state). */
import { card, cx } from "@/components/ui/styles";
import { CheckIcon } from "@/components/ui/icons";

export function SettingsSection({
  id,
  title,
  description,
  danger,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  danger?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={cx(card, "scroll-mt-6 overflow-hidden", danger && "border-danger-border")}
      data-testid={`settings-${id}`}
    >
      <header className={cx("border-b px-5 py-3", danger ? "border-danger-border bg-danger-muted/70" : "border-border")}>
        <h2 id={`${id}-title`} className={cx("font-semibold", danger ? "text-danger" : "text-foreground")}>
          {title}
        </h2>
        {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
      </header>
      <div className="p-5">{children}</div>
    </section>
  );
}

/** A short green confirmation next to a form's button ("Saved"). */
export function SavedNote({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-1 text-sm text-primary" data-testid={testId}>
      <CheckIcon className="text-primary" /> {children}
    </span>
  );
}
