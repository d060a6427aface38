/**
 * The engine for one request: the repository's own AI key when it has one (repoAiKeys), else
 * the server's configured provider, else the local engine (issue #10 "Providers and keys").
 */
import type { Db } from "@/server/db";
import { serverAiEngine, type AiEngine } from "./engine";

/**
 * Resolves the engine for a repository (or for the server when `repoId` is undefined).
 * Today: the server's environment only; repository keys are added by the repoAiKeys service.
 */
export async function resolveAiEngine(_db: Db, _repoId: string | undefined): Promise<AiEngine> {
  return serverAiEngine();
}
