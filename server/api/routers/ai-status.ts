/** ai.status (spec "AI router"; docs/ai.md "Status"): public; with repoId the service authorizes read. */
import { z } from "zod";
import { router, publicProcedure, repoIdSchema } from "../trpc";
import { aiStatus } from "@/server/services/ai/status";

export const aiStatusRouter = router({
  /** {repoId?} → {available, providers, features, engines, engine, source}. */
  status: publicProcedure
    .input(z.object({ repoId: repoIdSchema.optional() }).optional())
    .query(({ ctx, input }) => aiStatus(ctx.db, ctx.actor, input?.repoId)),
});
