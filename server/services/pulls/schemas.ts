/** Input schemas of the pull request record procedures (spec "Pull request router"). */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { objectId, uuid } from "@/server/validation/ids";

export const branch = (field: string) => line(field).min(1, `${field} is required`).max(255, `${field} is at most 255 characters`);
export const title = line("title").trim().min(1, "title is required").max(256, "title is at most 256 characters");
export const body = text("body").max(65_536, "body is at most 65536 characters");

export const createPullInput = z.object({
  title,
  body: body.optional(),
  sourceBranch: branch("sourceBranch"),
  targetBranch: branch("targetBranch"),
  headSha: objectId("headSha"),
  baseSha: objectId("baseSha"),
  isDraft: z.boolean({ error: "isDraft must be a boolean" }).optional(),
  sourceRepoId: uuid("sourceRepoId").optional(),
});
export type CreatePullInput = z.input<typeof createPullInput>;

export const listPullsInput = z.object({
  state: z.enum(["open", "closed", "merged"], { error: "state must be one of open, closed, merged" }).optional(),
  authorId: uuid("authorId").optional(),
  limit: z
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit is at least 1")
    .max(100, "limit is at most 100")
    .default(20),
  offset: z
    .number({ error: "offset must be a number" })
    .int("offset must be an integer")
    .min(0, "offset must not be negative")
    .max(1_000_000, "offset is at most 1000000")
    .default(0),
});
export type ListPullsInput = z.input<typeof listPullsInput>;

export const pullNumber = z
  .number({ error: "number must be a number" })
  .int("number must be an integer")
  .min(1, "number is at least 1")
  .max(2_147_483_647, "number is too large");

export const updatePullInput = z.object({
  title: title.optional(),
  body: body.nullable().optional(),
  isDraft: z.boolean({ error: "isDraft must be a boolean" }).optional(),
});
export type UpdatePullInput = z.input<typeof updatePullInput>;
