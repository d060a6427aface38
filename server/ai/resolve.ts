/**
 * The engine for one request: the repository's own AI key when it has one (repoAiKeys), else
 * the server's configured provider, else the local engine (docs/ai.md "Which engine answers").
 */
import type { Db } from "@/server/db";
import { repoProviderSettings } from "@/server/services/ai/repo-keys";
import { engineFromSettings, serverAiEngine, type AiEngine, type ProviderSettings } from "./engine";
import { rememberEngineKey } from "./redact";

/**
 * Resolves the engine for a repository (or for the server when `repoId` is undefined): the
 * repository's first readable key (OpenAI before Anthropic; `source: "repository"`), else the
 * server's first configured provider (`source: "server"`), else LOCAL_ENGINE. One indexed query
 * (RepoAiKey by repoId) and an AES-GCM decryption per key; no cache, so a key set or deleted is
 * used or dropped by the very next request, in every process. The caller must have authorized
 * the repository (read) already. Never throws for an unreadable key: it is skipped.
 */
export async function resolveAiEngine(db: Db, repoId: string | undefined): Promise<AiEngine> {
  return pickAiEngine(repoId ? await repoProviderSettings(db, repoId) : []);
}

/**
 * The engine for a repository's decrypted keys (`repoProviderSettings`): its first key, else the
 * server's, else local. A repository key is remembered for redaction (redact.ts), so the
 * provider's echo of it never leaves svc.
 */
export function pickAiEngine(repoSettings: readonly ProviderSettings[]): AiEngine {
  const [first] = repoSettings;
  return first ? rememberEngineKey(engineFromSettings(first, "repository"), first.apiKey) : serverAiEngine();
}
