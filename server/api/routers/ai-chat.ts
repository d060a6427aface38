/**
 * ai router, part: chat about a repository's code (spec "AI router" ai.chat; docs/ai.md "Chat
 * (`ai.chat`) and the Ask panel"). Read access (private → NOT_FOUND; token scope repo:read) and a
 * signed-in caller, as the writing helpers (a model call may spend the repository's key). 30 a
 * minute per user (server/api/procedure-limits.ts).
 */
import { chatAboutCode, chatInput } from "@/server/services/ai/chat";
import { repoProcedure, router } from "../trpc";
import { signedIn } from "./ai-writing";

export const aiChatRouter = router({
  /**
   * {repoId, message, history?: [{role, content}], context?: {files?, branch?}} → {response
   * (Markdown), references: [{path, lines: {start, end}, relevance (0–1)}], engine}.
   * NOT_FOUND for an unknown branch; SERVICE_UNAVAILABLE when the model fails.
   */
  chat: repoProcedure
    .use(signedIn)
    .input(chatInput)
    .mutation(({ ctx, input }) => chatAboutCode(ctx.db, ctx.actor, ctx.repo, input)),
});
