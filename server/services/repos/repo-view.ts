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
