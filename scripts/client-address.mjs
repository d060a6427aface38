// The X-Forwarded-For value svc's own server (scripts/server.mjs) hands to the app, which reads
// the caller's address from it (server/http/client-address.ts clientAddress: per-IP limits).
// Next's own `next start` only fills the header when the client sent none
// (node_modules/next/dist/server/base-server.js: `req.headers['x-forwarded-for'] ??= …`), so a
// client could forge its address; svc's server always overwrites it.

/**
 * The X-Forwarded-For value to pass on.
 *
 * - Direct (default): the socket's remote address; whatever the client sent is dropped.
 * - Behind one trusted reverse proxy (`trustProxy`, TRUST_PROXY=1): the right-most entry of the
 *   incoming header, i.e. the address the proxy itself appended (entries left of it were sent by
 *   the client and can be forged); the socket address when the header is missing or empty.
 *
 * @param {string | string[] | undefined} incoming X-Forwarded-For as Node parsed it (repeated headers joined with ", ", or an array)
 * @param {string | undefined} socketAddress `req.socket.remoteAddress` (undefined once the socket is gone)
 * @param {boolean} trustProxy whether a trusted proxy sits in front (TRUST_PROXY=1)
 * @returns {string | undefined} the single address to set, or undefined when none is known (delete the header)
 */
export function forwardedFor(incoming, socketAddress, trustProxy) {
  if (trustProxy) {
    const joined = Array.isArray(incoming) ? incoming.join(",") : (incoming ?? "");
    const last = joined
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  return socketAddress || undefined;
}

/**
 * Whether TRUST_PROXY asks to trust one reverse proxy: "1" or "true" (any case); anything else,
 * including unset, means no.
 * @param {string | undefined} value the TRUST_PROXY environment variable
 * @returns {boolean}
 */
export function trustProxyFrom(value) {
  return /^(1|true)$/i.test((value ?? "").trim());
}
