"use client";
/** Base and head branch pickers of the compare page (issue #8): choosing one opens base...head. */
import { useRouter } from "next/navigation";
import { Select } from "@/components/ui/select";
import { compareUrl } from "@/components/code/urls";

export function ComparePickers({ owner, repo, branches, base, head }: { owner: string; repo: string; branches: string[]; base: string; head: string }) {
  const router = useRouter();
  const options = (current: string) => [...new Set([current, ...branches])].map((b) => ({ value: b, label: b }));
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm" data-testid="compare-pickers">
      <span className="text-muted-foreground">base:</span>
      <Select value={base} onValueChange={(b) => router.push(compareUrl(owner, repo, b, head))} options={options(base)} ariaLabel="Base branch" testId="compare-base" className="w-auto max-w-[12rem] font-mono" />
      <span aria-hidden="true" className="text-subtle-foreground">
        ←
      </span>
      <span className="text-muted-foreground">compare:</span>
      <Select value={head} onValueChange={(h) => router.push(compareUrl(owner, repo, base, h))} options={options(head)} ariaLabel="Head branch" testId="compare-head" className="w-auto max-w-[12rem] font-mono" />
    </div>
  );
}
