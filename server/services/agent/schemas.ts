/** Input schemas of the agent router (spec "Agent router"), built from server/validation/strings.ts. */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { AGENT_MODES, CHANGE_TYPES } from "./model";

/** Longest session title (characters). */
export const MAX_TITLE = 200;
/** Largest proposed file content (bytes of UTF-8): the agent edits text files, not assets. */
export const MAX_CONTENT_BYTES = 1024 * 1024;
/** Longest reject reason (characters). */
export const MAX_REASON = 2000;
/** Longest chat message (characters). */
export const MAX_MESSAGE = 32_000;

export const mode = z.enum(AGENT_MODES as [string, ...string[]], { error: "mode must be pm or code" });
export const title = line("title").trim().min(1, "title is required").max(MAX_TITLE, `title is at most ${MAX_TITLE} characters`);
export const limit = z
  .number({ error: "limit must be a number" })
  .int("limit must be an integer")
  .min(1, "limit is at least 1")
  .max(100, "limit is at most 100");
export const offset = z
  .number({ error: "offset must be a number" })
  .int("offset must be an integer")
  .min(0, "offset is at least 0")
  .max(1_000_000, "offset is at most 1000000");

export const createSessionInput = z.object({ mode, title: title.optional() });
export const listSessionsInput = z.object({ repoId: uuid("repoId").optional(), limit: limit.optional(), offset: offset.optional() });
export const sessionIdInput = z.object({ sessionId: uuid("sessionId") });
export const updateSessionInput = z.object({ sessionId: uuid("sessionId"), title: title.optional() });
export const getMessagesInput = z.object({
  sessionId: uuid("sessionId"),
  limit: limit.optional(),
  offset: offset.optional(),
  /** Beyond the spec: page from the newest end (offset counts from the newest); still oldest first. */
  latest: z.boolean({ error: "latest must be true or false" }).optional(),
});
export const changeIdInput = z.object({ changeId: uuid("changeId") });
export const rejectChangeInput = z.object({
  changeId: uuid("changeId"),
  reason: text("reason").trim().max(MAX_REASON, `reason is at most ${MAX_REASON} characters`).optional(),
});

export const proposeChangeInput = z
  .object({
    sessionId: uuid("sessionId"),
    type: z.enum(CHANGE_TYPES as [string, ...string[]], { error: "type must be create, modify or delete" }),
    path: text("path").min(1, "path is required").max(4096, "path is at most 4096 characters"),
    content: text("content").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === "delete" && v.content !== undefined)
      ctx.addIssue({ code: "custom", path: ["content"], message: "content: a delete carries no content" });
    if (v.type !== "delete" && v.content === undefined)
      ctx.addIssue({ code: "custom", path: ["content"], message: `content is required to ${v.type} a file` });
    if (v.content !== undefined && Buffer.byteLength(v.content) > MAX_CONTENT_BYTES)
      ctx.addIssue({ code: "custom", path: ["content"], message: `content is at most ${MAX_CONTENT_BYTES} bytes` });
  });
export type ProposeChangeInput = z.infer<typeof proposeChangeInput>;

const selection = z.object({
  file: text("context.selection.file").max(4096),
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
});
export const chatInput = z.object({
  sessionId: uuid("sessionId"),
  message: text("message").trim().min(1, "message is required").max(MAX_MESSAGE, `message is at most ${MAX_MESSAGE} characters`),
  context: z
    .object({
      files: z.array(text("context.files[]").max(4096)).max(50, "context.files names at most 50 files").optional(),
      selection: selection.optional(),
    })
    .optional(),
});

export const openPullRequestInput = z.object({
  sessionId: uuid("sessionId"),
  title: line("title").trim().min(1, "title is required").max(256, "title is at most 256 characters").optional(),
  body: text("body").max(65_536, "body is at most 65536 characters").optional(),
});
/** One chat turn's input: {sessionId, message, context?: {files?, selection?: {file, startLine, endLine}}}. */
export type ChatInput = z.infer<typeof chatInput>;
