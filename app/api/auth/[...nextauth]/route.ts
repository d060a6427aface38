import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/next-auth";

export const dynamic = "force-dynamic";

type Handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;
const handler: Handler = async (req, ctx) => NextAuth(req as never, { params: await ctx.params } as never, getAuthOptions()) as Promise<Response>;

export { handler as GET, handler as POST };
