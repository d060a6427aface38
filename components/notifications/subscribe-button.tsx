"use client";
/**
 * The Subscribe / Unsubscribe button of an issue or pull request page (docs/notifications.md
 * "Subscribing"): shows the viewer's state for the thread (notifications.subscription) and
 * toggles it (notifications.subscribe / unsubscribe). Unsubscribed, only a mention or a review
 * request notifies again. Rendered for signed-in viewers only.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/components/trpc/provider";
import { BellIcon } from "@/components/ui/icons";
import { button, cx } from "@/components/ui/styles";

/** Why the viewer is (not) subscribed, in words under the button. */
const WHY: Record<string, string> = {
  subscribed: "You're subscribed to this thread.",
  unsubscribed: "You're not notified of this thread unless mentioned or asked to review.",
  participating: "You're notified because you take part in this thread.",
  watching: "You're notified because you watch this repository.",
  ignoring: "You ignore this repository.",
  none: "You're not notified of this thread.",
};

export function SubscribeButton({ subjectType, subjectId }: { subjectType: "issue" | "pull_request"; subjectId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const options = trpc.notifications.subscription.queryOptions({ subjectType, subjectId });
  const state = useQuery(options);
  const [busy, setBusy] = useState(false);
  if (!state.data) return null;
  const { subscribed, reason } = state.data;
  const toggle = async () => {
    setBusy(true);
    try {
      const next = subscribed
        ? await client.notifications.unsubscribe.mutate({ subjectType, subjectId })
        : await client.notifications.subscribe.mutate({ subjectType, subjectId });
      queryClient.setQueryData(options.queryKey, next);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="text-sm" data-testid="subscribe-box" data-subscribed={subscribed ? "true" : "false"}>
      <button
        type="button"
        className={cx(button.secondary, "inline-flex items-center gap-1.5")}
        onClick={() => void toggle()}
        disabled={busy}
        data-testid="subscribe-button"
      >
        <BellIcon />
        {subscribed ? "Unsubscribe" : "Subscribe"}
      </button>
      <p className="mt-1 text-xs text-muted-foreground">{WHY[reason] ?? ""}</p>
    </div>
  );
}
