"use client";
/**
 * Writes the inbox page's summary (pulls.inboxSummary over every repository, read by the server
 * for this render) into the browser's query cache, so the top bar's count (InboxLink) shows the
 * same numbers as the page's tabs without asking again.
 */
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import type { InboxSummary } from "./model";

export function InboxSummarySync({ summary }: { summary: InboxSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    queryClient.setQueryData(trpc.pulls.inboxSummary.queryKey({}), summary);
  }, [queryClient, trpc, summary]);
  return null;
}
