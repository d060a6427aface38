/** A titled block of the issue sidebar (Status, Labels, Relations…). */
export function Section({
  title,
  children,
  testId,
  action,
}: {
  title: string;
  children: React.ReactNode;
  testId?: string;
  action?: React.ReactNode;
}) {
  return (
    <section className="border-b border-border pb-3" data-testid={testId}>
      <div className="mb-1 flex items-center justify-between">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-subtle-foreground">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
