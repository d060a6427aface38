"use client";
/**
 * The inbox's repository filter (docs/pulls.md "The inbox page"): a searchable picker
 * (components/ui Combobox) of the repositories the viewer owns or collaborates on, plus the one in
 * the URL if it is another readable one; picking navigates to `?repo=owner/name` (keeping the tab
 * and state, back to page 1), "All repositories" clears it.
 */
import { useRouter } from "next/navigation";
import { Combobox } from "@/components/ui/combobox";
import { RepoIcon } from "@/components/ui/icons";
import { inboxHref, type InboxTab, type ParticipatedState } from "./model";

export function InboxRepoFilter({
  repos,
  value,
  tab,
  state,
}: {
  repos: string[];
  value: string | null;
  tab: InboxTab;
  state: ParticipatedState;
}) {
  const router = useRouter();
  return (
    <Combobox
      options={repos.map((r) => ({ value: r, label: r, icon: <RepoIcon className="text-subtle-foreground" /> }))}
      value={value}
      onChange={(repo) => router.push(inboxHref({ tab, state, repo }))}
      placeholder="All repositories"
      searchPlaceholder="Filter repositories"
      emptyText="No repository matches."
      allowClear
      clearLabel="All repositories"
      ariaLabel={value ? `Repository: ${value}` : "Repository: all repositories"}
      testId="inbox-repo-filter"
      triggerClassName="h-8 border border-input bg-card shadow-sm"
    />
  );
}
