/**
 * Git LFS objects a pull request from another repository (a fork) brings into its base
 * (docs/lfs.md "Forks"): the contributor's `git push` uploaded them to the source repository, so
 * only the source has LfsRepoObject rows for them; once merged, the base's history holds their
 * pointers and the base must serve them too. Gitea does the same in its merge (services/pull/merge.go
 * `LFSPush`: the head repository's meta objects found in the merged commits are linked to the base).
 *
 * Two steps, so the git work runs before the merge's transaction and the rows are written in it
 * (the base branch never points at a pointer the base cannot serve):
 *   1. `mergedLfsOids`: the pointer oids in the objects the merge brings (`git rev-list --objects`
 *      of the new commits, not the base's tip, blobs under LFS_POINTER_MAX_BYTES only), streamed;
 *   2. `linkMergedLfsObjects`: LfsRepoObject(base, oid) for those of them the source repository
 *      has linked (INSERT … SELECT from the source's rows, ON CONFLICT DO NOTHING: idempotent).
 *
 * No quota check, as for a fork's copy of its parent's rows (services/repos/fork.ts): the objects
 * are already stored, the rows are references, and a merge is not refused for the source's
 * uploads. An object the source never linked (a pointer naming an oid uploaded elsewhere) is not
 * linked: the rule of resolve-lfs-blob.ts (a repository serves only what it references) holds.
 */
import type { Tx } from "@/server/db/transaction";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";
import { LFS_POINTER_MAX_BYTES, parseLfsPointer } from "@/lib/lfs-pointer";
import { SHA_RE } from "@/lib/sha";
import { spawnGit } from "@/server/git/exec";
import { readBlobs } from "@/server/git/objects";

/** Objects (commits and small blobs) `mergedLfsOids` reads from git at most; past it the rest of the range is not looked at. */
export const MAX_MERGED_OBJECTS = 200_000;
/** Distinct pointer oids one merge links at most. */
export const MAX_MERGED_OIDS = 50_000;
/** Oids per INSERT statement. */
const INSERT_CHUNK = 500;
const REV_LIST_TIMEOUT_MS = 5 * 60_000;

/**
 * The ids `git rev-list --objects` prints for `tip --not exclude` with trees and blobs of
 * LFS_POINTER_MAX_BYTES or more filtered out (so: commits and small blobs), at most `max`
 * (`truncated` when git had more). Streamed; memory bounded by `max` ids. Errors: plain Error
 * when git fails or runs past 5 minutes.
 */
function smallObjectsOf(gitDir: string, tip: string, exclude: string, max: number): Promise<{ ids: string[]; truncated: boolean }> {
  const args = ["rev-list", "--objects", "--no-object-names", `--filter=blob:limit=${LFS_POINTER_MAX_BYTES}`, "--filter=object:type=blob"];
  const child = spawnGit([...args, tip, "--not", exclude, "--"], { gitDir, timeoutMs: REV_LIST_TIMEOUT_MS });
  child.stdin.end();
  return new Promise((resolve, reject) => {
    const ids: string[] = [];
    let rest = "";
    let stderr = "";
    let truncated = false;
    const take = (line: string) => {
      if (truncated || !SHA_RE.test(line)) return;
      if (ids.length >= max) {
        truncated = true;
        child.kill("SIGKILL");
        return;
      }
      ids.push(line);
    };
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 8192) stderr += c.toString("utf8");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      const lines = (rest + chunk.toString("latin1")).split("\n");
      rest = lines.pop() ?? "";
      if (rest.length > 200) rest = ""; // never an object id: drop it rather than grow
      for (const l of lines) take(l);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (truncated) return resolve({ ids, truncated });
      take(rest);
      if (code !== 0) return reject(new Error(`git rev-list --objects failed (${code}): ${stderr.trim().slice(0, 500)}`));
      resolve({ ids, truncated });
    });
  });
}

/**
 * The LFS pointer oids (lower-case hex SHA-256, distinct, at most MAX_MERGED_OIDS) in the blobs
 * reachable from commit `tip` and not from commit `exclude`, in bare repository `gitDir`: what a
 * merge whose result is `tip` onto a branch at `exclude` brings (a merge commit brings the head's
 * commits, a squash its one tree, a rebase the rebased commits). Bounded: at most
 * MAX_MERGED_OBJECTS ids from a streamed `rev-list` (trees and blobs of LFS_POINTER_MAX_BYTES or
 * more never listed), contents read by `readBlobs` in runs of bounded size. Errors: plain Error
 * when git fails (a commit missing), or on ids that are not object ids.
 */
export async function mergedLfsOids(gitDir: string, tip: string, exclude: string): Promise<string[]> {
  if (!SHA_RE.test(tip) || !SHA_RE.test(exclude)) throw new Error("mergedLfsOids: object ids expected");
  const { ids, truncated } = await smallObjectsOf(gitDir, tip, exclude, MAX_MERGED_OBJECTS);
  if (truncated)
    console.warn(
      `lfs: merged range ${exclude.slice(0, 12)}..${tip.slice(0, 12)} has more than ${MAX_MERGED_OBJECTS} objects; the rest is not linked`,
    );
  const oids = new Set<string>();
  await readBlobs(gitDir, ids, (_, content) => {
    if (oids.size >= MAX_MERGED_OIDS) return;
    const p = parseLfsPointer(content.toString("utf8"));
    if (p) oids.add(p.oid);
  });
  return [...oids];
}

/**
 * Links to repository `baseRepoId` the objects among `oids` that repository `sourceRepoId` has
 * linked (LfsRepoObject rows; the row's createdAt copied, as a fork's copy does), in ceil(n/500)
 * `INSERT … SELECT … ON CONFLICT DO NOTHING` statements (SQLite and PostgreSQL); rows the base
 * already has stay. Nothing when the two are the same repository or `oids` is empty. No quota
 * check (module comment). Returns the number of rows inserted. Run it in the merge's transaction.
 */
export async function linkMergedLfsObjects(tx: Tx, baseRepoId: string, sourceRepoId: string, oids: readonly string[]): Promise<number> {
  if (baseRepoId === sourceRepoId || oids.length === 0) return 0;
  let inserted = 0;
  for (let i = 0; i < oids.length; i += INSERT_CHUNK) {
    const sql = new Sql(getConfig().provider);
    inserted += await tx.$executeRawUnsafe(
      `INSERT INTO "LfsRepoObject" ("repoId", "oid", "createdAt")
       SELECT ${sql.p(baseRepoId)}, s."oid", s."createdAt" FROM "LfsRepoObject" s
       WHERE s."repoId" = ${sql.p(sourceRepoId)} AND s."oid" IN (${sql.list(oids.slice(i, i + INSERT_CHUNK))})
       ON CONFLICT ("repoId", "oid") DO NOTHING`,
      ...sql.params,
    );
  }
  return inserted;
}
