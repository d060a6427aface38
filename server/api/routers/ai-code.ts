/**
 * ai router, part: the code helpers (spec "AI router" rows explainFileDiff and
 * suggestConflictResolution; docs/ai.md).
 * Read-level rows (server/api/access.ts): they read nothing but what the caller sends, in a
 * repository the caller can read (its AI engine and key). Anonymous callers get the local engine
 * (a model call may spend the repository's key: server/services/ai/budget.ts). Every answer
 * carries `engine`.
 */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { router, repoProcedure } from "../trpc";
import { explainFileDiff } from "@/server/services/ai/explain-file-diff";
import { suggestConflictResolution } from "@/server/services/ai/suggest-conflict-resolution";

/** Characters per content field at most at the edge; the services bound bytes (1 MiB). */
const MAX_CHARS = 1024 * 1024;
const content = (field: string) => text(field).max(MAX_CHARS, `${field} is longer than ${MAX_CHARS} characters (at most 1 MiB)`);
const path = text("path").min(1, "path cannot be empty").max(4096, "path is longer than 4096 characters");
const short = (field: string) => text(field).max(65_536, `${field} is longer than 65536 characters`).optional();

export const aiCodeRouter = router({
  /** {repoId, prId?, path, oldContent, newContent, context?} → {summary, explanation, impact, suggestions?, concerns?, engine} (spec). */
  explainFileDiff: repoProcedure
    .input(
      z.object({
        prId: uuid("prId", "a pull request UUID").optional(),
        path,
        oldContent: content("oldContent"),
        newContent: content("newContent"),
        context: z
          .object({ commitMessage: short("context.commitMessage"), prTitle: short("context.prTitle"), prBody: short("context.prBody") })
          .optional(),
      }),
    )
    .mutation(({ ctx, input }) => explainFileDiff(ctx.db, ctx.actor, ctx.repo, input)),
  /** {repoId, path, ours, theirs, base, context?} → {resolved, explanation, confidence, alternatives?, warnings?, engine} (spec). */
  suggestConflictResolution: repoProcedure
    .input(
      z.object({
        path,
        ours: content("ours"),
        theirs: content("theirs"),
        base: content("base"),
        context: z
          .object({
            ourBranch: line("context.ourBranch").max(255).optional(),
            theirBranch: line("context.theirBranch").max(255).optional(),
            commitMessages: z
              .array(text("context.commitMessages[]").max(65_536))
              .max(250, "context.commitMessages has at most 250 entries")
              .optional(),
          })
          .optional(),
      }),
    )
    .mutation(({ ctx, input }) => suggestConflictResolution(ctx.db, ctx.actor, ctx.repo, input)),
});
