/**
 * What svc says about a failed AI provider call (docs/ai.md "Provider errors"; docs/security.md
 * "Hardening II, item 3"). Providers echo the key they were sent ("Incorrect API key provided:
 * sk-…"), so every provider error passes through `redactSecrets` — the one redaction function —
 * before it is returned, stored or logged, and its text reaches repository admins only:
 *
 *   redactSecrets      removes the configured keys themselves (exact match, any shape; also any
 *                      8+ character piece of one) and the known key shapes (sk-…, gsk_…, xai-…,
 *                      AIza…, hf_…, svc_…, Bearer …, key=…)
 *   rememberEngineKey  ties a repository key to the engine made from it (server/ai/resolve.ts);
 *                      the server's keys are read from the environment
 *   AiProviderError    SERVICE_UNAVAILABLE whose message is generic ("the AI provider (<engine>)
 *                      refused the request (401)") and whose `detail` is the provider's own words,
 *                      redacted
 *   shownTo            the error as a caller with `permission` may see it: the detail for admins,
 *                      the generic message for everyone else
 */
import { APICallError, NoObjectGeneratedError, RetryError } from "ai";
import { AppError } from "@/server/errors";
import { serverProviderSettings, type ModelEngine } from "./engine";

/** What a removed secret is replaced with. */
export const REDACTED = "[redacted]";
/** Configured keys shorter than this are not searched for (they would blank ordinary words); real keys are far longer. */
export const MIN_SECRET_CHARS = 8;
/** Characters of a provider's message kept (after redaction). */
export const MAX_DETAIL_CHARS = 400;

/**
 * Key shapes of the providers svc talks to and the common OpenAI-compatible hosts, whatever key
 * is configured: OpenAI / OpenRouter / Anthropic / DeepSeek `sk-…` (also masked echoes
 * `sk-abc***xyz`), Groq `gsk_`, xAI `xai-`, Google `AIza`, Hugging Face `hf_`, Perplexity `pplx-`,
 * Replicate `r8_`, Fireworks `fw_`, GitHub `ghp_`/`github_pat_`, svc's own `svc_` tokens, an
 * `Authorization: Bearer` value and `api_key=` / `"key": "…"` pairs.
 */
const KEY_SHAPES: RegExp[] = [
  /\b(?:sk|gsk|xai|hf|pplx|r8|fw|svc|ak)[-_][A-Za-z0-9_*-]{4,}(?:\.[A-Za-z0-9_*-]+)*/g,
  /\bAIza[A-Za-z0-9_-]{10,}/g,
  /\b(?:gh[pousr]_|github_pat_)[A-Za-z0-9_]{10,}/g,
  /\b(Bearer|Basic)\s+[^\s"',;]+/gi,
  /\b((?:x-)?api[-_]?key|access[-_]?token|token|key|secret)(["']?\s*[:=]\s*["']?)[^\s"',;&}]{4,}/gi,
];

const engineKeys = new WeakMap<object, string>();

/**
 * Records that `engine` (and its embedding engine) was made from `apiKey`, so `redactSecrets`
 * removes that exact key from its errors. Returns `engine`.
 */
export function rememberEngineKey<E extends ModelEngine>(engine: E, apiKey: string): E {
  engineKeys.set(engine, apiKey);
  if (engine.embedding) engineKeys.set(engine.embedding, apiKey);
  return engine;
}

/** The keys to remove for `engine` (a ModelEngine or its embedding engine): its own, and every key of the server's environment. */
export function secretsOf(engine?: object | null): string[] {
  const own = engine ? engineKeys.get(engine) : undefined;
  return [...(own ? [own] : []), ...serverProviderSettings().map((s) => s.apiKey)];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `text` without secrets: each of `secrets` (8+ characters) wherever it appears, any run of 8+
 * key characters that is a piece of one of them (a provider's partly masked echo), and every
 * KEY_SHAPES match, each replaced by REDACTED (a key's name before `=` / `:` and the word Bearer
 * are kept). Pure; linear in the text's length per secret.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  const keys = [...new Set(secrets.map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET_CHARS))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const k of keys) out = out.replace(new RegExp(escapeRegExp(k), "g"), REDACTED);
  if (keys.length) out = out.replace(/[A-Za-z0-9_-]{8,}/g, (run) => (keys.some((k) => k.includes(run)) ? REDACTED : run));
  out = out.replace(KEY_SHAPES[0]!, REDACTED).replace(KEY_SHAPES[1]!, REDACTED).replace(KEY_SHAPES[2]!, REDACTED);
  out = out.replace(KEY_SHAPES[3]!, (_m, word: string) => `${word} ${REDACTED}`);
  out = out.replace(KEY_SHAPES[4]!, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  return out;
}

/**
 * A model that answered, twice, in a shape svc could not use (no JSON, or not the schema's):
 * SERVICE_UNAVAILABLE, its own class so callers with a local engine can fall back to it.
 */
export class MalformedAnswerError extends AppError {
  constructor(message: string) {
    super("SERVICE_UNAVAILABLE", message);
    this.name = "MalformedAnswerError";
  }
}

/**
 * A provider call failed: SERVICE_UNAVAILABLE with a generic message anyone may read (the engine
 * label and the HTTP status, nothing the provider wrote) and `detail`, the provider's words after
 * `redactSecrets` (for repository admins, and the server log).
 */
export class AiProviderError extends AppError {
  constructor(
    message: string,
    /** The provider's message, redacted, at most MAX_DETAIL_CHARS (plus svc's prefix). */
    readonly detail: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super("SERVICE_UNAVAILABLE", message);
    this.name = "AiProviderError";
  }
}

/** The generic sentence for a provider's HTTP status (none: it could not be reached). */
export function genericProviderMessage(engine: string, status: number | undefined): string {
  const who = `the AI provider (${engine})`;
  if (status === 401 || status === 403) return `${who} refused the request (${status}): a repository admin can check the key`;
  if (status === 429) return `${who} is limiting requests (429); try again later`;
  if (status) return `${who} failed (${status}); try again later`;
  return `${who} could not be reached; try again later`;
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, " ").trim();
}

/**
 * What the provider (or the network) said about a failed call of `engine`, redacted with
 * `secretsOf(engine)`: the SDK's RetryError unwrapped to its last error, an APICallError's HTTP
 * status, the message with a network error's code, at most MAX_DETAIL_CHARS.
 */
export function providerWords(engine: object, err: unknown): { status?: number; words: string; attempts: number; last: unknown } {
  let last = err;
  let attempts = 1;
  if (RetryError.isInstance(err)) {
    attempts = err.errors.length;
    last = err.lastError;
  }
  const status = APICallError.isInstance(last) ? last.statusCode : undefined;
  const cause = (last as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause && typeof cause.code === "string" ? ` (${cause.code})` : "";
  const words = redactSecrets(messageOf(last) + code, secretsOf(engine)).slice(0, MAX_DETAIL_CHARS);
  return { ...(status ? { status } : {}), words, attempts, last };
}

/**
 * The AiProviderError for a failed call of `engine` (providerWords; generic message by status).
 * A malformed answer (NoObjectGeneratedError) and svc's own AppErrors pass through as AppErrors
 * (they hold no provider text).
 */
export function providerFailure(engine: Pick<ModelEngine, "engine"> & object, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const { status, words, attempts, last } = providerWords(engine, err);
  if (NoObjectGeneratedError.isInstance(last)) {
    return new MalformedAnswerError(`${engine.engine} answered twice in a shape svc could not use; try again, or use another model`);
  }
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
  const detail = `The AI provider (${engine.engine}) failed${status ? ` ${status}` : ""}: ${words}${tries}`;
  return new AiProviderError(genericProviderMessage(engine.engine, status), detail, status);
}

/**
 * `err` as a caller with `permission` on the repository may see it: an AiProviderError becomes
 * an AppError with its redacted detail for admins; anything else (and for everyone else) is
 * returned as it is (the generic message).
 */
export function shownTo(permission: string | null | undefined, err: unknown): unknown {
  if (err instanceof AiProviderError && permission === "admin") return new AppError("SERVICE_UNAVAILABLE", err.detail);
  return err;
}

/** Runs `call` (a model call); its AiProviderError is rethrown as `shownTo(permission)` sees it. */
export async function asSeenBy<T>(permission: string | null | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw shownTo(permission, e);
  }
}
