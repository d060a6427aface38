/**
 * Input and output shapes of the AI writing helpers (spec "AI router": ai.generatePRDescription,
 * ai.summarizeForSquash), plus `engine` on every output and the documented extensions
 * (`sourceRepoId`, `prId`). The model is asked for the same shapes (structured output), so the
 * output schemas have no optional fields (OpenAI's strict JSON schema requires every key).
 */
import { z } from "zod";
import { line, text, modelText } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { CATEGORIES } from "@/server/ai/local/conventional";

const branch = (field: string) => line(field).min(1, `${field} is required`).max(255, `${field} is at most 255 characters`);

export const prDescriptionInput = z.object({
  sourceBranch: branch("sourceBranch"),
  targetBranch: branch("targetBranch"),
  existingTitle: text("existingTitle").max(256, "existingTitle is at most 256 characters").optional(),
  existingBody: text("existingBody").max(65_536, "existingBody is at most 65536 characters").optional(),
  style: z.enum(["concise", "detailed", "conventional"], { error: "style must be concise, detailed or conventional" }).optional(),
  /** Extension (as pulls.create): the source branch is in this repository of the fork network. */
  sourceRepoId: uuid("sourceRepoId").optional(),
});
export type PRDescriptionInput = z.infer<typeof prDescriptionInput>;

/** Most commits one summarizeForSquash call may list (GitHub's compare lists 250). */
export const MAX_SQUASH_COMMITS = 250;

export const squashInput = z.object({
  commits: z
    .array(
      z.object({
        sha: line("commits[].sha").regex(/^[0-9a-fA-F]{4,64}$/, "commits[].sha must be a commit id (hex)"),
        message: text("commits[].message").max(65_536, "commits[].message is at most 65536 characters"),
        author: line("commits[].author").max(512, "commits[].author is at most 512 characters"),
      }),
      { error: "commits must be a list of {sha, message, author}" },
    )
    .min(1, "commits needs at least one commit")
    .max(MAX_SQUASH_COMMITS, `commits can list at most ${MAX_SQUASH_COMMITS}`),
  prTitle: text("prTitle").max(256, "prTitle is at most 256 characters").optional(),
  prBody: text("prBody").max(65_536, "prBody is at most 65536 characters").optional(),
  style: z.enum(["conventional", "simple"], { error: "style must be conventional or simple" }).optional(),
  /** Extension: the pull request (of this repository) being squashed: its author is not a co-author, its number ends the title. */
  prId: uuid("prId").optional(),
});
export type SquashInputBody = z.infer<typeof squashInput>;

/** What the model must answer for a description (the spec's shape; breakingChanges may be empty). */
export const prDescriptionModelSchema = z.object({
  title: modelText().describe("Pull request title, at most 72 characters"),
  body: modelText().describe("Markdown body"),
  summary: modelText().describe("One or two sentences"),
  changes: z.array(z.object({ category: z.enum(CATEGORIES as [string, ...string[]]), description: modelText() })),
  breakingChanges: z.array(modelText()),
});

/** What the model must answer for a squash message: title and the commit listing; trailers are added by svc. */
export const squashModelSchema = z.object({
  title: modelText().describe("First line of the commit message, at most 72 characters"),
  body: modelText().describe("The rest of the message, without Co-authored-by trailers"),
});
