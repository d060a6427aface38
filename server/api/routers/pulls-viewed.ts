/** pulls router, part: the caller's "viewed" marks on the Files changed tab (extensions; docs/pulls.md "Pages"). */
import { z } from "zod";
import { text } from "@/server/validation/strings";
import { objectId } from "@/server/validation/ids";
import { router, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { listViewedFiles, setFileViewed } from "@/server/services/pulls/viewed-files";

export const pullsViewedRouter = router({
  /**
   * {prId} → [{path, blobSha, patchId, state: "viewed" | "changed"}]: the files the caller marked
   * viewed ([] when anonymous); "changed" when the file's own change differs since (docs/pulls.md).
   */
  viewedFiles: repoProcedureBy(byPullId).query(({ ctx }) => listViewedFiles(ctx.db, ctx.repo, ctx.actor, ctx.entityId)),

  /**
   * {prId, path, viewed, blobSha? (40 hex, the file's blob the caller saw; null for a deleted
   * file; omitted: the head's)} → {path, viewed}. UNAUTHORIZED when anonymous.
   */
  setFileViewed: repoProcedureBy(byPullId)
    .input(
      z.object({
        path: text("path").min(1, "path is required").max(4096),
        viewed: z.boolean({ error: "viewed must be a boolean" }),
        blobSha: objectId("blobSha", "a blob id").nullable().optional(),
      }),
    )
    .mutation(({ ctx, input }) => setFileViewed(ctx.db, ctx.repo, ctx.actor, ctx.entityId, input)),
});
