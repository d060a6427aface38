/** Shared Tailwind class lists, so every page's controls look the same. */
export const cx = (...parts: Array<string | false | null | undefined>) => parts.filter(Boolean).join(" ");

const buttonBase =
  "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-60";

export const button = {
  primary: cx(buttonBase, "bg-emerald-600 text-white shadow-sm hover:bg-emerald-700 focus-visible:ring-emerald-500"),
  secondary: cx(buttonBase, "border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:ring-slate-400"),
  danger: cx(buttonBase, "bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:ring-red-500"),
  dangerOutline: cx(buttonBase, "border border-red-200 bg-white text-red-700 hover:bg-red-50 focus-visible:ring-red-400"),
  ghost: cx(buttonBase, "text-slate-700 hover:bg-slate-100 focus-visible:ring-slate-400"),
};

export const input =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 disabled:bg-slate-50";

export const label = "block text-sm font-medium text-slate-800";
export const hint = "mt-1 text-xs text-slate-500";
export const card = "rounded-lg border border-slate-200 bg-white";
export const container = "mx-auto w-full max-w-6xl px-4 sm:px-6";
export const badge = "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium";
