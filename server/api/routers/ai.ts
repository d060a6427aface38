/**
 * ai router (issue #10; spec "AI router"). Each part lives in its own file; this one merges them.
 */
import { mergeRouters } from "../trpc";
import { aiSearchRouter } from "./ai-search";

export const aiRouter = mergeRouters(aiSearchRouter);
