/**
 * GET /<owner>/<repo>/raw/<ref>/<path>: a file's bytes at a ref (the "Raw" button, README images;
 * `?download=1` adds Content-Disposition: attachment, for the Download button).
 * Same authorization as the API (session cookie, or Bearer/Basic token with repo:read); private
 * repositories the caller cannot read answer 404; a transferred repository's former path answers
 * 301 to the same file under its new path (to those who can read it). Only common image types are served with their
 * own content type; everything else is text/plain or application/octet-stream, always with
 * nosniff and a sandboxing CSP so a file can never run script on this origin. Files of any size
 * download with flat memory: the body is streamed from git (docs/api.md "Limits"). A Git LFS
 * pointer whose object the repository references downloads as the object, streamed from its
 * content file (`?lfs=0`: the pointer itself; docs/lfs.md "In the browser").
 */
import { resolveActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import { authorizeRepo } from "@/server/services/repos/access";
import { findRedirect, redirectPath } from "@/server/services/repos/redirects";
import { resolveRef } from "@/server/services/repos/resolve-ref";
import { BINARY_SNIFF_BYTES, listBranches, looksBinary, openBlob } from "@/server/git/repository";
import { LFS_POINTER_MAX_BYTES } from "@/lib/lfs-pointer";
import { lfsObjectStream, readLfsHead, resolveLfsBlob } from "@/server/services/lfs/resolve-lfs-blob";
import { acquireGitSlot, gitClientKey } from "@/server/http/git/process-gate";
import { gitHttpLimits } from "@/server/http/git/http-limits";
import { clientAddress } from "@/server/http/client-address";
import { decodeSegment, splitRefAndPath } from "@/components/code/resolve";

export const dynamic = "force-dynamic";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  svg: "image/svg+xml",
};

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", ...headers },
  });
}

type Ctx = { params: Promise<{ owner: string; repo: string; segments: string[] }> };

/**
 * Streams the blob (bounded memory; docs/performance.md "Blob memory"): `git cat-file blob` piped
 * to the response with backpressure, Content-Length from the blob's size, git killed when the
 * client goes away; only the first 8000 bytes are read before the headers (binary or text decides
 * the content type). `withBody` false (HEAD) sends the same headers and stops git at once.
 */
async function serve(req: Request, ctx: Ctx, withBody: boolean): Promise<Response> {
  const params = await ctx.params;
  const [owner, name] = [decodeSegment(params.owner), decodeSegment(params.repo)];
  const segments = params.segments.map(decodeSegment);
  try {
    const actor = await resolveActor(req);
    const db = await getDb();
    let repo;
    try {
      repo = await authorizeRepo(db, actor, { owner, name }, "read");
    } catch (e) {
      // a transferred repository's former path: the same file under the new one (docs/orgs.md)
      const to = e instanceof AppError && e.code === "NOT_FOUND" ? await findRedirect(db, actor, owner, name) : null;
      if (!to) throw e;
      const url = new URL(req.url);
      return new Response(null, { status: 301, headers: { location: `${redirectPath(url.pathname, 0, to)}${url.search}` } });
    }
    const branches = (await listBranches(repo.gitDir)).map((b) => b.name);
    const { ref, path } = splitRefAndPath(branches, segments);
    if (!ref || !path) return plain(404, "not found");
    const { sha } = await resolveRef(repo, ref);
    // the download's `git cat-file` counts against the same process caps as git smart HTTP
    const slot = await acquireGitSlot(gitClientKey(actor?.user.id, clientAddress(req.headers)), req.signal);
    if (!slot) {
      const retry = gitHttpLimits().retryAfterS;
      return plain(503, `svc is busy: too many git operations are running; try again in ${retry} s`, { "retry-after": String(retry) });
    }
    let blob;
    try {
      blob = await openBlob(repo.gitDir, sha, path, { idleMs: gitHttpLimits().downloadIdleMs, onExit: slot.release });
    } catch (e) {
      slot.release();
      throw e;
    }
    // a Git LFS pointer the repository serves downloads as its object (docs/lfs.md "In the browser")
    let body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> = blob.body;
    let [size, isBinary] = [blob.size, blob.isBinary];
    if (blob.size < LFS_POINTER_MAX_BYTES && !blob.isBinary) {
      const pointer = new Uint8Array(await new Response(blob.body).arrayBuffer());
      body = pointer;
      const lfs = new URL(req.url).searchParams.get("lfs") === "0" ? null : await resolveLfsBlob(db, repo.id, Buffer.from(pointer));
      if (lfs) {
        const head = await readLfsHead(lfs, BINARY_SNIFF_BYTES);
        [size, isBinary] = [lfs.size, looksBinary(head)];
        body = withBody ? lfsObjectStream(lfs, req.signal) : new Uint8Array();
      }
    } else if (!withBody) await blob.body.cancel();
    const ext = path.includes(".") ? path.slice(path.lastIndexOf(".") + 1).toLowerCase() : "";
    const type = IMAGE_TYPES[ext] ?? (isBinary ? "application/octet-stream" : "text/plain; charset=utf-8");
    const fileName = path.split("/").pop()!;
    return new Response(withBody ? body : null, {
      status: 200,
      headers: {
        "content-type": type,
        "content-length": String(size),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
        "cache-control": repo.isPrivate ? "private, no-cache" : "public, max-age=60",
        // ?download=1 (the file view's Download button) asks for an attachment whatever the type
        ...(type === "application/octet-stream" || new URL(req.url).searchParams.get("download") === "1"
          ? { "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}` }
          : {}),
      },
    });
  } catch (e) {
    if (e instanceof AppError) return plain(httpStatusOf(e.code), e.message);
    throw e;
  }
}

export function GET(req: Request, ctx: Ctx): Promise<Response> {
  return serve(req, ctx, true);
}

export function HEAD(req: Request, ctx: Ctx): Promise<Response> {
  return serve(req, ctx, false);
}
