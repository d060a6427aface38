/**
 * Reading the activity log (spec "Activity entry"): {id, issueNumber, action, field?, oldValue?,
 * newValue?, actor, createdAt}, newest first. Values are strings (numbers, dates and keys as
 * text); actor is {id, username, name} or null for a deleted user. Three queries per call, and
 * one authorization per other repository named by a closing pull request (`redactPullRefs`).
 */
import type { Db, Prisma } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber } from "./core";
import { userSelect, type UserRef } from "./shapes";

export interface ActivityEntry {
  id: string;
  issueNumber: number;
  action: string;
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  actor: UserRef | null;
  createdAt: string;
}

const select = {
  id: true,
  action: true,
  field: true,
  oldValue: true,
  newValue: true,
  createdAt: true,
  issue: { select: { number: true } },
  actor: { select: userSelect },
} as const satisfies Prisma.IssueActivitySelect;

type ActivityRepo = Pick<AuthorizedRepo, "id" | "owner" | "name">;

/** What a viewer who cannot read the pull request that closed an issue sees in its place. */
export const PRIVATE_PULL_REQUEST = "a private pull request";

/**
 * A merged pull request that closes an issue records itself as "owner/name#N" (field
 * "pull_request", pulls/after-merge.ts `closeReferencedIssues`), and it may live in another
 * repository than the issue — a private one under a public issue. Who may see that name differs
 * per viewer and changes over time (collaborators come and go, repositories turn private), so
 * the stored value is kept and redacted here, on every read, to PRIVATE_PULL_REQUEST unless
 * `actor` can read that repository now (authorizeRepo at read: role and token scope). A
 * reference to `repo` itself is readable by whoever reads its activity. A value that does not
 * parse, or a repository renamed or deleted since, is redacted too (nothing to check it against).
 */
async function redactPullRefs(db: Db, actor: Actor | null, repo: ActivityRepo, list: ActivityEntry[]): Promise<ActivityEntry[]> {
  const self = `${repo.owner}/${repo.name}`.toLowerCase();
  const readable = new Map<string, boolean>();
  for (const e of list) {
    if (e.field !== "pull_request" || e.newValue === null) continue;
    const [, owner, name] = /^([^/#\s]+)\/([^/#\s]+)#\d+$/.exec(e.newValue) ?? [];
    const key = owner && name ? `${owner}/${name}`.toLowerCase() : null;
    if (key === self) continue;
    if (owner && name && key !== null && !readable.has(key)) {
      const ok = await authorizeRepo(db, actor, { owner, name }, "read").then(
        () => true,
        () => false,
      );
      readable.set(key, ok);
    }
    if (key === null || !readable.get(key)) e.newValue = PRIVATE_PULL_REQUEST;
  }
  return list;
}

async function entries(
  db: Db,
  actor: Actor | null,
  repo: ActivityRepo,
  where: Prisma.IssueActivityWhereInput,
  limit: number,
): Promise<ActivityEntry[]> {
  const rows = await db.issueActivity.findMany({ where, orderBy: { id: "desc" }, take: limit, select });
  const list = rows.map((r) => ({
    id: String(r.id),
    issueNumber: r.issue.number,
    action: r.action,
    field: r.field,
    oldValue: r.oldValue,
    newValue: r.newValue,
    actor: r.actor,
    createdAt: r.createdAt.toISOString(),
  }));
  return redactPullRefs(db, actor, repo, list);
}

/**
 * issues.getActivity {number, limit? (1–200, 50)} → entries of the issue, newest first, as
 * `actor` may see them (closing pull requests in repositories they cannot read are redacted:
 * `redactPullRefs`). NOT_FOUND.
 */
export async function getActivity(db: Db, actor: Actor | null, repo: ActivityRepo, number: number, limit = 50): Promise<ActivityEntry[]> {
  const issue = await issueByNumber(db, repo.id, number);
  return entries(db, actor, repo, { issueId: issue.id }, limit);
}

/** issues.getRepoActivity {limit? (1–200, 50)} → entries of every issue of the repository, newest first, redacted as getActivity. */
export function getRepoActivity(db: Db, actor: Actor | null, repo: ActivityRepo, limit = 50): Promise<ActivityEntry[]> {
  return entries(db, actor, repo, { repoId: repo.id }, limit);
}
