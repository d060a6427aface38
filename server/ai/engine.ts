/**
 * Which engine answers an AI request (docs/ai.md "Engines and providers"): a real model through the
 * Vercel AI SDK when a provider is configured — the repository's own key (repoAiKeys) first, then
 * the server's environment — or else the local engine, which needs no key and no network.
 *
 * Every AI response carries `engine`: `"local"` or `"<provider>:<model>"` (ModelEngine.engine).
 * Keys go to the provider factories explicitly; nothing is written to process.env.
 */
import type { EmbeddingModel, LanguageModel } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { repositoryProviderFetch } from "./provider-fetch";

export type AiProvider = "openai" | "anthropic";

/** One provider's settings, from the environment or a repository key. */
export interface ProviderSettings {
  provider: AiProvider;
  apiKey: string;
  /** Chat model id; defaults: openai `gpt-4o-mini`, anthropic `claude-sonnet-4-5`. */
  model?: string;
  /** OpenAI-compatible server (Ollama, vLLM, llama.cpp); openai only. */
  baseUrl?: string;
  /** Embedding model id (openai only); default `text-embedding-3-small` without baseUrl, none with one. */
  embeddingModel?: string;
}

export interface ModelEngine {
  kind: "model";
  /** `"<provider>:<model>"`, shown beside every output it made. */
  engine: string;
  provider: AiProvider;
  modelId: string;
  model: LanguageModel;
  /** The embedding model, when the provider has one configured (semantic search). */
  embedding?: { engine: string; model: EmbeddingModel };
  /** Where the key came from. */
  source: "server" | "repository";
}

export interface LocalEngine {
  kind: "local";
  engine: "local";
}

export type AiEngine = ModelEngine | LocalEngine;

export const LOCAL_ENGINE: LocalEngine = { kind: "local", engine: "local" };

const DEFAULT_MODEL: Record<AiProvider, string> = { openai: "gpt-4o-mini", anthropic: "claude-sonnet-4-5" };

/**
 * The providers configured in the environment, OpenAI first: OPENAI_API_KEY (+ OPENAI_MODEL,
 * OPENAI_BASE_URL, OPENAI_EMBEDDING_MODEL) and ANTHROPIC_API_KEY (+ ANTHROPIC_MODEL). With
 * OPENAI_BASE_URL and no key, the key is "none" (local servers such as Ollama ignore it).
 */
export function serverProviderSettings(env: Record<string, string | undefined> = process.env): ProviderSettings[] {
  const out: ProviderSettings[] = [];
  const openaiKey = env.OPENAI_API_KEY?.trim() || (env.OPENAI_BASE_URL?.trim() ? "none" : "");
  if (openaiKey) {
    out.push({
      provider: "openai",
      apiKey: openaiKey,
      model: env.OPENAI_MODEL?.trim() || undefined,
      baseUrl: env.OPENAI_BASE_URL?.trim() || undefined,
      embeddingModel: env.OPENAI_EMBEDDING_MODEL?.trim() || undefined,
    });
  }
  const anthropicKey = env.ANTHROPIC_API_KEY?.trim();
  if (anthropicKey) out.push({ provider: "anthropic", apiKey: anthropicKey, model: env.ANTHROPIC_MODEL?.trim() || undefined });
  return out;
}

/**
 * The embedding model id these settings give semantic search (docs/ai.md "Semantic search"):
 * openai's `embeddingModel`, else `text-embedding-3-small` when it is OpenAI itself (no baseUrl);
 * undefined for an OpenAI-compatible server without one named, and for anthropic (no embeddings).
 */
export function embeddingModelOf(s: Pick<ProviderSettings, "provider" | "baseUrl" | "embeddingModel">): string | undefined {
  if (s.provider !== "openai") return undefined;
  return s.embeddingModel || (s.baseUrl ? undefined : "text-embedding-3-small");
}

/**
 * A model engine for these settings. OpenAI goes through chat completions (`.chat`), which every
 * OpenAI-compatible server speaks (AI SDK 7's plain `openai(modelId)` would use the Responses
 * API instead). A repository's key (`source: "repository"`) connects through
 * repositoryProviderFetch: only to public addresses (checked at connect time) and without
 * following redirects; the server's own settings use the default fetch.
 */
export function engineFromSettings(s: ProviderSettings, source: ModelEngine["source"] = "server"): ModelEngine {
  const modelId = s.model || DEFAULT_MODEL[s.provider];
  // a repository's key goes only to addresses svc allows, without redirects (server/ai/provider-fetch.ts)
  const net = { ...(s.baseUrl ? { baseURL: s.baseUrl } : {}), ...(source === "repository" ? { fetch: repositoryProviderFetch() } : {}) };
  if (s.provider === "openai") {
    const openai = createOpenAI({ apiKey: s.apiKey, ...net });
    const embeddingId = embeddingModelOf(s);
    return {
      kind: "model",
      engine: `openai:${modelId}`,
      provider: "openai",
      modelId,
      model: openai.chat(modelId),
      ...(embeddingId ? { embedding: { engine: `openai:${embeddingId}`, model: openai.embedding(embeddingId) } } : {}),
      source,
    };
  }
  const anthropic = createAnthropic({ apiKey: s.apiKey, ...net });
  return { kind: "model", engine: `anthropic:${modelId}`, provider: "anthropic", modelId, model: anthropic(modelId), source };
}

/**
 * The engine for the server's own configuration (no repository key): the first configured
 * provider, else the local engine.
 */
export function serverAiEngine(env: Record<string, string | undefined> = process.env): AiEngine {
  const [first] = serverProviderSettings(env);
  return first ? engineFromSettings(first) : LOCAL_ENGINE;
}
