/**
 * Percent-decoding of URL path segments for the HTTP handlers: exactly once, and a malformed escape
 * ("%", "%ZZ", "%E0%A4%A": not UTF-8, RFC 3986 2.1) is the client's error, a 400 — never a URIError
 * turned into a 500 (docs/api.md "Errors: no 500 for bad input, nothing internal in an answer").
 */
import { AppError } from "@/server/errors";

/**
 * `raw` (a path segment as sent, still percent-encoded) decoded once. Errors: AppError
 * BAD_REQUEST "<what> has a malformed percent-escape" when decodeURIComponent would throw.
 */
export function decodePathSegment(raw: string, what = "path segment"): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError("BAD_REQUEST", `${what} has a malformed percent-escape`);
  }
}

/** Whether the still-encoded `pathname` has a segment that does not percent-decode (see above). */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** The last segment of `req`'s URL path, still percent-encoded ("" for a trailing slash). */
export function lastRawSegment(req: Request): string {
  const { pathname } = new URL(req.url);
  return pathname.slice(pathname.lastIndexOf("/") + 1);
}
