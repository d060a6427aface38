/**
 * ai.status (spec "AI router"; docs/ai.md "Status (`ai.status`)"): which AI features are usable now,
 * for the server or for one repository, and which engine answers each.
 */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { authorizeRepo } from "@/server/services/repos/access";
import { serverProviderSettings } from "@/server/ai/engine";
import { pickAiEngine } from "@/server/ai/resolve";
import { repoProviderSettings } from "./repo-keys";
import { searchEngineOf } from "@/server/services/search/engine-label";

export const AI_FEATURES = ["prDescription", "codeExplanation", "conflictResolution", "semanticSearch", "chat"] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

export interface AiStatus {
  /**
   * True when the AI features can be used now. Every feature has a local engine (no key, no
   * network), so this is true whether or not a model is configured; `source` and `providers` say
   * whether one is.
   */
  available: boolean;
  /** Provider configured for this repository (its own key) or the server. */
  providers: { openai: boolean; anthropic: boolean };
  /** Spec shape: each feature usable now (the local engine makes every one usable). */
  features: Record<AiFeature, boolean>;
  /**
   * The engine each feature uses now: `"local"` or `"<provider>:<model>"`. semanticSearch: the
   * embedding model (`"openai:<embedding model>"`, hybrid) when the chosen engine has one, else
   * `"local"` = the lexical engine (search/engine-label.ts), whatever the generation engine is.
   */
  engines: Record<AiFeature, string>;
  /** The generation engine (descriptions, explanations, conflicts, chat). */
  engine: string;
  /** Where that engine comes from: the repository's key, the server's environment, or none (local). */
  source: "repository" | "server" | "local";
}

/**
 * The status for `repoId` (the engine as `resolveAiEngine` picks it; the caller needs read access: a private repository the caller cannot
 * see is NOT_FOUND, a token needs repo:read) or, without one, for the server's configuration.
 */
export async function aiStatus(db: Db, actor: Actor | null, repoId: string | undefined): Promise<AiStatus> {
  if (repoId) await authorizeRepo(db, actor, { repoId }, "read");
  // one query: the repository's readable keys give both the engine and the providers
  const repoKeys = repoId ? await repoProviderSettings(db, repoId) : [];
  const engine = pickAiEngine(repoKeys);
  const server = serverProviderSettings();
  const has = (p: "openai" | "anthropic") => server.some((s) => s.provider === p) || repoKeys.some((k) => k.provider === p);
  const generation = engine.engine;
  const search = searchEngineOf(engine);
  const engines: Record<AiFeature, string> = {
    prDescription: generation,
    codeExplanation: generation,
    conflictResolution: generation,
    semanticSearch: search,
    chat: generation,
  };
  return {
    available: true,
    providers: { openai: has("openai"), anthropic: has("anthropic") },
    features: { prDescription: true, codeExplanation: true, conflictResolution: true, semanticSearch: true, chat: true },
    engines,
    engine: generation,
    source: engine.kind === "model" ? engine.source : "local",
  };
}
