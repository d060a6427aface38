/**
 * Security headers (docs/security.md "Security headers"). Two parts:
 *   - every response (pages, API, git, raw files, static assets) gets SECURITY_HEADERS from
 *     next.config.mjs `headers()`: nosniff, a referrer policy, a permissions policy, and
 *     `X-Frame-Options: DENY` for browsers without CSP frame-ancestors;
 *   - pages get a nonce-based Content-Security-Policy from proxy.ts, a fresh nonce per request,
 *     as Next documents ("Content Security Policy", Adding a nonce with Proxy); API responses
 *     get API_CSP (they are data, never documents to run). The raw-file route sets its own
 *     sandboxing CSP.
 * Pure data and functions: imported by proxy.ts and mirrored by next.config.mjs (which cannot
 * import TypeScript); test/unit/security-headers.test.ts checks that the two agree.
 */

/** Headers on every response. Referrer: only the origin leaves for other sites (private repository paths never do). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  "X-Frame-Options": "DENY",
};

/** CSP of API responses (JSON, git protocol, text): nothing may load or run, nothing may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The page CSP for one request's `nonce` (base64). Scripts: only Next's own, which carry the
 * nonce, and what they load ('strict-dynamic'); `'unsafe-eval'` only in development (React's dev
 * tools need it). Styles allow inline style attributes (syntax highlighting colours them), so no
 * nonce there (a nonce would disable 'unsafe-inline'). Images may come from https sites (README
 * badges), as on GitHub and Gitea. No framing anywhere: clickjacking of settings pages.
 */
export function pageCsp(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh nonce: 16 random bytes, base64 (Web Crypto, so it runs wherever proxy.ts runs). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
