/**
 * The Git LFS server (docs/lfs.md), reached through git smart HTTP's route for every path under
 * `/<owner>/<repo>.git/info/lfs/` (smart-http.ts hands it here). Routes:
 *
 *   POST objects/batch, GET objects/<oid>, PUT objects/<oid>/<size>, POST verify   ./objects.ts
 *   GET  locks, POST locks, POST locks/verify, POST locks/<id>/unlock              (below)
 *
 * Access (./authorize.ts): download, GET objects and listing locks need read; upload, PUT, verify
 * and every lock change need write. Errors are LFS JSON `{message}` (./respond.ts).
 */
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import { atLeast } from "@/server/services/repos/access";
import { checkLockPath, createLfsLock, listLfsLocks, lockPageSize, unlockLfsLock, verifyLfsLocks } from "@/server/services/lfs/locks";
import { authorizeLfs, type LfsAccess } from "./authorize";
import { answerBatch, downloadObject, readLfsJson, uploadObject, verifyObject } from "./objects";
import { lfsError, lfsJson } from "./respond";

function refNameOf(body: Record<string, unknown>): string | null {
  const ref = body.ref as { name?: unknown } | undefined;
  return ref && typeof ref.name === "string" ? ref.name.slice(0, 1024) : null;
}

async function locks(req: Request, access: LfsAccess, sub: string[], body: Record<string, unknown> | null): Promise<Response> {
  const db = await getDb();
  const userId = access.actor?.user.id ?? null;
  if (req.method === "GET" && sub.length === 0) {
    const q = new URL(req.url).searchParams;
    return lfsJson(
      200,
      await listLfsLocks(db, access.repo.id, {
        path: q.get("path") ?? undefined,
        id: q.get("id") ?? undefined,
        cursor: q.get("cursor") ?? undefined,
        limit: lockPageSize(q.get("limit")),
      }),
    );
  }
  const b = body ?? {};
  if (sub.length === 1 && sub[0] === "verify") {
    const cursor = typeof b.cursor === "string" && b.cursor ? b.cursor : undefined;
    return lfsJson(200, await verifyLfsLocks(db, access.repo.id, userId, { cursor, limit: lockPageSize(b.limit) }));
  }
  if (!userId) return lfsError(403, "LFS locks belong to users: a deploy key cannot take or release them");
  if (sub.length === 0) {
    const result = await createLfsLock(db, access.repo.id, userId, checkLockPath(b.path), refNameOf(b));
    if ("existing" in result) return lfsJson(409, { lock: result.existing, message: "already created lock" });
    return lfsJson(201, { lock: result.lock });
  }
  if (sub.length === 2 && sub[1] === "unlock") {
    const lock = await unlockLfsLock(db, access.repo.id, sub[0]!, userId, b.force === true, atLeast(access.repo.permission, "admin"));
    return lfsJson(200, { lock });
  }
  return lfsError(404, "not found");
}

/**
 * Serves one LFS request; `path` is the part after `info/lfs/` (e.g. "objects/batch"), `rest`
 * the part after `.git/` (for redirects of transferred repositories).
 */
export async function handleLfs(req: Request, owner: string, name: string, path: string, rest: string): Promise<Response> {
  try {
    const method = req.method.toUpperCase();
    const parts = path.split("/").filter(Boolean);
    if (parts[0] === "objects" && parts[1] === "batch" && parts.length === 2) {
      if (method !== "POST") return lfsError(405, "use POST for the batch API", { allow: "POST" });
      const body = await readLfsJson(req);
      if (body instanceof Response) return body;
      if (body.operation !== "download" && body.operation !== "upload") return lfsError(422, '"operation" must be "download" or "upload"');
      const access = await authorizeLfs(req, owner, name, body.operation === "upload" ? "write" : "read", rest);
      return access instanceof Response ? access : await answerBatch(access, body);
    }
    if (parts[0] === "objects" && (parts.length === 2 || parts.length === 3)) {
      if (method === "GET" && parts.length === 2) {
        const access = await authorizeLfs(req, owner, name, "read", rest);
        return access instanceof Response ? access : await downloadObject(req, access, parts[1]!);
      }
      if (method === "PUT" && parts.length === 3) {
        const access = await authorizeLfs(req, owner, name, "write", rest);
        return access instanceof Response ? access : await uploadObject(req, access, parts[1]!, parts[2]!);
      }
      return lfsError(405, "use GET objects/<oid> to download or PUT objects/<oid>/<size> to upload");
    }
    if (parts.length === 1 && parts[0] === "verify") {
      if (method !== "POST") return lfsError(405, "use POST for verify", { allow: "POST" });
      const access = await authorizeLfs(req, owner, name, "write", rest);
      if (access instanceof Response) return access;
      const body = await readLfsJson(req);
      return body instanceof Response ? body : await verifyObject(access, body);
    }
    if (parts[0] === "locks") {
      const sub = parts.slice(1);
      const isList = method === "GET" && sub.length === 0;
      if (!isList && method !== "POST") return lfsError(405, "use GET to list locks and POST to change them");
      const access = await authorizeLfs(req, owner, name, isList ? "read" : "write", rest);
      if (access instanceof Response) return access;
      const body = isList ? null : await readLfsJson(req);
      if (body instanceof Response) return body;
      return await locks(req, access, sub, body);
    }
    return lfsError(404, "not found: svc serves the LFS batch, transfer and locking APIs under info/lfs/");
  } catch (e) {
    if (e instanceof AppError) return lfsError(httpStatusOf(e.code), e.message);
    console.error("git LFS request failed", e);
    return lfsError(500, "internal error");
  }
}
