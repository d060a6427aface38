import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import "./globals.css";
import { TRPCReactProvider } from "@/components/trpc/provider";
import { TopNav } from "@/components/layout/top-nav";
import { AppProviders } from "@/components/layout/app-providers";
import { THEME_COOKIE, parseTheme, themeClass } from "@/components/theme/theme";

export const metadata: Metadata = {
  title: { default: "svc", template: "%s · svc" },
  description: "Self-hosted repository platform",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: proxy.ts gives each one a fresh CSP nonce, which Next puts on
  // its scripts (a page prerendered at build time would carry none and be blocked).
  await headers();
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" className={themeClass(theme)} suppressHydrationWarning>
      <body className="flex min-h-screen flex-col bg-background text-foreground antialiased">
        <a
          href="#main"
          className="sr-only z-[60] rounded-md bg-card px-3 py-2 text-sm font-medium text-foreground shadow focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:ring-2 focus:ring-ring"
          data-testid="skip-link"
        >
          Skip to content
        </a>
        <TRPCReactProvider>
          <AppProviders>
            <TopNav theme={theme} />
            <main id="main" tabIndex={-1} className="flex-1 pb-16 focus:outline-none">
              {children}
            </main>
            <footer className="border-t border-border py-4 text-center text-xs text-subtle-foreground">svc — self-hosted git</footer>
          </AppProviders>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
