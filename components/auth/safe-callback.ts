/** A base that no real request has, so that only relative URLs keep it. */
const BASE = "http://svc.invalid";

/**
 * A same-origin path to return to after signing in, or "/" (docs/security.md "Redirects after
 * sign-in"). The value is parsed as the browser will parse it — `new URL(value, origin)`, which
 * drops tabs and newlines, so `/%09/evil.example/` (decoded `/\t/evil.example/`) reads as
 * `//evil.example/` — and kept only when the result stays on this origin. Returns the re-serialized
 * path, query and fragment, so no control character or other header-breaking byte survives (a `%0A`
 * in it cannot break a `Location` header).
 */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") || /[\x00-\x20\x7f\\]/.test(path) ? "/" : path;
}
