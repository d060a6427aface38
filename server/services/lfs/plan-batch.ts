/**
 * The answer of the LFS batch API for one repository (docs/lfs.md "Batch API";
 * https://github.com/git-lfs/git-lfs/blob/main/docs/api/batch.md): per object, the actions the
 * client should take or an error with its code.
 *
 *   download  referenced by the repository and present → `download` action; else error 404.
 *   upload    already referenced → no actions (the client skips it); else, when it fits the
 *             per-object limit and the repository's quota (counting the objects of this batch
 *             in order) → `upload` + `verify` actions; else error 422 (limit) or 507 (quota).
 *   either    an oid that is not 64 lower-case hex or a size that is not a whole number → 422.
 *
 * An object stored for another repository is never linked to this one without an upload: the
 * upload (a hash check) proves the client has the content, so an oid alone never reveals a
 * private repository's file.
 */
import type { Db } from "@/server/db";
import { isLfsOid } from "@/lib/lfs-pointer";
import { lfsUsage, sizeProblem } from "./quota";

export type BatchOperation = "download" | "upload";

export interface BatchObjectIn {
  oid: unknown;
  size: unknown;
}

export interface BatchAction {
  href: string;
  header?: Record<string, string>;
  expires_in?: number;
}

export interface BatchObjectOut {
  oid: string;
  size: number;
  authenticated?: boolean;
  actions?: Partial<Record<"download" | "upload" | "verify", BatchAction>>;
  error?: { code: number; message: string };
}

/** Where the transfers go: the repository's LFS base URL (`…/<owner>/<repo>.git/info/lfs`) and the headers to send. */
export interface TransferTarget {
  baseHref: string;
  header: Record<string, string>;
  expiresIn: number;
}

/** The batch answer's objects for `objects`, in order. */
export async function planBatch(
  db: Db,
  repoId: string,
  operation: BatchOperation,
  objects: BatchObjectIn[],
  target: TransferTarget,
): Promise<BatchObjectOut[]> {
  const valid = objects.filter((o) => typeof o.oid === "string" && isLfsOid(o.oid)).map((o) => o.oid as string);
  const referenced = new Set(
    (await db.lfsRepoObject.findMany({ where: { repoId, oid: { in: valid } }, select: { oid: true } })).map((r) => r.oid),
  );
  const usage = operation === "upload" ? await lfsUsage(db, repoId) : null;
  const planned = new Set<string>();
  const action = (href: string): BatchAction => ({ href, header: target.header, expires_in: target.expiresIn });
  return objects.map((o): BatchObjectOut => {
    const oid = typeof o.oid === "string" ? o.oid.slice(0, 200) : "";
    const size = typeof o.size === "number" ? o.size : -1;
    if (!isLfsOid(oid)) return { oid, size, error: { code: 422, message: "the object id must be 64 lower-case hex characters (SHA-256)" } };
    if (!Number.isSafeInteger(size) || size < 0)
      return { oid, size, error: { code: 422, message: "the object size must be a non-negative whole number of bytes" } };
    const objectHref = `${target.baseHref}/objects/${oid}`;
    if (operation === "download") {
      if (!referenced.has(oid)) return { oid, size, error: { code: 404, message: "object does not exist in this repository" } };
      return { oid, size, authenticated: true, actions: { download: action(objectHref) } };
    }
    if (referenced.has(oid) || planned.has(oid)) return { oid, size };
    const problem = sizeProblem(size, usage!);
    if (problem) return { oid, size, error: { code: problem.startsWith("LFS quota") ? 507 : 422, message: problem } };
    usage!.usedBytes += size;
    planned.add(oid);
    return {
      oid,
      size,
      authenticated: true,
      actions: { upload: action(`${objectHref}/${size}`), verify: action(`${target.baseHref}/verify`) },
    };
  });
}
