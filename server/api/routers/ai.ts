/**
 * ai router (spec "AI router"; issue #10), merged from parts that each own one concern:
 * ai-writing (generatePRDescription, summarizeForSquash). Each procedure has its row in
 * server/api/access.ts.
 */
import { mergeRouters } from "../trpc";
import { aiWritingRouter } from "./ai-writing";

export const aiRouter = mergeRouters(aiWritingRouter);
