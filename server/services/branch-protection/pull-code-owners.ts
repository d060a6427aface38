/**
 * pulls.codeOwners (docs/pulls.md "Merge requirements", Code owners): the code owners of each
 * file a pull request changes, for the Files tab's "Owned by @a, @b" line. One pass: the
 * CODEOWNERS rules at the diff's base (the target branch's tip while open, as the diff itself:
 * services/diff/pull-range.ts) matched against the diff's file list (the cached metadata the
 * tab reads anyway).
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffFilesThreeDot } from "@/server/git/diff-page";
import { onPullRange, type PullRangeRow } from "@/server/services/diff/pull-range";
import { ownersOf } from "./codeowners";
import { readCodeOwnersAt } from "./pull-requirements";

/**
 * → `{owners: {[path]: usernames and `org/team` teams (lower-cased, without "@", in CODEOWNERS order)}}` for every
 * owned changed file, keyed by its path at the head (a deleted file's own path); `{owners: {}}`
 * without a CODEOWNERS file. `pull`: the pull request's id or its row as the locator read it.
 * Errors: onPullRange's (NOT_FOUND, CONFLICT when a commit is gone), BAD_REQUEST for unrelated
 * histories (as pulls.getDiffFiles).
 */
export async function pullCodeOwners(
  db: Db,
  repo: AuthorizedRepo,
  pull: string | PullRangeRow,
): Promise<{ owners: Record<string, string[]> }> {
  return onPullRange(db, repo, pull, async (base, head) => {
    const rules = await readCodeOwnersAt(repo.gitDir, base);
    if (!rules) return { owners: {} };
    const list = await diffFilesThreeDot(repo.gitDir, base, head);
    const owners: Record<string, string[]> = {};
    for (const f of list.files) {
      const found = ownersOf(rules, f.newPath);
      if (found.length) owners[f.newPath] = found;
    }
    return { owners };
  });
}
