"use client";
import Link from "next/link";
import { useSelectedLayoutSegment } from "next/navigation";
import { AgentIcon, CodeIcon, GearIcon, SearchIcon } from "@/components/ui/icons";
import { IssueOpenedIcon } from "@/components/issues/ui";
import { PullRequestIcon } from "@/components/pulls/ui";
import { cx } from "@/components/ui/styles";
import { ScrollRow } from "@/components/ui/scroll-row";
import { repoUrl, settingsUrl } from "./urls";

/** Which tab a first path segment under /<owner>/<repo>/ belongs to (null: the repository home). */
export function tabOf(segment: string | null): "code" | "issues" | "pulls" | "search" | "agent" | "settings" | null {
  if (segment === null || segment === "tree" || segment === "blob" || segment === "commits" || segment === "commit") return "code";
  if (segment === "pulls" || segment === "compare") return "pulls";
  if (segment === "issues" || segment === "projects" || segment === "cycles") return "issues";
  if (segment === "search") return "search";
  if (segment === "agent") return "agent";
  if (segment === "settings") return "settings";
  return null;
}

/**
 * The repository tabs. They live in the repository layout, which stays mounted across
 * navigations, so the active tab is read from the URL (useSelectedLayoutSegment) rather than
 * passed by each page; on a phone the row scrolls sideways with a fade at the edges (ScrollRow). `openIssues` and `openPulls` are the server-rendered count badges. The
 * Agent tab (docs/agent.md) is for signed-in users: sessions are personal.
 */
export function RepoTabs({
  owner,
  name,
  isAdmin,
  signedIn = false,
  openIssues,
  openPulls,
}: {
  owner: string;
  name: string;
  isAdmin: boolean;
  signedIn?: boolean;
  openIssues: React.ReactNode;
  openPulls: React.ReactNode;
}) {
  const tab = tabOf(useSelectedLayoutSegment());
  const tabClass = (active: boolean) =>
    cx(
      "flex items-center gap-1.5 border-b-2 px-1 pb-2",
      active
        ? "border-primary font-medium text-foreground"
        : "border-transparent text-muted-foreground hover:border-input hover:text-foreground",
    );
  const link = (key: "code" | "issues" | "pulls" | "search" | "agent" | "settings", href: string, children: React.ReactNode) => (
    <Link href={href} className={tabClass(tab === key)} aria-current={tab === key ? "page" : undefined} data-testid={`repo-${key}-tab`}>
      {children}
    </Link>
  );
  return (
    <ScrollRow active={tab} outerClassName="mt-4" className="gap-4 text-sm" aria-label="Repository" data-testid="repo-tabs">
      {link(
        "code",
        repoUrl(owner, name),
        <>
          <CodeIcon className="text-subtle-foreground" /> Code
        </>,
      )}
      {link(
        "issues",
        `${repoUrl(owner, name)}/issues`,
        <>
          <IssueOpenedIcon className="text-subtle-foreground" /> Issues {openIssues}
        </>,
      )}
      {link(
        "pulls",
        `${repoUrl(owner, name)}/pulls`,
        <>
          <PullRequestIcon className="text-subtle-foreground" /> Pull requests {openPulls}
        </>,
      )}
      {link(
        "search",
        `${repoUrl(owner, name)}/search`,
        <>
          <SearchIcon className="text-subtle-foreground" /> Search code
        </>,
      )}
      {signedIn &&
        link(
          "agent",
          `${repoUrl(owner, name)}/agent`,
          <>
            <AgentIcon className="text-subtle-foreground" /> Agent
          </>,
        )}
      {isAdmin &&
        link(
          "settings",
          settingsUrl(owner, name),
          <>
            <GearIcon className="text-subtle-foreground" /> Settings
          </>,
        )}
    </ScrollRow>
  );
}
