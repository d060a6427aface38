/**
 * Repository AI keys (docs/ai.md "Repository keys (`repoAiKeys`)"): one key per
 * (repository, provider) that overrides the server's provider for that repository. Stored only
 * encrypted (server/ai/secret-box.ts); every response shows a mask (`••••` and at most the last 4
 * characters), never the key. Repository admins with a repo:admin token (server/api/access.ts).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { consume } from "@/server/rate-limit";
import { line } from "@/server/validation/strings";
import { embeddingModelOf, type AiProvider, type ProviderSettings } from "@/server/ai/engine";
import { currentSecretKey, open, seal, secretKeys } from "@/server/ai/secret-box";
import { baseUrlProblem } from "./base-url";

export const AI_PROVIDERS = ["openai", "anthropic"] as const satisfies readonly AiProvider[];
/** Bounds on the inputs (a real key is under 200 characters; model ids under 100). */
export const MAX_API_KEY = 512;
export const MAX_MODEL = 200;
export const MAX_BASE_URL = 500;

/** A repository key as every response shows it. */
export interface RepoAiKeyRecord {
  provider: AiProvider;
  /** `••••` plus the key's last 4 characters (nothing of keys shorter than 12). */
  maskedKey: string;
  model: string | null;
  baseUrl: string | null;
  /** `"<provider>:<model>"`, the engine label this key produces. */
  engine: string;
  /** Beyond the spec (openai only): the embedding model semantic search uses; null = the default (below). */
  embeddingModel: string | null;
  /** `"openai:<embedding model>"` when this key gives semantic search its hybrid engine, else null (lexical). */
  embeddingEngine: string | null;
  /** False when the key no longer decrypts (the server secret changed without SVC_AI_KEY_SECRET_PREVIOUS): set it again. */
  readable: boolean;
  createdAt: string;
  updatedAt: string;
}

const provider = z.enum(AI_PROVIDERS, { error: "provider must be openai or anthropic" });

export const setRepoAiKeyInput = z.object({
  provider,
  apiKey: line("apiKey")
    .trim()
    .min(1, "apiKey must not be empty")
    .max(MAX_API_KEY, `apiKey is at most ${MAX_API_KEY} characters`)
    .optional(),
  /** Model id; null or "" clears it (the provider's default). */
  model: line("model").trim().max(MAX_MODEL, `model is at most ${MAX_MODEL} characters`).nullish(),
  /** OpenAI-compatible server URL; null or "" clears it. */
  baseUrl: line("baseUrl").trim().max(MAX_BASE_URL, `baseUrl is at most ${MAX_BASE_URL} characters`).nullish(),
  /**
   * Beyond the spec, openai only: the embedding model id for semantic search (an OpenAI-compatible
   * server's, e.g. `nomic-embed-text`); null or "" clears it (text-embedding-3-small on OpenAI
   * itself, none with a baseUrl).
   */
  embeddingModel: line("embeddingModel").trim().max(MAX_MODEL, `embeddingModel is at most ${MAX_MODEL} characters`).nullish(),
});
export type SetRepoAiKeyInput = z.input<typeof setRepoAiKeyInput>;
export const deleteRepoAiKeyInput = z.object({ provider });

const DEFAULT_MODEL: Record<AiProvider, string> = { openai: "gpt-4o-mini", anthropic: "claude-sonnet-4-5" };

type Row = {
  provider: string;
  encryptedKey: string;
  keyId: string;
  keyLast4: string;
  model: string | null;
  baseUrl: string | null;
  embeddingModel: string | null;
  createdAt: Date;
  updatedAt: Date;
  repoId: string;
};

const aad = (repoId: string, p: string) => `${repoId}:${p}`;
const last4 = (key: string) => (key.length >= 12 ? key.slice(-4) : "");

function toRecord(row: Row, keys = secretKeys()): RepoAiKeyRecord {
  const p = row.provider as AiProvider;
  return {
    provider: p,
    maskedKey: `••••${row.keyLast4}`,
    model: row.model,
    baseUrl: row.baseUrl,
    engine: `${p}:${row.model || DEFAULT_MODEL[p]}`,
    embeddingModel: row.embeddingModel,
    embeddingEngine: ((id) => (id ? `openai:${id}` : null))(
      embeddingModelOf({ provider: p, baseUrl: row.baseUrl ?? undefined, embeddingModel: row.embeddingModel ?? undefined }),
    ),
    readable: open({ ciphertext: row.encryptedKey, keyId: row.keyId }, aad(row.repoId, p), keys) !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The repository's keys, OpenAI first. */
export async function listRepoAiKeys(db: Db, repoId: string): Promise<RepoAiKeyRecord[]> {
  const rows = await db.repoAiKey.findMany({ where: { repoId } });
  const keys = secretKeys();
  return rows.map((r) => toRecord(r, keys)).sort((a, b) => AI_PROVIDERS.indexOf(a.provider) - AI_PROVIDERS.indexOf(b.provider));
}

/**
 * Sets the repository's key for `provider`: with `apiKey`, creates or replaces it (encrypted);
 * without, updates `model` / `baseUrl` / `embeddingModel` of the existing key (NOT_FOUND when
 * there is none). Absent fields keep their value; null or "" clears them. BAD_REQUEST for a
 * baseUrl that is not http(s), holds credentials or names a private host (services/ai/base-url.ts),
 * and for an embeddingModel on an anthropic key; TOO_MANY_REQUESTS past LIMITS.aiKeyChanges.
 */
export async function setRepoAiKey(db: Db, actorId: string, repoId: string, input: SetRepoAiKeyInput): Promise<RepoAiKeyRecord> {
  const data = setRepoAiKeyInput.parse(input);
  const baseUrl = data.baseUrl === undefined ? undefined : data.baseUrl || null;
  if (baseUrl) {
    const problem = baseUrlProblem(baseUrl);
    if (problem) throw new AppError("BAD_REQUEST", problem);
  }
  const model = data.model === undefined ? undefined : data.model || null;
  const embeddingModel = data.embeddingModel === undefined ? undefined : data.embeddingModel || null;
  if (embeddingModel && data.provider !== "openai")
    throw new AppError("BAD_REQUEST", "embeddingModel is for openai keys only: Anthropic has no embedding models");
  const fields = {
    ...(model !== undefined ? { model } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(embeddingModel !== undefined ? { embeddingModel } : {}),
  };
  await consume("aiKeyChanges", actorId);
  if (data.apiKey === undefined) {
    const existing = await db.repoAiKey.findUnique({
      where: { repoId_provider: { repoId, provider: data.provider } },
      select: { id: true },
    });
    if (!existing) throw new AppError("NOT_FOUND", `this repository has no ${data.provider} key; send apiKey to add one`);
    const row = await db.repoAiKey.update({ where: { id: existing.id }, data: fields });
    return toRecord(row);
  }
  const sealed = seal(data.apiKey, aad(repoId, data.provider), currentSecretKey());
  const secret = { encryptedKey: sealed.ciphertext, keyId: sealed.keyId, keyLast4: last4(data.apiKey) };
  const row = await db.repoAiKey.upsert({
    where: { repoId_provider: { repoId, provider: data.provider } },
    create: {
      repoId,
      provider: data.provider,
      ...secret,
      model: model ?? null,
      baseUrl: baseUrl ?? null,
      embeddingModel: embeddingModel ?? null,
      createdById: actorId,
    },
    update: { ...secret, ...fields },
  });
  return toRecord(row);
}

/** Deletes the repository's key for `provider`; `{deleted: false}` when there was none. */
export async function deleteRepoAiKey(
  db: Db,
  repoId: string,
  input: z.input<typeof deleteRepoAiKeyInput>,
): Promise<{ provider: AiProvider; deleted: boolean }> {
  const { provider: p } = deleteRepoAiKeyInput.parse(input);
  const { count } = await db.repoAiKey.deleteMany({ where: { repoId, provider: p } });
  return { provider: p, deleted: count > 0 };
}

/**
 * The repository's usable provider settings (decrypted), OpenAI first: ONE query by the
 * (repoId, provider) unique index. Keys that no longer decrypt are left out (listed as
 * `readable: false`). For server/ai/resolve.ts only: the result holds the clear key.
 */
export async function repoProviderSettings(db: Db, repoId: string): Promise<ProviderSettings[]> {
  const rows = await db.repoAiKey.findMany({ where: { repoId } });
  const keys = secretKeys();
  const out: ProviderSettings[] = [];
  for (const row of rows) {
    const apiKey = open({ ciphertext: row.encryptedKey, keyId: row.keyId }, aad(repoId, row.provider), keys);
    if (apiKey === null) continue;
    out.push({
      provider: row.provider as AiProvider,
      apiKey,
      model: row.model ?? undefined,
      baseUrl: row.baseUrl ?? undefined,
      embeddingModel: row.embeddingModel ?? undefined,
    });
  }
  return out.sort((a, b) => AI_PROVIDERS.indexOf(a.provider) - AI_PROVIDERS.indexOf(b.provider));
}

/**
 * Re-encrypts every stored key that is not sealed with the current secret (rotation, docs/ai.md):
 * run after setting a new SVC_AI_KEY_SECRET with the old one in SVC_AI_KEY_SECRET_PREVIOUS.
 * Returns how many were re-encrypted and how many could not be opened with any configured secret
 * (those stay as they are; their owners must set them again).
 */
export async function reencryptRepoAiKeys(db: Db): Promise<{ reencrypted: number; unreadable: number; current: number }> {
  const key = currentSecretKey();
  const keys = secretKeys();
  const rows = await db.repoAiKey.findMany({ select: { id: true, repoId: true, provider: true, encryptedKey: true, keyId: true } });
  let reencrypted = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (row.keyId === key.id) continue;
    const plain = open({ ciphertext: row.encryptedKey, keyId: row.keyId }, aad(row.repoId, row.provider), keys);
    if (plain === null) {
      unreadable++;
      continue;
    }
    const sealed = seal(plain, aad(row.repoId, row.provider), key);
    // compare-and-swap: only if nobody replaced the key meanwhile
    const { count } = await db.repoAiKey.updateMany({
      where: { id: row.id, encryptedKey: row.encryptedKey },
      data: { encryptedKey: sealed.ciphertext, keyId: sealed.keyId },
    });
    reencrypted += count;
  }
  return { reencrypted, unreadable, current: rows.length - reencrypted - unreadable };
}
