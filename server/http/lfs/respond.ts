/**
 * The answers of the Git LFS endpoints (docs/lfs.md): JSON with the LFS media type, errors as
 * `{"message": …}` (https://github.com/git-lfs/git-lfs/blob/main/docs/api/batch.md "Response
 * Errors"), which git-lfs prints to the user. Never cached.
 */
import { NO_CACHE } from "@/server/http/git/plain-text";

/** The media type of every LFS API request and answer. */
export const LFS_MEDIA_TYPE = "application/vnd.git-lfs+json";

/** A JSON answer with the LFS media type. */
export function lfsJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": LFS_MEDIA_TYPE, ...NO_CACHE, ...headers } });
}

/** An LFS error answer: `{"message": message}` with `status`. */
export function lfsError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return lfsJson(status, { message }, headers);
}

/**
 * The same refusal as a git smart HTTP text answer (server/http/git/authorize.ts), as LFS JSON:
 * status, message and the challenge/redirect headers kept; a Basic challenge is also sent as
 * LFS-Authenticate, which git-lfs reads to ask for credentials.
 */
export async function lfsFromGitAnswer(res: Response): Promise<Response> {
  const message = (await res.text()).trim();
  const headers: Record<string, string> = {};
  const challenge = res.headers.get("www-authenticate");
  if (challenge) {
    headers["www-authenticate"] = challenge;
    headers["lfs-authenticate"] = challenge;
  }
  const location = res.headers.get("location");
  if (location) headers.location = location;
  return lfsError(res.status, message, headers);
}
