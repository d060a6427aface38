"use client";
/**
 * The pull request's properties (docs/pulls.md "Review"), as the issue page's sidebar: Reviewers
 * (request / remove; each with a state icon: approved, changes requested, commented, pending) and
 * Labels (the repository's issue labels, components/issues/pickers.tsx LabelPicker). Both change
 * optimistically with rollback and an error toast (components/issues/use-optimistic.ts). On phones
 * the page puts it first, near the title.
 */
import { useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { Section } from "@/components/issues/issue-section";
import { LabelPicker, triggerClass, type Person } from "@/components/issues/pickers";
import { LabelChip } from "@/components/issues/ui";
import { useOptimistic } from "@/components/issues/use-optimistic";
import type { Label } from "@/components/issues/model";
import { Avatar } from "@/components/ui/avatar";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { CheckIcon, ChevronDownIcon } from "@/components/ui/icons";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { cx } from "@/components/ui/styles";
import type { PullReviewer } from "./model";
import { ReviewStateIcon, reviewerState } from "./review-state";

type PullLabel = Pick<Label, "id" | "name" | "color">;
type Props = { prId: string; authorId: string | null; labels: PullLabel[]; reviewers: PullReviewer[] };

/** Reviewers and labels of pull request `prId`; `people` can be requested (the author excluded), `repoLabels` added. Readers see them read-only. */
export function PullSidebar({
  prId,
  authorId,
  labels,
  reviewers,
  people,
  repoLabels,
  canWrite,
  children,
  teamReviewers,
}: Props & {
  people: Person[];
  repoLabels: Label[];
  canWrite: boolean;
  children?: React.ReactNode;
  /** The team review requests (components/pulls/team-reviewers.tsx), shown under the people. */
  teamReviewers?: React.ReactNode;
}) {
  const client = useTRPCClient();
  const { view, change } = useOptimistic<{ labels: PullLabel[]; reviewers: PullReviewer[] }>({ labels, reviewers });
  const toggleReviewer = (p: Person, on: boolean) =>
    void change(
      (v) => ({
        reviewers: on
          ? [
              ...v.reviewers.filter((r) => r.user.id !== p.id),
              {
                ...(v.reviewers.find((r) => r.user.id === p.id) ?? {
                  state: null,
                  reviewId: null,
                  commitSha: null,
                  isStale: false,
                  reviewedAt: null,
                }),
                user: p,
                requested: true,
              },
            ]
          : v.reviewers.flatMap((r) => (r.user.id !== p.id ? [r] : r.state ? [{ ...r, requested: false }] : [])),
      }),
      () =>
        on
          ? client.pulls.requestReview.mutate({ prId, reviewerId: p.id })
          : client.pulls.removeReviewRequest.mutate({ prId, reviewerId: p.id }),
      "the reviewers",
    );
  return (
    <aside className="order-1 min-w-0 space-y-3 text-sm lg:order-2" data-testid="pull-sidebar">
      {children}
      <Section title="Reviewers" testId="sidebar-reviewers">
        {canWrite && (
          <ReviewerPicker
            people={people.filter((p) => p.id !== authorId)}
            requested={view.reviewers.filter((r) => r.requested).map((r) => r.user.id)}
            onToggle={toggleReviewer}
          />
        )}
        <ul className="mt-1 space-y-1 px-2" data-testid="pull-reviewers">
          {view.reviewers.length === 0 && !teamReviewers && <li className="text-subtle-foreground">No reviews requested</li>}
          {view.reviewers.map((r) => (
            <li
              key={r.user.id}
              className="flex min-w-0 items-center gap-2"
              data-testid="pull-reviewer"
              data-username={r.user.username}
              data-state={reviewerState(r)}
            >
              <Avatar username={r.user.username} />
              <span className="min-w-0 flex-1 truncate">{r.user.username}</span>
              <ReviewStateIcon state={reviewerState(r)} />
            </li>
          ))}
        </ul>
        {teamReviewers}
      </Section>
      <Section title="Labels" testId="sidebar-labels">
        {canWrite ? (
          <LabelPicker
            labels={repoLabels}
            selected={view.labels.map((l) => l.id)}
            testId="labels-picker"
            onToggle={(l, on) =>
              void change(
                (v) => ({
                  labels: on
                    ? [...v.labels.filter((x) => x.id !== l.id), l].sort((a, b) => a.name.localeCompare(b.name))
                    : v.labels.filter((x) => x.id !== l.id),
                }),
                () =>
                  on ? client.pulls.addLabel.mutate({ prId, labelId: l.id }) : client.pulls.removeLabel.mutate({ prId, labelId: l.id }),
                "the labels",
              )
            }
          />
        ) : (
          <div className="flex flex-wrap gap-1 px-2 py-1">
            {view.labels.length ? (
              view.labels.map((l) => <LabelChip key={l.id} label={{ ...l, description: null }} />)
            ) : (
              <span className="text-subtle-foreground">None yet</span>
            )}
          </div>
        )}
      </Section>
    </aside>
  );
}

/** Multi-select of people to request reviews from (cmdk: type to filter, Enter toggles, the list stays open). */
function ReviewerPicker({
  people,
  requested,
  onToggle,
}: {
  people: Person[];
  requested: string[];
  onToggle: (p: Person, on: boolean) => void;
}) {
  const [query, setQuery] = useState("");
  return (
    <Popover onOpenChange={(o) => !o && setQuery("")}>
      <PopoverTrigger className={triggerClass} data-testid="reviewers-picker">
        <span className="flex-1 text-subtle-foreground">Request reviewers</span>
        <ChevronDownIcon className="text-subtle-foreground" />
      </PopoverTrigger>
      <PopoverContent className="w-64 p-0" data-testid="reviewers-picker-menu">
        <Command>
          <CommandInput value={query} onValueChange={setQuery} placeholder="Request a review from…" aria-label="Filter people" />
          <CommandList>
            <CommandEmpty>No one matches.</CommandEmpty>
            {people.map((u) => {
              const on = requested.includes(u.id);
              return (
                <CommandItem
                  key={u.id}
                  value={`${u.username} ${u.name ?? ""} ${u.id}`}
                  onSelect={() => onToggle(u, !on)}
                  data-testid={`reviewer-option-${u.username}`}
                  data-checked={on ? "true" : "false"}
                  aria-checked={on}
                >
                  <span
                    className={cx(
                      "flex h-4 w-4 shrink-0 items-center justify-center rounded border",
                      on ? "border-primary bg-primary text-primary-foreground" : "border-input",
                    )}
                  >
                    {on && <CheckIcon className="h-3! w-3!" />}
                  </span>
                  <Avatar username={u.username} />
                  <span className="truncate">{u.username}</span>
                  {u.name && <span className="truncate text-xs text-subtle-foreground">{u.name}</span>}
                </CommandItem>
              );
            })}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
