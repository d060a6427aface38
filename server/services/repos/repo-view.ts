/** The API shape of a repository (not in the spec; designed like GitHub/Gitea). */
import type { AuthorizedRepo, Permission } from "./access";

/** A repository as the API returns it (dates ISO). `id` is the UUID the spec calls repoId. */
export interface RepoView {
  id: string;
  owner: string;
  name: string;
  fullName: string;
  description: string | null;
  isPrivate: boolean;
  defaultBranch: string;
  permission: Permission;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
  /** HTTP clone URL, e.g. http://localhost:3000/alice/app.git */
  cloneUrl: string;
}

/** Shapes an authorized repository for the API. `publicUrl` is the server's base URL. */
export function toRepoView(repo: AuthorizedRepo, publicUrl: string): RepoView {
  return {
    id: repo.id,
    owner: repo.owner,
    name: repo.name,
    fullName: `${repo.owner}/${repo.name}`,
    description: repo.description,
    isPrivate: repo.isPrivate,
    defaultBranch: repo.defaultBranch,
    permission: repo.permission,
    createdAt: repo.createdAt.toISOString(),
    updatedAt: repo.updatedAt.toISOString(),
    pushedAt: repo.pushedAt?.toISOString() ?? null,
    cloneUrl: `${publicUrl}/${repo.owner}/${repo.name}.git`,
  };
}

/**
 * The SSH clone URL of `owner/name` when git over SSH is on (SVC_SSH_PORT set; docs/ssh.md), else
 * null: `ssh://git@<host>:<port>/<owner>/<name>.git`, or scp-like `git@<host>:<owner>/<name>.git`
 * on port 22. The host is SVC_SSH_HOST, by default the host name of `publicUrl` (NEXTAUTH_URL).
 */
export function sshCloneUrl(
  owner: string,
  name: string,
  publicUrl: string,
  env: Record<string, string | undefined> = process.env,
): string | null {
  const port = Number(env.SVC_SSH_PORT?.trim() || NaN);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  let host = env.SVC_SSH_HOST?.trim();
  if (!host) {
    try {
      host = new URL(publicUrl).hostname;
    } catch {
      return null;
    }
  }
  return port === 22 ? `git@${host}:${owner}/${name}.git` : `ssh://git@${host}:${port}/${owner}/${name}.git`;
}
