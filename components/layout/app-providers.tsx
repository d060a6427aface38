"use client";
import { ProgressProvider } from "@bprogress/next/app";
import { TooltipProvider } from "@/components/ui/tooltip";
import { Toaster } from "@/components/ui/toast";

/**
 * Client-side providers every page shares: the top progress bar on navigation (@bprogress/next,
 * shown after 150 ms so fast navigations don't flash), tooltips, and the toast region.
 */
export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <ProgressProvider height="3px" color="var(--ring)" options={{ showSpinner: false }} delay={150} shallowRouting>
      <TooltipProvider>
        {children}
        <Toaster />
      </TooltipProvider>
    </ProgressProvider>
  );
}
