/**
 * ai router (spec "AI router"; issue #10), merged from parts: ai-code (explainFileDiff,
 * suggestConflictResolution). Each procedure has its row in server/api/access.ts.
 */
import { mergeRouters } from "../trpc";
import { aiCodeRouter } from "./ai-code";

export const aiRouter = mergeRouters(aiCodeRouter);
