"use client";
/**
 * While the search index is being built or refreshed, asks ai.searchIndexStatus every few
 * seconds and re-renders the page (router.refresh) once the index is ready and current, so the
 * results fill in without the reader reloading. Renders the polite status line itself.
 */
import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";

export function IndexWatcher({ repoId, branch, message }: { repoId: string; branch: string; message: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const status = useQuery({ ...trpc.ai.searchIndexStatus.queryOptions({ repoId, branch }), refetchInterval: 3_000, staleTime: 0 });
  const ready = status.data?.status === "ready" && !status.data.stale;
  useEffect(() => {
    if (ready) router.refresh();
  }, [ready, router]);
  return (
    <p role="status" className="text-sm text-muted-foreground" data-testid="search-indexing">
      {ready ? "The index is up to date." : message}
    </p>
  );
}
