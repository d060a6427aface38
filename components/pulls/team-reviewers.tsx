"use client";
/**
 * The team review requests of a pull request, in the sidebar's Reviewers section (docs/orgs.md
 * "Teams"): each requested team (`@org/slug`) with "reviewed" once a member has reviewed, else
 * pending; writers request another team of the organization (pulls.requestReview `teams`) or
 * remove one (pulls.removeReviewRequest `teams`), then the page's server data is refreshed.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { useRefresh } from "@/components/repo-settings/use-refresh";
import type { TeamReviewerView } from "@/server/services/pulls/team-reviewers";
import { ReviewStateIcon } from "./review-state";

export function TeamReviewers({
  prId,
  requests,
  teams,
  canWrite,
}: {
  prId: string;
  requests: TeamReviewerView[];
  /** The organization's teams the caller can request ([] when not an organization member or a personal repository). */
  teams: { slug: string; name: string }[];
  canWrite: boolean;
}) {
  const trpc = useTRPC();
  const request = useMutation(trpc.pulls.requestReview.mutationOptions());
  const remove = useMutation(trpc.pulls.removeReviewRequest.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const [slug, setSlug] = useState("");
  const [error, setError] = useState<string>();
  const requested = new Set(requests.map((r) => r.team.slug));
  const choices = teams.filter((t) => !requested.has(t.slug));
  const busy = request.isPending || remove.isPending || refreshing;

  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
      setSlug("");
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  if (requests.length === 0 && !(canWrite && choices.length)) return null;
  return (
    <div className="mt-2 space-y-2 px-2" data-testid="team-reviewers">
      {requests.length > 0 && (
        <ul className="space-y-1">
          {requests.map((r) => (
            <li
              key={r.team.id}
              className="flex min-w-0 items-center gap-2"
              data-testid="team-reviewer"
              data-slug={r.team.slug}
              data-satisfied={r.satisfied ? "true" : "false"}
            >
              <span className="min-w-0 flex-1 truncate" title={r.reviewedBy.length ? `reviewed by ${r.reviewedBy.join(", ")}` : undefined}>
                @{r.team.org}/{r.team.slug}
                {r.satisfied && <span className="ml-1 text-xs text-subtle-foreground">reviewed by {r.reviewedBy[0]}</span>}
              </span>
              {!r.satisfied && <ReviewStateIcon state="pending" />}
              {canWrite && (
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  aria-label={`Remove the review request for @${r.team.org}/${r.team.slug}`}
                  onClick={() => run(() => remove.mutateAsync({ prId, teams: [r.team.slug] }))}
                  data-testid="team-reviewer-remove"
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && choices.length > 0 && (
        <form
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (slug) void run(() => request.mutateAsync({ prId, teams: [slug] }));
          }}
          data-testid="request-team-form"
        >
          <NativeSelect
            aria-label="Request a review from a team"
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
            data-testid="request-team-select"
          >
            <option value="">Request a team…</option>
            {choices.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.name}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" size="sm" disabled={busy || !slug} data-testid="request-team">
            Request
          </Button>
        </form>
      )}
      {error && <FormError message={error} />}
    </div>
  );
}
