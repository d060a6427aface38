/**
 * A repository's LFS storage quota and usage (docs/lfs.md "Quota"). Usage is the sum of the sizes
 * of the objects the repository references (LfsRepoObject rows, uploads and objects inherited from
 * the parent of a fork), whether or not another repository shares them. The quota is
 * Repository.lfsQuotaBytes, or the SVC_LFS_QUOTA_MB default (config.lfs.quotaBytes) when null.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { getConfig } from "@/server/config";

/** Usage and quota of repository `repoId`, in bytes. */
export interface LfsUsage {
  usedBytes: number;
  quotaBytes: number;
}

/** The LFS usage and quota of `repoId` (bytes). A repository that does not exist has usage 0 and the default quota. */
export async function lfsUsage(db: Db | Tx, repoId: string): Promise<LfsUsage> {
  const [sum, repo] = await Promise.all([
    db.lfsObject.aggregate({ _sum: { size: true }, where: { repos: { some: { repoId } } } }),
    db.repository.findUnique({ where: { id: repoId }, select: { lfsQuotaBytes: true } }),
  ]);
  const usedBytes = Number(sum._sum.size ?? 0);
  const quotaBytes = repo?.lfsQuotaBytes != null ? Number(repo.lfsQuotaBytes) : getConfig().lfs.quotaBytes;
  return { usedBytes, quotaBytes };
}

/** "1.5 GiB" style size for messages. */
export function formatSize(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${bytes} bytes` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/**
 * Why an object of `size` bytes cannot be added to a repository with `usage`, or null when it
 * fits: larger than the per-object limit (config.lfs.maxObjectBytes) or over the quota.
 */
export function sizeProblem(size: number, usage: LfsUsage, maxObjectBytes = getConfig().lfs.maxObjectBytes): string | null {
  if (size > maxObjectBytes) return `object is ${formatSize(size)}, larger than the limit of ${formatSize(maxObjectBytes)} per LFS object`;
  if (usage.usedBytes + size > usage.quotaBytes)
    return `LFS quota exceeded: the repository uses ${formatSize(usage.usedBytes)} of its ${formatSize(usage.quotaBytes)} quota and this object needs ${formatSize(size)}`;
  return null;
}
