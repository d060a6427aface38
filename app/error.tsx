"use client";
import { button } from "@/components/ui/styles";

export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-sm text-muted-foreground">The page could not be loaded. Try again in a moment.</p>
      <button type="button" className={`${button.secondary} mt-6`} onClick={reset}>
        Try again
      </button>
    </div>
  );
}
