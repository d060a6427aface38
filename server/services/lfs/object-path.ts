/**
 * Where Git LFS content lives (docs/lfs.md "Storage"): one file per object, content-addressed,
 * at DATA_DIR/lfs/<oid[0:2]>/<oid[2:4]>/<oid> — the layout git-lfs itself uses under
 * .git/lfs/objects — shared by every repository that references the oid (LfsRepoObject rows).
 * Uploads are written under DATA_DIR/lfs/tmp and renamed into place once verified.
 */
import path from "node:path";
import { getConfig } from "@/server/config";
import { isLfsOid } from "@/lib/lfs-pointer";
import { AppError } from "@/server/errors";

/** DATA_DIR/lfs. */
export function lfsRoot(): string {
  return path.join(/* turbopackIgnore: true */ getConfig().dataDir, "lfs");
}

/** The content file of `oid`. Errors: BAD_REQUEST when `oid` is not 64 lower-case hex characters. */
export function lfsObjectPath(oid: string): string {
  if (!isLfsOid(oid)) throw new AppError("BAD_REQUEST", "an LFS object id is 64 lower-case hex characters (SHA-256)");
  return path.join(lfsRoot(), oid.slice(0, 2), oid.slice(2, 4), oid);
}

/** The directory uploads are streamed into before they are verified and renamed (same file system as the objects). */
export function lfsTempDir(): string {
  return path.join(lfsRoot(), "tmp");
}
