/**
 * GitHub-shaped webhook payload parts (docs/api.md "Webhooks"; GitHub's "Webhook events and
 * payloads"): the fields receivers read. Ids are svc's row ids (UUID strings) where GitHub has
 * integers; `number` is the pull request's or issue's number as on GitHub. URLs are built from
 * the server's public URL (NEXTAUTH_URL).
 */
import type { Prisma } from "@/server/db";
import { getConfig } from "@/server/config";

/** A client that reads: the root client or a transaction's. */
export type Reader = Pick<
  Prisma.TransactionClient,
  "repository" | "user" | "pullRequest" | "issue" | "issueComment" | "pullRequestComment"
>;

/** GitHub's `user` object: `{login, id, type, html_url}`. */
export function userPayload(user: { id: string; username: string } | null): Record<string, unknown> | null {
  if (!user) return null;
  return { login: user.username, id: user.id, type: "User", html_url: `${getConfig().publicUrl}/${user.username}` };
}

/** GitHub's `repository` object for `repoId`: `{id, name, full_name, private, owner, html_url, clone_url, default_branch …}`. Errors: Prisma's not-found. */
export async function repositoryPayload(db: Reader, repoId: string): Promise<Record<string, unknown>> {
  const r = await db.repository.findUniqueOrThrow({
    where: { id: repoId },
    select: {
      id: true,
      name: true,
      description: true,
      isPrivate: true,
      defaultBranch: true,
      createdAt: true,
      updatedAt: true,
      pushedAt: true,
      owner: { select: { id: true, username: true } },
    },
  });
  const base = getConfig().publicUrl;
  const full = `${r.owner.username}/${r.name}`;
  return {
    id: r.id,
    name: r.name,
    full_name: full,
    private: r.isPrivate,
    owner: userPayload(r.owner),
    html_url: `${base}/${full}`,
    description: r.description,
    url: `${base}/${full}`,
    clone_url: `${base}/${full}.git`,
    default_branch: r.defaultBranch,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    pushed_at: r.pushedAt?.toISOString() ?? null,
  };
}

const userSelect = { select: { id: true, username: true } } as const;

/** GitHub's `pull_request` object for pull request `prId` (head and base with their repositories). */
export async function pullRequestPayload(db: Reader, prId: string): Promise<Record<string, unknown>> {
  const pr = await db.pullRequest.findUniqueOrThrow({
    where: { id: prId },
    include: {
      author: userSelect,
      mergedBy: userSelect,
      autoMergeBy: userSelect,
      labels: { include: { label: { select: { id: true, name: true, color: true } } } },
    },
  });
  const [repo, sourceRepo] = await Promise.all([
    repositoryPayload(db, pr.repoId),
    pr.sourceRepoId === pr.repoId ? null : repositoryPayload(db, pr.sourceRepoId),
  ]);
  const htmlUrl = `${repo.html_url as string}/pulls/${pr.number}`;
  const headRepo = sourceRepo ?? repo;
  return {
    id: pr.id,
    number: pr.number,
    state: pr.state === "open" ? "open" : "closed",
    draft: pr.isDraft,
    title: pr.title,
    body: pr.body,
    user: userPayload(pr.author),
    html_url: htmlUrl,
    url: htmlUrl,
    labels: pr.labels.map((l) => ({ id: l.label.id, name: l.label.name, color: l.label.color.replace(/^#/, "") })),
    head: {
      label: `${(headRepo.owner as { login: string }).login}:${pr.sourceBranch}`,
      ref: pr.sourceBranch,
      sha: pr.headSha,
      repo: headRepo,
    },
    base: { label: `${(repo.owner as { login: string }).login}:${pr.targetBranch}`, ref: pr.targetBranch, sha: pr.baseSha, repo },
    merged: pr.state === "merged",
    merged_at: pr.mergedAt?.toISOString() ?? null,
    merged_by: userPayload(pr.mergedBy),
    merge_commit_sha: pr.mergeSha,
    // GitHub's auto_merge: null unless enabled; commit_title / commit_message split from the stored message
    auto_merge: pr.autoMergeStrategy
      ? {
          enabled_by: userPayload(pr.autoMergeBy),
          merge_method: pr.autoMergeStrategy,
          commit_title: pr.autoMergeMessage?.split("\n")[0] ?? null,
          commit_message: pr.autoMergeMessage?.split("\n").slice(1).join("\n").replace(/^\n+/, "") ?? null,
        }
      : null,
    closed_at: pr.closedAt?.toISOString() ?? null,
    created_at: pr.createdAt.toISOString(),
    updated_at: pr.updatedAt.toISOString(),
  };
}

/** GitHub's `issue` object for issue `issueId` (state open/closed, labels, assignee). */
export async function issuePayload(db: Reader, issueId: string): Promise<Record<string, unknown>> {
  const i = await db.issue.findUniqueOrThrow({
    where: { id: issueId },
    include: {
      author: userSelect,
      assignee: userSelect,
      repo: { select: { name: true, owner: { select: { username: true } } } },
      labels: { include: { label: { select: { id: true, name: true, color: true } } } },
    },
  });
  const htmlUrl = `${getConfig().publicUrl}/${i.repo.owner.username}/${i.repo.name}/issues/${i.number}`;
  const assignee = userPayload(i.assignee);
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state === "open" ? "open" : "closed",
    user: userPayload(i.author),
    assignee,
    assignees: assignee ? [assignee] : [],
    labels: i.labels.map((l) => ({ id: l.label.id, name: l.label.name, color: l.label.color.replace(/^#/, "") })),
    html_url: htmlUrl,
    url: htmlUrl,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
    closed_at: i.closedAt?.toISOString() ?? null,
  };
}

/** GitHub's `comment` object of an issue comment. */
export async function issueCommentPayload(db: Reader, commentId: string, issueHtmlUrl: string): Promise<Record<string, unknown>> {
  const c = await db.issueComment.findUniqueOrThrow({ where: { id: commentId }, include: { author: userSelect } });
  return {
    id: c.id,
    body: c.body,
    user: userPayload(c.author),
    html_url: `${issueHtmlUrl}#comment-${c.id}`,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
