/** The centred card used by the sign in and sign up pages. */
export function AuthCard({ title, children, footer }: { title: string; children: React.ReactNode; footer: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <div className="mb-6 text-center">
        <span className="mx-auto mb-3 flex h-10 w-10 items-center justify-center rounded-lg bg-slate-900 font-mono text-lg font-bold text-emerald-400">
          s
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      </div>
      <div className="rounded-lg border border-border bg-card p-6 shadow-sm">{children}</div>
      <div className="mt-4 rounded-lg border border-border bg-card p-4 text-center text-sm text-muted-foreground">{footer}</div>
    </div>
  );
}
