/**
 * ai.chat (spec "AI router"; docs/ai.md "Chat (`ai.chat`) and the Ask panel"): a question about a
 * repository, answered from retrieval over the semantic index
 * (server/services/search/semantic-search.ts).
 *
 * - With a model: the best chunks (≤ 24,000 characters) go into the prompt with the history, and
 *   the model answers citing paths and lines.
 * - Without one (the local engine): the answer presents the most relevant code and where it
 *   lives, plainly labelled as retrieval, not an answer.
 *
 * Either way `references` lists the retrieved chunks `{path, lines: {start, end}, relevance}`
 * (relevance = the search score, 0–1), and `engine` names who wrote `response`.
 */
import { generateText } from "ai";
import { z } from "zod";
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { line, text } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { aiFailure } from "@/server/ai/structured";
import { shownTo } from "@/server/ai/redact";
import { engineForCaller } from "./budget";
import type { AiEngine } from "@/server/ai/engine";
import { semanticSearch, type SearchResult } from "@/server/services/search/semantic-search";

/** Spec input; bounds (not shown in the spec): message ≤ 4,000 characters, ≤ 20 history turns of ≤ 8,000. */
export const chatInput = z.object({
  message: text("message").trim().min(1, "message is required").max(4000, "message is at most 4,000 characters"),
  history: z
    .array(
      z.object({ role: z.enum(["user", "assistant"]), content: text("content").max(8000, "a history entry is at most 8,000 characters") }),
    )
    .max(20, "history is at most 20 entries")
    .optional(),
  context: z
    .object({
      /** Paths (or globs) the question is about: retrieval is limited to them. */
      files: z.array(line("files").min(1).max(500)).max(20).optional(),
      branch: line("branch").min(1).max(255).optional(),
    })
    .optional(),
});
export type ChatInput = z.infer<typeof chatInput>;

export interface ChatReference {
  path: string;
  lines?: { start: number; end: number };
  relevance: number;
}

export interface ChatOutput {
  response: string;
  references: ChatReference[];
  /** "local" (retrieval only) or "<provider>:<model>". */
  engine: string;
}

/** Chunks retrieved per question. */
const RETRIEVED = 8;
/** Characters of retrieved code put into a model's prompt. */
const PROMPT_CODE_CHARS = 24_000;
/** Chunks shown in a retrieval-only answer, and lines of each. */
const SHOWN = 3;
const SHOWN_LINES = 25;

function fence(r: SearchResult, maxLines: number): string {
  const lines = r.content.split("\n");
  const body = lines.length > maxLines ? [...lines.slice(0, maxLines), "…"].join("\n") : r.content;
  const tick = body.includes("```") ? "````" : "```";
  return `${tick}${r.language === "text" ? "" : r.language}\n${body}\n${tick}`;
}

const where = (r: SearchResult) =>
  `\`${r.path}\` lines ${r.startLine}–${r.endLine}${r.chunkName ? ` (${r.chunkType} \`${r.chunkName}\`)` : ""}`;

/** The retrieval-only answer of the local engine. */
export function retrievalAnswer(results: SearchResult[]): string {
  const head =
    "_Retrieval only: no language model is configured for this repository, so this is the code that best matches your question, not an answer written about it._";
  if (results.length === 0)
    return `${head}\n\nNothing in the index matches your question. Try the names of functions, files or concepts the code uses.`;
  const shown = results.slice(0, SHOWN).map((r, i) => `${i + 1}. ${where(r)}\n\n${fence(r, SHOWN_LINES)}`);
  const more =
    results.length > SHOWN
      ? `\n\nAlso relevant: ${results
          .slice(SHOWN)
          .map((r) => `\`${r.path}\`:${r.startLine}`)
          .join(", ")}.`
      : "";
  return `${head}\n\nThe most relevant code:\n\n${shown.join("\n\n")}${more}`;
}

/** The retrieved code as the model sees it, at most PROMPT_CODE_CHARS. */
function codeContext(results: SearchResult[]): string {
  const parts: string[] = [];
  let used = 0;
  for (const r of results) {
    const part = `### ${r.path} lines ${r.startLine}-${r.endLine}${r.chunkName ? ` (${r.chunkName})` : ""}\n${fence(r, 200)}`;
    if (used + part.length > PROMPT_CODE_CHARS) break;
    parts.push(part);
    used += part.length;
  }
  return parts.join("\n\n");
}

/**
 * Answers `input.message` about `repo` (already authorized for reading) for `caller` (the router
 * requires one signed in; anonymous would get the local engine: budget.ts). `opts.engine`
 * overrides the caller's engine (tests). Errors: NOT_FOUND for an unknown branch;
 * TOO_MANY_REQUESTS when the repository key's daily budget is used up; SERVICE_UNAVAILABLE when
 * the model fails (aiFailure; the provider's words for repository admins only).
 */
export async function chatAboutCode(
  db: Db,
  caller: Actor | null,
  repo: AuthorizedRepo,
  input: ChatInput,
  opts: { engine?: AiEngine } = {},
): Promise<ChatOutput> {
  const found = await semanticSearch(db, caller, repo, {
    query: input.message,
    ...(input.context?.branch ? { branch: input.context.branch } : {}),
    options: { limit: RETRIEVED, minSimilarity: 0.2, ...(input.context?.files?.length ? { paths: input.context.files } : {}) },
  });
  const references: ChatReference[] = found.results.map((r) => ({
    path: r.path,
    lines: { start: r.startLine, end: r.endLine },
    relevance: r.score,
  }));
  const engine = opts.engine ?? (await engineForCaller(db, caller, repo));
  if (engine.kind === "local") return { response: retrievalAnswer(found.results), references, engine: "local" };
  try {
    const result = await generateText({
      model: engine.model,
      instructions:
        `You answer questions about the git repository ${repo.owner}/${repo.name}. Use only the code excerpts given and the conversation. ` +
        "Cite the files and line ranges you rely on as `path:start-end`. If the excerpts do not answer the question, say so plainly. Answer in Markdown.",
      messages: [
        ...(input.history ?? []).map((h) => ({ role: h.role, content: h.content })),
        {
          role: "user" as const,
          content: `${input.message}\n\n---\nCode excerpts retrieved from the repository:\n\n${codeContext(found.results) || "(none matched)"}`,
        },
      ],
      maxRetries: 1,
    });
    return { response: result.text, references, engine: engine.engine };
  } catch (err) {
    throw shownTo(repo.permission, aiFailure(engine, err));
  }
}
