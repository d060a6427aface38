"use client";
import { useState } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { DeviceIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { THEME_COOKIE, parseTheme, themeClass, type Theme } from "./theme";

const labels: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

/** Applies a theme at once (the <html> class) and remembers it in the svc-theme cookie. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  const cls = themeClass(theme);
  if (cls) root.classList.add(cls);
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=31536000; samesite=lax`;
}

/** The theme menu in the top bar: System, Light, Dark (radio items). */
export function ThemeToggle({ initial }: { initial: string | undefined }) {
  const [theme, setTheme] = useState<Theme>(parseTheme(initial));
  const Icon = theme === "dark" ? MoonIcon : theme === "light" ? SunIcon : DeviceIcon;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="rounded-md p-1.5 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400"
        aria-label={`Theme: ${labels[theme]}`}
        data-testid="theme-toggle"
      >
        <Icon />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={theme}
          onValueChange={(v) => {
            const t = parseTheme(v);
            setTheme(t);
            applyTheme(t);
          }}
        >
          {(Object.keys(labels) as Theme[]).map((t) => (
            <DropdownMenuRadioItem key={t} value={t} data-testid={`theme-${t}`}>
              {labels[t]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
