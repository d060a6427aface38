/**
 * Which engine serves semantic search for an AI engine (docs/ai.md "Engines: which serves which
 * case" and "Status (`ai.status`)"). One function for ai.status and
 * ai.semanticSearch, so the status says what a search answers with, by construction.
 */
import type { AiEngine } from "@/server/ai/engine";

/**
 * The label of the lexical engine (SQLite FTS5 / PostgreSQL full-text search over
 * identifier-split words; lexical.ts). It is `"local"` on purpose: every AI output's `engine` is
 * `"local"` (served in-process or in the database, no network, no key) or `"<provider>:<model>"`,
 * and the pages show "local" as the local engine. For search, "local" means this lexical engine —
 * also when a generation model is configured but has no embedding model (Anthropic, an
 * OpenAI-compatible server without OPENAI_EMBEDDING_MODEL).
 */
export const LEXICAL_SEARCH_ENGINE = "local";

/**
 * The engine serving semantic search for `engine`: its embedding model's label
 * (`"openai:<embedding model>"`, the hybrid engine) when it has one, else LEXICAL_SEARCH_ENGINE —
 * whatever the generation engine is. (A search still answers lexically, labelled "local", until
 * the index holds vectors of that model.)
 */
export function searchEngineOf(engine: AiEngine): string {
  return engine.kind === "model" && engine.embedding ? engine.embedding.engine : LEXICAL_SEARCH_ENGINE;
}
