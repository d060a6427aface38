/**
 * Next 16 proxy (Next's middleware file): a nonce-based Content-Security-Policy for every page
 * (server/http/security-headers.ts; docs/security.md "Security headers"). Next reads the policy
 * from the request header and puts the nonce on its own scripts; the same policy goes on the
 * response.
 *
 * The matcher leaves out everything that is not a page: API routes (/api, /trpc), static assets,
 * raw files (their own CSP) and — above all — git smart HTTP (`/<owner>/<repo>.git/…`): a proxy
 * in front of a route makes Next buffer the request body, which would cut pushes at 10 MB
 * (docs/architecture.md).
 */
import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageCsp } from "@/server/http/security-headers";

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = pageCsp(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  // the page's path for not-found pages, which get no params (app/not-found.tsx: "Sign in" back here)
  headers.set("x-svc-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|trpc/|_next/static|_next/image|favicon\\.ico|[^/]+/[^/]+\\.git(?:/|$)|[^/]+/[^/]+/raw/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
