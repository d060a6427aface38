/**
 * The commit a status or check run is posted for (GitHub: "No commit found for SHA: <sha>", 422).
 */
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { resolveCommit } from "@/server/git/repository";
import { ValidationFailed } from "./status-rules";

/**
 * The full commit id of `sha` in `repo`: 7–64 hex digits (an abbreviated id is resolved by git, so
 * only the full id is stored). Errors: ValidationFailed (422) "No commit found for SHA: <sha>" when
 * it is not hex or names no commit of the repository.
 */
export async function commitOfSha(repo: Pick<AuthorizedRepo, "gitDir">, sha: string, field = "sha"): Promise<string> {
  const found = /^[0-9a-fA-F]{7,64}$/.test(sha) ? await resolveCommit(repo.gitDir, sha.toLowerCase()) : null;
  if (!found)
    throw new ValidationFailed(
      [{ resource: "Commit", field, code: "invalid", message: `no commit found for SHA: ${sha}` }],
      `No commit found for SHA: ${sha.slice(0, 100)}`,
    );
  return found;
}
