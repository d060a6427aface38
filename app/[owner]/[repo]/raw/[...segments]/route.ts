/**
 * GET /<owner>/<repo>/raw/<ref>/<path>: a file's bytes at a ref (the "Raw" button, README images).
 * Same authorization as the API (session cookie, or Bearer/Basic token with repo:read); private
 * repositories the caller cannot read answer 404. Only common image types are served with their
 * own content type; everything else is text/plain or application/octet-stream, always with
 * nosniff and a sandboxing CSP so a file can never run script on this origin.
 */
import { resolveActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import { authorizeRepo } from "@/server/services/repos/access";
import { resolveRef } from "@/server/services/repos";
import { listBranches, readBlobBytes } from "@/server/git/repository";
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

function plain(status: number, message: string): Response {
  return new Response(message + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" } });
}

export async function GET(req: Request, ctx: { params: Promise<{ owner: string; repo: string; segments: string[] }> }): Promise<Response> {
  const params = await ctx.params;
  const [owner, name] = [decodeSegment(params.owner), decodeSegment(params.repo)];
  const segments = params.segments.map(decodeSegment);
  try {
    const actor = await resolveActor(req);
    const repo = await authorizeRepo(await getDb(), actor, { owner, name }, "read");
    const branches = (await listBranches(repo.gitDir)).map((b) => b.name);
    const { ref, path } = splitRefAndPath(branches, segments);
    if (!ref || !path) return plain(404, "not found");
    const { sha } = await resolveRef(repo, ref);
    const bytes = await readBlobBytes(repo.gitDir, sha, path);
    const ext = path.includes(".") ? path.slice(path.lastIndexOf(".") + 1).toLowerCase() : "";
    const isBinary = bytes.subarray(0, 8000).includes(0);
    const type = IMAGE_TYPES[ext] ?? (isBinary ? "application/octet-stream" : "text/plain; charset=utf-8");
    const fileName = path.split("/").pop()!;
    return new Response(new Uint8Array(bytes), {
      status: 200,
      headers: {
        "content-type": type,
        "content-length": String(bytes.length),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
        "cache-control": repo.isPrivate ? "private, no-cache" : "public, max-age=60",
        ...(type === "application/octet-stream" ? { "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}` } : {}),
      },
    });
  } catch (e) {
    if (e instanceof AppError) return plain(httpStatusOf(e.code), e.message);
    throw e;
  }
}
