"use client";
import { Tooltip as T } from "radix-ui";

/** One provider for the app (app/layout.tsx): a 300 ms delay, instant between neighbouring tooltips. */
export function TooltipProvider({ children }: { children: React.ReactNode }) {
  return <T.Provider delayDuration={300}>{children}</T.Provider>;
}

/** A tooltip on hover and keyboard focus of `children` (which must be one focusable element). */
export function Tooltip({
  content,
  children,
  side = "top",
}: {
  content: React.ReactNode;
  children: React.ReactElement;
  side?: "top" | "bottom" | "left" | "right";
}) {
  return (
    <T.Root>
      <T.Trigger asChild>{children}</T.Trigger>
      <T.Portal>
        <T.Content side={side} sideOffset={4} className="z-50 max-w-xs rounded bg-foreground px-2 py-1 text-xs text-background shadow">
          {content}
        </T.Content>
      </T.Portal>
    </T.Root>
  );
}
