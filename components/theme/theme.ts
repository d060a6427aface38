/**
 * The colour theme: "light", "dark", or "system" (follow the operating system). Kept in the
 * `svc-theme` cookie (one year, path /, SameSite=Lax) so the server renders <html class="dark">
 * or "light" itself: no script runs before paint and nothing flashes. "system" sets no class and
 * CSS `color-scheme: light dark` + `prefers-color-scheme` decide (app/globals.css).
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "svc-theme";

/** The theme a cookie value names; anything else (missing, tampered) is "system". */
export function parseTheme(value: string | undefined | null): Theme {
  return value === "light" || value === "dark" ? value : "system";
}

/** The <html> class for a theme: "light", "dark", or undefined for "system". */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}
