/**
 * agent router (spec "Agent router"; docs/agent.md). Sessions are the caller's own, so
 * the procedures that name a session or a change are user-tier rows and the services find the
 * session (`ownSession`: another user's session, or one in a repository the caller can no longer
 * read, is NOT_FOUND) and authorize its repository; approving also needs write permission there
 * (rows with repo:write). createSession names its repository: repo tier, read.
 * Extensions: proposeChange (edits drafted by hand; the model's tool calls the same service), openPullRequest.
 * chat and chatStream run one model turn (server/services/agent/run-turn.ts); both take the
 * agentChat rate limit (server/api/procedure-limits.ts), shared with POST /api/agent/stream.
 */
import { z } from "zod";
import { router, publicProcedure, authedProcedure, repoProcedure, repoIdSchema } from "../trpc";
import * as s from "@/server/services/agent/schemas";
import { agentStatus, getModes } from "@/server/services/agent/status";
import { createSession, deleteSession, getSession, listSessions, updateSession } from "@/server/services/agent/sessions";
import { getMessages, getPendingChanges } from "@/server/services/agent/list-records";
import { proposeChange } from "@/server/services/agent/propose-change";
import { approveAllChanges, approveChange, rejectChange } from "@/server/services/agent/approve-change";
import { chat } from "@/server/services/agent/chat";
import { prepareAgentTurn } from "@/server/services/agent/run-turn";
import { streamTurn } from "@/server/services/agent/turn-stream";
import { openPullRequest } from "@/server/services/agent/open-pull-request";

export const agentRouter = router({
  /** {repoId?} → {available, providers, defaultProvider?, defaultModel?, env, message?}. */
  status: publicProcedure
    .input(z.object({ repoId: repoIdSchema.optional() }).optional())
    .query(({ ctx, input }) => agentStatus(ctx.db, ctx.actor, input ?? {})),
  /** → pm and code: {id, name, description, capabilities}. */
  getModes: publicProcedure.query(() => getModes()),
  /** {repoId, mode, title?} → the session (branch agent/<short-id>, created at the first approval). */
  createSession: repoProcedure.input(s.createSessionInput).mutation(({ ctx, input }) => createSession(ctx.db, ctx.actor, ctx.repo, input)),
  getSession: authedProcedure.input(s.sessionIdInput).query(({ ctx, input }) => getSession(ctx.db, ctx.actor, input.sessionId)),
  /** {repoId?, limit? (1–100, 20), offset?} → the caller's sessions, newest first. */
  listSessions: authedProcedure
    .input(s.listSessionsInput.optional())
    .query(({ ctx, input }) => listSessions(ctx.db, ctx.actor, input ?? {})),
  updateSession: authedProcedure.input(s.updateSessionInput).mutation(({ ctx, input }) => updateSession(ctx.db, ctx.actor, input)),
  /** Also its messages and changes; the branch stays. */
  deleteSession: authedProcedure.input(s.sessionIdInput).mutation(({ ctx, input }) => deleteSession(ctx.db, ctx.actor, input.sessionId)),
  /** {sessionId, message, context?} → the assistant message. Without a model: PRECONDITION_FAILED naming what to set. */
  chat: authedProcedure.input(s.chatInput).mutation(({ ctx, input, signal }) => chat(ctx.db, ctx.actor, input, signal ? { signal } : {})),
  /**
   * The same turn as a subscription (SSE transport): AgentStreamEvent values (start, text, tool,
   * change, then message or error; server/services/agent/events.ts). Unsubscribing aborts the
   * model call; the reply is stored as "stopped". Checks (NOT_FOUND, PRECONDITION_FAILED) fail the
   * subscription before anything is stored.
   */
  chatStream: authedProcedure.input(s.chatInput).subscription(async ({ ctx, input, signal }) => {
    // checked here, not inside the generator, so a refusal is the procedure's error (NOT_FOUND, …)
    const turn = await prepareAgentTurn(ctx.db, ctx.actor, input);
    return streamTurn(turn, signal);
  }),
  /** {sessionId, limit? (1–100, 50), offset?} → messages oldest first. */
  getMessages: authedProcedure.input(s.getMessagesInput).query(({ ctx, input }) => getMessages(ctx.db, ctx.actor, input)),
  /** {sessionId} → every change of the session with its status, in proposal order. */
  getPendingChanges: authedProcedure
    .input(s.sessionIdInput)
    .query(({ ctx, input }) => getPendingChanges(ctx.db, ctx.actor, input.sessionId)),
  /** {sessionId, type, path, content?} → the pending change (extension: edits drafted by hand). */
  proposeChange: authedProcedure.input(s.proposeChangeInput).mutation(({ ctx, input }) => proposeChange(ctx.db, ctx.actor, input)),
  /** {changeId} → {success, path, message, commitSha?, branch?}. */
  approveChange: authedProcedure.input(s.changeIdInput).mutation(({ ctx, input }) => approveChange(ctx.db, ctx.actor, input.changeId)),
  /** {changeId, reason?} → {success, id, status, reason}. */
  rejectChange: authedProcedure.input(s.rejectChangeInput).mutation(({ ctx, input }) => rejectChange(ctx.db, ctx.actor, input)),
  /** {sessionId} → {approved, failed, results, commitSha?}: one commit for every pending change that applies. */
  approveAllChanges: authedProcedure
    .input(s.sessionIdInput)
    .mutation(({ ctx, input }) => approveAllChanges(ctx.db, ctx.actor, input.sessionId)),
  /** {sessionId, title?, body?} → the pull request from the session branch into the default branch (extension). */
  openPullRequest: authedProcedure.input(s.openPullRequestInput).mutation(({ ctx, input }) => openPullRequest(ctx.db, ctx.actor, input)),
});
