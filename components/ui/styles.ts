/**
 * Shared Tailwind class lists, the single source of the controls' look: <Button> and <Input>
 * (components/ui) use them, and so do links and labels styled like them. Colours are the theme's
 * semantic tokens (app/globals.css), so both themes follow.
 */
export const cx = (...parts: Array<string | false | null | undefined>) => parts.filter(Boolean).join(" ");

export type ButtonVariant = "primary" | "secondary" | "danger" | "dangerOutline" | "ghost";
export type ButtonSize = "sm" | "md" | "icon";

const buttonBase =
  "inline-flex items-center justify-center gap-1.5 rounded-md text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 focus-visible:ring-offset-background disabled:cursor-not-allowed disabled:opacity-60";
const buttonVariants: Record<ButtonVariant, string> = {
  primary: "bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover focus-visible:ring-ring",
  secondary: "border border-input bg-card text-foreground shadow-sm hover:bg-muted focus-visible:ring-ring",
  danger: "bg-danger text-danger-foreground shadow-sm hover:bg-danger-hover focus-visible:ring-danger",
  dangerOutline: "border border-danger-border bg-card text-danger hover:bg-danger-muted focus-visible:ring-danger",
  ghost: "text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-ring",
};
const buttonSizes: Record<ButtonSize, string> = { sm: "px-2 py-1 text-xs", md: "px-3 py-1.5", icon: "h-8 w-8" };

/** The class list of a button of a variant and size (default secondary, md). */
export function buttonClass({ variant = "secondary", size = "md" }: { variant?: ButtonVariant; size?: ButtonSize } = {}): string {
  return cx(buttonBase, buttonVariants[variant], buttonSizes[size]);
}

/** Button classes by variant (md size), for links and triggers that look like buttons. */
export const button: Record<ButtonVariant, string> = {
  primary: buttonClass({ variant: "primary" }),
  secondary: buttonClass({ variant: "secondary" }),
  danger: buttonClass({ variant: "danger" }),
  dangerOutline: buttonClass({ variant: "dangerOutline" }),
  ghost: buttonClass({ variant: "ghost" }),
};

export const input =
  "block w-full rounded-md border border-input bg-card px-3 py-1.5 text-sm text-foreground shadow-sm placeholder:text-subtle-foreground focus:border-ring focus:outline-none focus:ring-2 focus:ring-ring/30 disabled:bg-muted disabled:opacity-70 aria-invalid:border-danger";

export const label = "block text-sm font-medium text-foreground";
export const hint = "mt-1 text-xs text-subtle-foreground";
export const card = "rounded-lg border border-border bg-card";
export const container = "mx-auto w-full max-w-6xl px-4 sm:px-6";
export const badge = "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium";
