/**
 * The client's network address, for per-IP limits (sign-in, sign-up, git process caps).
 *
 * svc's own HTTP server (scripts/server.mjs, what `npm start` runs) writes the address it accepted
 * the connection from into `X-Forwarded-For`, replacing whatever the client sent, so the header
 * cannot be forged. Behind a reverse proxy, TRUST_PROXY=1 makes the server take the address the
 * proxy appended instead (the right-most entry). In-process test servers play the server's part
 * and may set the header themselves.
 */

/** The caller's IP address (as text), or "unknown" when the request carries none. */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const first = forwarded?.split(",")[0]?.trim();
  if (!first) return "unknown";
  // IPv4-mapped IPv6 ("::ffff:127.0.0.1") and the plain IPv4 address are one client.
  return first.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1").slice(0, 64);
}
