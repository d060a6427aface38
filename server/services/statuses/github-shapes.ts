/**
 * GitHub's JSON shapes for svc's statuses and check runs (GitHub REST "Commit statuses" and "Check
 * runs"; docs/api.md "REST: commit statuses and check runs"). Ids of statuses and check runs are
 * integers as on GitHub; a user's `id` is svc's user UUID (a string).
 */
import type { CheckRunRow, CommitStatusRow } from "./rows";
import type { LatestStatusRow } from "./combined-status";
import { getConfig } from "@/server/config";

export interface RepoRef {
  owner: string;
  name: string;
  id: string;
  isPrivate: boolean;
}

const base = () => getConfig().publicUrl;
const apiRepo = (r: RepoRef) => `${base()}/api/v3/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.name)}`;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString().replace(/\.\d{3}Z$/, "Z"));

/** GitHub's simple user for `u` (null for a deleted account). */
export function userJson(u: { id: string; username: string; isAdmin: boolean } | null) {
  if (!u) return null;
  return {
    login: u.username,
    id: u.id,
    avatar_url: "",
    url: `${base()}/api/v3/users/${encodeURIComponent(u.username)}`,
    html_url: `${base()}/${encodeURIComponent(u.username)}`,
    type: "User",
    site_admin: u.isAdmin,
  };
}

/** A status as GitHub returns it from POST …/statuses/{sha} and the lists. */
export function statusJson(repo: RepoRef, s: CommitStatusRow | LatestStatusRow) {
  return {
    url: `${apiRepo(repo)}/statuses/${s.sha}`,
    avatar_url: null,
    id: s.id,
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    creator: userJson(s.creator),
  };
}

/** GitHub's minimal repository object of the combined status. */
export function repoJson(repo: RepoRef) {
  return {
    id: repo.id,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    private: repo.isPrivate,
    owner: { login: repo.owner },
    html_url: `${base()}/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`,
    url: apiRepo(repo),
  };
}

/** A check run as GitHub returns it (no app, check suite or annotations: svc has none). */
export function checkRunJson(repo: RepoRef, c: CheckRunRow) {
  const url = `${apiRepo(repo)}/check-runs/${c.id}`;
  return {
    id: c.id,
    head_sha: c.headSha,
    external_id: c.externalId ?? "",
    url,
    html_url: c.detailsUrl,
    details_url: c.detailsUrl,
    status: c.status,
    conclusion: c.conclusion,
    started_at: iso(c.startedAt),
    completed_at: iso(c.completedAt),
    output: {
      title: c.outputTitle,
      summary: c.outputSummary,
      text: c.outputText,
      annotations_count: 0,
      annotations_url: `${url}/annotations`,
    },
    name: c.name,
    check_suite: null,
    app: null,
    pull_requests: [],
  };
}
