"use client";
/**
 * Live updates of a pull request page (docs/pulls.md "Live updates"): listens to GET
 * /api/pulls/<id>/events (server/http/pull-events.ts) and, when someone else comments, reviews,
 * pushes, merges or edits, re-renders the page from the server (router.refresh) and tells client
 * parts that keep their own state (the merge box) with the window event PULL_UPDATED. Notices
 * within 250 ms are folded into one refresh. When the stream reconnects (network, server restart,
 * its 30-minute life), a refresh catches up on anything missed meanwhile. Renders nothing.
 */
import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** The window event dispatched after a live update (detail: {pullRequestId, type}). */
export const PULL_UPDATED = "svc:pull-updated";

export function LiveUpdates({ pullRequestId }: { pullRequestId: string }) {
  const router = useRouter();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/pulls/${encodeURIComponent(pullRequestId)}/events`);
    let timer: number | undefined;
    let connections = 0;
    const update = (type: string) => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        router.refresh();
        window.dispatchEvent(new CustomEvent(PULL_UPDATED, { detail: { pullRequestId, type } }));
      }, 250);
    };
    const onReady = () => {
      connections += 1;
      if (connections > 1) update("reconnected");
    };
    const onUpdate = (e: MessageEvent) => {
      let type = "update";
      try {
        type = String((JSON.parse(String(e.data)) as { type?: unknown }).type ?? type);
      } catch {
        // a malformed notice still means "something changed"
      }
      update(type);
    };
    source.addEventListener("ready", onReady);
    source.addEventListener("update", onUpdate);
    return () => {
      window.clearTimeout(timer);
      source.close();
    };
  }, [pullRequestId, router]);
  return null;
}
