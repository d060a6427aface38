"use client";
/**
 * The pull request page's header (docs/pulls.md "Pages"): the title (the author and writers edit it
 * in place), the state pill, "alice wants to merge 3 commits into main from feature", and the
 * Conversation / Commits / Files changed tabs with counts. The active tab follows the URL.
 */
import { useState } from "react";
import Link from "next/link";
import { useSelectedLayoutSegment } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { useRunner } from "@/components/issues/issue-shared";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { cx } from "@/components/ui/styles";
import { ScrollRow } from "@/components/ui/scroll-row";
import { CommitIcon } from "@/components/ui/icons";
import { CommentIcon, TimeAgo } from "@/components/issues/ui";
import { FileIcon } from "@/components/ui/icons";
import { mergeSentence, pullUrl } from "./model";
import { BranchLabel, PullStateBadge } from "./ui";

export interface HeaderPull {
  id: string;
  number: number;
  title: string;
  state: string;
  isDraft: boolean;
  sourceBranch: string;
  targetBranch: string;
  createdAt: string;
  mergedAt: string | null;
  author: { username: string } | null;
  /** the fork's owner when the source branch lives in a fork, else null */
  sourceOwner: string | null;
  mergedBy: string | null;
}

export function PullHeader({
  repo,
  pr,
  canEdit,
  commits,
  files,
}: {
  repo: { owner: string; name: string };
  pr: HeaderPull;
  canEdit: boolean;
  commits: number;
  files: number | null;
}) {
  const client = useTRPCClient();
  const { run, error, busy } = useRunner();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(pr.title);
  const segment = useSelectedLayoutSegment();
  const tab = (key: string | null, href: string, label: string, count: number | null, Icon: typeof CommitIcon, testId: string) => (
    <Link
      href={href}
      className={cx(
        "flex items-center gap-1.5 border-b-2 px-2 pb-2",
        segment === key
          ? "border-primary font-medium text-foreground"
          : "border-transparent text-muted-foreground hover:border-input hover:text-foreground",
      )}
      aria-current={segment === key ? "page" : undefined}
      data-testid={testId}
    >
      <Icon className="text-subtle-foreground" /> {label}
      {count !== null && <span className="rounded-full bg-accent px-1.5 text-xs font-medium text-muted-foreground">{count}</span>}
    </Link>
  );
  return (
    <div className="border-b border-border">
      {editing ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!title.trim()) return;
            await run(
              () => client.pulls.update.mutate({ prId: pr.id, title: title.trim() }),
              () => setEditing(false),
            );
          }}
        >
          <Input
            className="min-w-0 flex-1 text-lg!"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={256}
            autoFocus
            aria-label="Title"
            data-testid="pull-title-input"
          />
          <Button type="submit" variant="primary" disabled={!title.trim() || busy} data-testid="pull-title-save">
            Save
          </Button>
          <Button type="button" variant="ghost" onClick={() => (setEditing(false), setTitle(pr.title))}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="flex flex-wrap items-start gap-3">
          <h1 className="min-w-0 flex-1 text-2xl font-semibold text-foreground [overflow-wrap:anywhere]">
            <span data-testid="pull-title-text">{pr.title}</span> <span className="font-normal text-subtle-foreground">#{pr.number}</span>
          </h1>
          {canEdit && (
            <Button type="button" onClick={() => setEditing(true)} data-testid="pull-edit-title">
              Edit
            </Button>
          )}
        </div>
      )}
      {error && <FormError message={error} />}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-muted-foreground" data-testid="pull-summary">
        <PullStateBadge pr={pr} />
        <span className="[overflow-wrap:anywhere]">
          <strong className="font-medium text-foreground">
            {pr.state === "merged" ? (pr.mergedBy ?? pr.author?.username ?? "someone") : (pr.author?.username ?? "someone")}
          </strong>{" "}
          {mergeSentence(pr, commits)} <BranchLabel name={pr.targetBranch} testId="pull-target" /> from{" "}
          <BranchLabel name={pr.sourceBranch} owner={pr.sourceOwner} testId="pull-source" />
          {pr.state === "merged" && pr.mergedAt ? (
            <>
              {" "}
              <TimeAgo iso={pr.mergedAt} />
            </>
          ) : null}
        </span>
      </div>
      <ScrollRow active={segment} outerClassName="mt-5" className="gap-2 text-sm" aria-label="Pull request" data-testid="pull-tabs">
        {tab(null, pullUrl(repo.owner, repo.name, pr.number), "Conversation", null, CommentIcon, "pull-tab-conversation")}
        {tab("commits", pullUrl(repo.owner, repo.name, pr.number, "commits"), "Commits", commits, CommitIcon, "pull-tab-commits")}
        {tab("files", pullUrl(repo.owner, repo.name, pr.number, "files"), "Files changed", files, FileIcon, "pull-tab-files")}
      </ScrollRow>
    </div>
  );
}
