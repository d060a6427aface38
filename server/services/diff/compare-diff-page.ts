/** A page of a comparison's hunks (repos.compareDiffPage; docs/pulls.md "File list and hunk pages"). */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffPageThreeDot, type DiffPage } from "@/server/git/diff-page";
import { acrossNetwork, resolvePair } from "./compare-refs";
import { pageOptions, type DiffPageFilter } from "./page";
import { withLfsPage } from "@/server/services/lfs/lfs-diff-shapes";

/**
 * repos.compareDiffPage: a page of the three-dot diff `base...head` (file indices are those of
 * `repos.compare`'s `diff.files`), as `pulls.getDiffPage`, with `baseSha`, `headSha`,
 * `mergeBaseSha`; Git LFS pointer files as in `repos.compare`. `headRepo` (default `baseRepo`) holds the head, in `baseRepo`'s fork network.
 * Errors: as `compare` / `compareAcross`; TOO_MANY_REQUESTS when the large-diff gate has no slot in time.
 */
export async function compareDiffPage(
  db: Db,
  baseRepo: AuthorizedRepo,
  base: string,
  headRepo: AuthorizedRepo,
  head: string,
  filter: DiffPageFilter = {},
): Promise<DiffPage & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  const across = headRepo.id === baseRepo.id ? undefined : await acrossNetwork(db, baseRepo, headRepo);
  const { baseId, headId, gitDir, borrow } = await resolvePair(baseRepo, base, head, across);
  const page = await diffPageThreeDot(gitDir, baseId, headId, { ...pageOptions(filter), borrow });
  const lfs = { gitDir, borrow, repoIds: [...new Set([baseRepo.id, headRepo.id])] };
  return { ...(await withLfsPage(db, lfs, page)), baseSha: baseId, headSha: headId };
}
