/**
 * next-auth's routes (sign-in, callbacks, session, sign-out). POST bodies are capped at
 * MAX_BODY_BYTES (1 MiB) like every JSON endpoint: over it → 413 JSON
 * {"error": {"code": "PAYLOAD_TOO_LARGE", "message"}} before next-auth reads anything
 * (docs/api.md "Limits").
 */
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { resolveActor } from "@/server/auth/actor";
import { getAuthOptions } from "@/server/auth/next-auth";
import { OIDC_LINK_COOKIE } from "@/server/services/oidc/link-intent";
import { MAX_BODY_BYTES, PayloadTooLargeError, payloadTooLarge, withBodyLimit } from "@/server/http/body-limit";

export const dynamic = "force-dynamic";

type Handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;
const handler: Handler = async (req, ctx) => {
  const params = await ctx.params;
  const oidcCallback = params.nextauth.join("/") === "callback/oidc";
  const oidcLinkSecret = readCookie(req.headers.get("cookie"), OIDC_LINK_COOKIE);
  // the browser's current session, which an OpenID Connect sign-in of the same user replaces (next-auth.ts)
  const current = oidcCallback ? await resolveActor({ headers: req.headers }).catch(() => null) : null;
  const replaces = current?.fromCookie && current.sessionId ? { sessionId: current.sessionId, userId: current.user.id } : null;
  const options = getAuthOptions({ oidcLinkSecret, userAgent: req.headers.get("user-agent"), replaces });
  const res = (await NextAuth(req as never, { params } as never, options)) as Response;
  // the provider's answer consumed the link intent (server/services/oidc/link-intent.ts): drop its cookie
  if (!oidcLinkSecret || !oidcCallback) return res;
  const headers = new Headers(res.headers);
  headers.append("set-cookie", `${OIDC_LINK_COOKIE}=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax`);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};

/** The value of cookie `name` in a Cookie header, or null. */
function readCookie(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** POST: next-auth with the body read first, at most 1 MiB (next-auth needs a NextRequest: `nextUrl`). */
const post: Handler = async (req, ctx) => {
  let limited: Request;
  try {
    limited = await withBodyLimit(
      req,
      MAX_BODY_BYTES,
      (url, init) => new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]),
    );
  } catch (e) {
    if (e instanceof PayloadTooLargeError) return payloadTooLarge(e);
    throw e;
  }
  return handler(limited, ctx);
};

export { handler as GET, post as POST };
