/**
 * The page CSP (docs/security.md "Security headers") and that next.config.mjs sends the same headers
 * as server/http/security-headers.ts.
 */
import { describe, expect, it } from "vitest";
import { API_CSP, SECURITY_HEADERS, newNonce, pageCsp } from "@/server/http/security-headers";
// @ts-expect-error next.config.mjs is plain JavaScript (Next reads it as is); its shape is checked below
import nextConfig from "@/next.config.mjs";

describe("security headers", () => {
  it("page CSP: nonce scripts only, no framing, no plugins, eval only in development", () => {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(nonce);
    const csp = pageCsp(nonce);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(pageCsp(nonce, true)).toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it("next.config.mjs sends SECURITY_HEADERS everywhere and API_CSP on API and git paths", async () => {
    const rules = await (
      nextConfig as { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> }
    ).headers();
    const all = rules.find((r) => r.source === "/:path*")!;
    expect(Object.fromEntries(all.headers.map((h) => [h.key, h.value]))).toEqual(SECURITY_HEADERS);
    for (const source of ["/api/:path*", "/trpc/:path*", "/:owner/:repo([^/]+)\\.git/:path*"]) {
      expect(rules.find((r) => r.source === source)?.headers).toEqual([{ key: "Content-Security-Policy", value: API_CSP }]);
    }
  });
});
