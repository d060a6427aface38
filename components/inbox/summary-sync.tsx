"use client";
/**
 * Writes the inbox page's awaiting-review count (pulls.inboxSummary over every repository, read
 * by the server for this render) into the browser's query cache as pulls.inboxAwaitingCount's
 * answer, so the top bar's count (InboxLink) shows the page's number without asking again.
 */
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import type { InboxSummary } from "./model";

export function InboxSummarySync({ summary }: { summary: InboxSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    queryClient.setQueryData(trpc.pulls.inboxAwaitingCount.queryKey(), { awaitingReview: summary.awaitingReview });
  }, [queryClient, trpc, summary.awaitingReview]);
  return null;
}
