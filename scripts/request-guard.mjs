// Requests svc's server (scripts/server.mjs) answers itself, before Next sees them
// (docs/api.md "Errors: no 500 for bad input, nothing internal in an answer"). Next 16 answers
// 500, unlogged, to a path whose dynamic segment holds a malformed percent-escape
// (`/alice/pub/raw/main/%ZZ`, `/api/trpc/%ZZ`, `/alice/pub.git/%ZZ`): its route matcher fails to
// decode the segment. Such a path names nothing, so it is a client error.

/**
 * Why the request target cannot be served, or null when it is fine.
 * A path (before `?`) must percent-decode as UTF-8 segment by segment: `%` not followed by two hex
 * digits, or escapes that are not UTF-8 (`%FF`, an encoded lone surrogate `%ED%A0%80`), are refused.
 * @param {string | undefined} url the request target as received (`req.url`, e.g. "/a/b?c=d")
 * @returns {string | null} a one-line reason for a 400, or null
 */
export function requestTargetProblem(url) {
  if (!url) return "empty request target";
  const q = url.indexOf("?");
  const pathname = q >= 0 ? url.slice(0, q) : url;
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return "the URL path has a malformed percent-escape (% must be followed by two hex digits encoding UTF-8)";
    }
  }
  return null;
}
