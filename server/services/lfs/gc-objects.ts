/**
 * Git LFS garbage collection, the `lfs.gc` job (docs/lfs.md "Garbage collection"): deletes the
 * LfsObject rows no repository references any more (a repository's LfsRepoObject rows go with
 * it by cascade when it is deleted) and their files, and upload leftovers in DATA_DIR/lfs/tmp.
 * Queued after every repository deletion (delete-repository.ts) and daily (`scheduleLfsGc`,
 * started with the server; each daily run queues the next).
 *
 * The race with an upload of the same oid: an upload, in one transaction, creates (or refreshes
 * the createdAt of) the LfsObject row, links it and renames its verified file into place before
 * committing (store-object.ts). GC only considers rows older than the grace period (LFS_GC_GRACE_MS,
 * 1 hour), deletes each with one conditional statement (still unreferenced, still old: a row an
 * upload refreshed or linked meanwhile survives), and unlinks the file only when its mtime is also
 * older than the grace period (an upload that just renamed its copy into place keeps it; its
 * transaction then re-creates the row). The window left is an upload renaming its file between
 * GC's stat and unlink (microseconds, for an object nobody referenced for an hour); a client that
 * loses it gets a 404 on download and pushes again.
 */
import { readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/server/db";
import { enqueue } from "@/server/jobs";
import { LFS_GC } from "@/server/jobs/names";
import { lfsObjectPath, lfsTempDir } from "./object-path";

/** Objects younger than this (ms, 1 hour) are never collected; also the age of a stale upload leftover. */
export const LFS_GC_GRACE_MS = 60 * 60 * 1000;
/** Daily runs. */
const GC_PERIOD_MS = 24 * 60 * 60 * 1000;
const PAGE = 500;

/** What one run removed. */
export interface LfsGcOutcome {
  objects: number;
  bytes: number;
  leftovers: number;
}

async function olderThan(file: string, cutoffMs: number): Promise<boolean> {
  return stat(file).then(
    (s) => s.mtimeMs < cutoffMs,
    () => false,
  );
}

/**
 * Deletes unreferenced LFS objects older than `graceMs` (rows and files) and `.part` upload
 * leftovers older than `graceMs`. Returns the counts. Errors: database errors.
 */
export async function collectLfsGarbage(db: Db, graceMs = LFS_GC_GRACE_MS, nowMs = Date.now()): Promise<LfsGcOutcome> {
  const cutoff = new Date(nowMs - graceMs);
  const out: LfsGcOutcome = { objects: 0, bytes: 0, leftovers: 0 };
  let after = "";
  for (;;) {
    const page = await db.lfsObject.findMany({
      where: { oid: { gt: after }, createdAt: { lt: cutoff }, repos: { none: {} } },
      select: { oid: true, size: true },
      orderBy: { oid: "asc" },
      take: PAGE,
    });
    for (const { oid, size } of page) {
      const { count } = await db.lfsObject.deleteMany({ where: { oid, createdAt: { lt: cutoff }, repos: { none: {} } } });
      if (count === 0) continue;
      out.objects++;
      out.bytes += Number(size);
      const file = lfsObjectPath(oid);
      if (await olderThan(file, cutoff.getTime() + 1)) await unlink(file).catch(() => {});
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.oid;
  }
  const tmp = lfsTempDir();
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    const file = path.join(tmp, name);
    if (name.endsWith(".part") && (await olderThan(file, cutoff.getTime()))) {
      await unlink(file).catch(() => {});
      out.leftovers++;
    }
  }
  return out;
}

/** Queues an `lfs.gc` run: now (singleton "now", after a deletion) or the daily one at `runAt` (singleton "daily"). */
export async function scheduleLfsGc(runAt?: Date): Promise<void> {
  if (runAt) await enqueue(LFS_GC, { daily: true }, { singletonKey: "daily", runAt });
  else await enqueue(LFS_GC, { daily: false }, { singletonKey: "now" });
}

/** The `lfs.gc` job: a daily run first queues the next one (a day later), then collects. */
export async function runLfsGc(db: Db, daily: boolean): Promise<LfsGcOutcome> {
  if (daily) await scheduleLfsGc(new Date(Date.now() + GC_PERIOD_MS));
  return collectLfsGarbage(db);
}
