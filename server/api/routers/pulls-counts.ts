/** pulls router, part: counts (an extension for the list page and the repository header). */
import { z } from "zod";
import { router, repoProcedure } from "../trpc";
import { countPulls } from "@/server/services/pulls/count-pulls";

export const pullsCountsRouter = router({
  /** {repoId, authorId? (UUID)} → {open, closed, merged}: how many pull requests are in each state (read). */
  counts: repoProcedure
    .input(z.object({ authorId: z.string().uuid("authorId must be a user UUID").optional() }))
    .query(({ ctx, input }) => countPulls(ctx.db, ctx.repo.id, input.authorId)),
});
