/**
 * Git smart HTTP. next.config.mjs rewrites `/<owner>/<repo>.git/<path>` here (the `.git` suffix
 * is stripped by the rewrite); server/http/git/smart-http.ts does the work. Node runtime: it spawns
 * git and streams request and response bodies (docs/git-http.md).
 */
import { handleGitHttp } from "@/server/http/git/smart-http";
import { hasMalformedEscape } from "@/server/http/path";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ owner: string; repo: string; path: string[] }> };

async function handler(req: Request, { params }: Params): Promise<Response> {
  // A malformed percent-escape (`/alice/pub.git/%ZZ`) is the client's error (docs/api.md "Errors:
  // no 500 for bad input, nothing internal in an answer"), whatever Next made of the segment; git
  // prints the text body as "remote: …".
  if (hasMalformedEscape(new URL(req.url).pathname)) {
    return new Response("malformed percent-escape in the URL path\n", {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const { owner, repo, path } = await params;
  // Reached directly as /api/git/<owner>/<repo>.git/… the suffix is still there.
  const name = repo.endsWith(".git") ? repo.slice(0, -".git".length) : repo;
  return handleGitHttp(req, owner, name, path.join("/"));
}

// PUT: Git LFS uploads (info/lfs/objects/<oid>/<size>, server/http/lfs).
export { handler as GET, handler as POST, handler as PUT };
