"use client";
/**
 * "Ask the agent about these lines" (docs/agent.md): shown in the file view to signed-in users
 * while a line range is selected (the `#L10-L20` hash of ./line-selection.tsx); it opens the
 * repository's agent page with that range in the chat's context picker
 * (`/<owner>/<repo>/agent?file=<path>&start=<n>&end=<n>`).
 */
import { useEffect, useState } from "react";
import Link from "next/link";
import { AgentIcon } from "@/components/ui/icons";
import { buttonClass, cx } from "@/components/ui/styles";
import { LINE_SELECTION_EVENT } from "./line-selection";
import { parseLineHash, repoUrl } from "./urls";

export function AskAgentLink({ owner, name, path }: { owner: string; name: string; path: string }) {
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  useEffect(() => {
    const read = () => setRange(parseLineHash(window.location.hash));
    read();
    window.addEventListener("hashchange", read);
    window.addEventListener(LINE_SELECTION_EVENT, read);
    return () => {
      window.removeEventListener("hashchange", read);
      window.removeEventListener(LINE_SELECTION_EVENT, read);
    };
  }, []);
  if (!range) return null;
  const href = `${repoUrl(owner, name)}/agent?${new URLSearchParams({ file: path, start: String(range.start), end: String(range.end) })}`;
  return (
    <Link href={href} className={cx(buttonClass({ variant: "secondary", size: "sm" }), "h-7")} data-testid="ask-agent-lines">
      <AgentIcon className="text-subtle-foreground" />
      Ask the agent about {range.start === range.end ? `line ${range.start}` : `these lines`}
    </Link>
  );
}
