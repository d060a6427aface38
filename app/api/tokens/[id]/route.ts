import { deleteToken } from "@/server/http/tokens";

export const dynamic = "force-dynamic";
export async function DELETE(req: Request, ctx: { params: Promise<{ id: string }> }) {
  return deleteToken(req, (await ctx.params).id);
}
