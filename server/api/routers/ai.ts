/**
 * The ai router (spec "AI router"; docs/ai.md): one part per feature, merged here —
 * ai-status (status), ai-writing (generatePRDescription, summarizeForSquash), ai-search
 * (semanticSearch, searchIndexStatus), ai-chat (chat), ai-code (explainFileDiff,
 * suggestConflictResolution).
 * Rate limits come from server/api/procedure-limits.ts by path; access rows from server/api/access.ts.
 */
import { mergeRouters } from "../trpc";
import { aiStatusRouter } from "./ai-status";
import { aiWritingRouter } from "./ai-writing";
import { aiSearchRouter } from "./ai-search";
import { aiChatRouter } from "./ai-chat";
import { aiCodeRouter } from "./ai-code";

export const aiRouter = mergeRouters(aiStatusRouter, aiWritingRouter, aiSearchRouter, aiChatRouter, aiCodeRouter);
