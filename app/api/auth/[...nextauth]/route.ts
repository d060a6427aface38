/**
 * next-auth's routes (sign-in, callbacks, session, sign-out). POST bodies are capped at
 * MAX_BODY_BYTES (1 MiB) like every JSON endpoint: over it → 413 JSON
 * {"error": {"code": "PAYLOAD_TOO_LARGE", "message"}} before next-auth reads anything
 * (docs/api.md "Limits").
 */
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { getAuthOptions } from "@/server/auth/next-auth";
import { MAX_BODY_BYTES, PayloadTooLargeError, payloadTooLarge, withBodyLimit } from "@/server/http/body-limit";

export const dynamic = "force-dynamic";

type Handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;
const handler: Handler = async (req, ctx) =>
  NextAuth(req as never, { params: await ctx.params } as never, getAuthOptions()) as Promise<Response>;

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
