/** pulls router, part: the list page's and repository page's extensions: counts and recentBranches. */
import { z } from "zod";
import { uuid } from "@/server/validation/ids";
import { router, repoProcedure } from "../trpc";
import { countPulls } from "@/server/services/pulls/count-pulls";
import { recentlyPushedBranches } from "@/server/services/pulls/recent-branches";

export const pullsCountsRouter = router({
  /** {repoId, authorId? (UUID)} → {open, closed, merged}: how many pull requests are in each state (read). */
  counts: repoProcedure
    .input(z.object({ authorId: uuid("authorId", "a user UUID").optional() }))
    .query(({ ctx, input }) => countPulls(ctx.db, ctx.repo.id, input.authorId)),

  /** {repoId} → [{name, pushedAt}]: branches pushed in the last hour without an open pull request (the "Compare & pull request" banner); [] below write permission. */
  recentBranches: repoProcedure.query(({ ctx }) => recentlyPushedBranches(ctx.db, ctx.repo)),
});
