import type { Metadata } from "next";
import { headers } from "next/headers";
import "./globals.css";
import { TRPCReactProvider } from "@/components/trpc/provider";
import { TopNav } from "@/components/layout/top-nav";

export const metadata: Metadata = {
  title: { default: "svc", template: "%s · svc" },
  description: "Self-hosted repository platform",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: proxy.ts gives each one a fresh CSP nonce, which Next puts on
  // its scripts (a page prerendered at build time would carry none and be blocked).
  await headers();
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-slate-50 text-slate-900 antialiased">
        <TRPCReactProvider>
          <TopNav />
          <main className="flex-1 pb-16">{children}</main>
          <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500">svc — self-hosted git</footer>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
