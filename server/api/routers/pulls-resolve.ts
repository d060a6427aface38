/**
 * pulls router, part: resolving conflicts in the browser (GitHub's web conflict editor;
 * docs/pulls.md "Conflicts"). A read-level row with scope repo:write, as
 * applySuggestion: the service needs write permission on the repository holding the source
 * branch (a fork for cross-repository pull requests).
 */
import { z } from "zod";
import { text } from "@/server/validation/strings";
import { objectId } from "@/server/validation/ids";
import { router, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { MAX_RESOLVED_FILES, resolveConflicts } from "@/server/services/pulls/resolve-conflicts";

const file = z.object({
  path: text("files[].path").min(1, "files[].path cannot be empty").max(4096, "files[].path is longer than 4096 characters"),
  content: text("files[].content").max(1024 * 1024, "files[].content is longer than 1 MiB"),
});

export const pullsResolveRouter = router({
  /** {prId, files: [{path, content}] (1–300), expectedHeadSha} → {success, commitSha, message} (extension). */
  resolveConflicts: repoProcedureBy(byPullId)
    .input(
      z.object({
        files: z
          .array(file, { error: "files must be a list of {path, content}" })
          .min(1, "files names at least one file")
          .max(MAX_RESOLVED_FILES, `files names at most ${MAX_RESOLVED_FILES} files`),
        expectedHeadSha: objectId("expectedHeadSha"),
      }),
    )
    .mutation(({ ctx, input }) => resolveConflicts(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),
});
