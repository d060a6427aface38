/**
 * Where a session's changes are read from and written to (docs/agent.md "Branch"):
 * the session branch `refs/heads/agent/<short-id>` once it exists, else the repository's default
 * branch (the session branch is cut from it at the first approval).
 */
import { AppError } from "@/server/errors";
import { readRef } from "@/server/git/pull-refs";
import { entriesAlong, readFileAt, type TreeEntryAt } from "@/server/git/edit-files";
import type { AuthorizedRepo } from "@/server/services/repos/access";

export interface SessionBase {
  /** `refs/heads/<session branch>`. */
  ref: string;
  /** The session branch's tip, or null when it does not exist yet. */
  tip: string | null;
  /** The commit changes are read from and committed on: `tip`, else the default branch's tip. */
  commit: string;
  /** The branch `commit` belongs to (for messages). */
  branchName: string;
}

/** The session's base commit. Errors: PRECONDITION_FAILED when neither branch exists (an empty repository). */
export async function sessionBase(repo: Pick<AuthorizedRepo, "gitDir" | "defaultBranch">, branch: string): Promise<SessionBase> {
  const ref = `refs/heads/${branch}`;
  const tip = await readRef(repo.gitDir, ref);
  if (tip) return { ref, tip, commit: tip, branchName: branch };
  const main = await readRef(repo.gitDir, `refs/heads/${repo.defaultBranch}`);
  if (!main)
    throw new AppError(
      "PRECONDITION_FAILED",
      `the repository has no commits on its default branch "${repo.defaultBranch}" yet: push a first commit, then propose changes`,
    );
  return { ref, tip: null, commit: main, branchName: repo.defaultBranch };
}

/** What is at `path` in `commit` for a change: the file (regular files only), or why the path cannot hold a file. */
export type PathState = { kind: "absent" } | { kind: "file"; entry: TreeEntryAt } | { kind: "blocked"; why: string };

/** Looks `path` up in `commit`: a parent folder that is a file, or the path being a folder, symlink or submodule, blocks it. */
export async function pathState(gitDir: string, commit: string, path: string, branchName: string): Promise<PathState> {
  const entries = await entriesAlong(gitDir, commit, path);
  const segments = path.split("/");
  for (let i = 1; i < segments.length; i++) {
    const prefix = segments.slice(0, i).join("/");
    const e = entries.get(prefix);
    if (e && e.type !== "tree") return { kind: "blocked", why: `"${prefix}" is a file on ${branchName}, so "${path}" cannot be inside it` };
  }
  const at = entries.get(path);
  if (!at) return { kind: "absent" };
  if (at.type === "tree") return { kind: "blocked", why: `"${path}" is a folder on ${branchName}` };
  if (at.type !== "blob" || (at.mode !== "100644" && at.mode !== "100755"))
    return { kind: "blocked", why: `"${path}" is a symbolic link or submodule on ${branchName}; only regular files can be changed` };
  return { kind: "file", entry: at };
}

/** The bytes of the regular file `path` in `commit` (it exists: see pathState). */
export async function fileBytes(gitDir: string, commit: string, path: string): Promise<Buffer> {
  const file = await readFileAt(gitDir, commit, path);
  if (!file) throw new Error(`${path} vanished from ${commit}`);
  return file.content;
}
