/**
 * Structured answers from a model: the AI SDK's object output with a zod schema of the spec's
 * shape (docs/ai.md "Engines and providers"). A malformed answer is retried once, then a clear error;
 * a provider failure (bad key, unreachable server, 5xx) becomes an AiProviderError naming the
 * engine (generic message; the provider's words redacted in `detail`: redact.ts), never a 500.
 */
import { generateText, NoObjectGeneratedError, Output } from "ai";
import type { z } from "zod";
import type { AppError } from "@/server/errors";
import type { ModelEngine } from "./engine";
import { providerFailure } from "./redact";

export interface StructuredRequest<S extends z.ZodType> {
  engine: ModelEngine;
  schema: S;
  /** The system prompt. */
  instructions: string;
  prompt: string;
  abortSignal?: AbortSignal;
}

/**
 * One structured generation: `generateText({ output: Output.object({ schema }) })`, retried once
 * when the answer does not parse or match the schema.
 * @throws AppError SERVICE_UNAVAILABLE when the provider fails or answers malformed twice.
 */
export async function generateStructured<S extends z.ZodType>(req: StructuredRequest<S>): Promise<z.infer<S>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await generateText({
        model: req.engine.model,
        instructions: req.instructions,
        prompt: req.prompt,
        output: Output.object({ schema: req.schema }),
        maxRetries: 1,
        ...(req.abortSignal ? { abortSignal: req.abortSignal } : {}),
      });
      return result.output as z.infer<S>;
    } catch (err) {
      if (NoObjectGeneratedError.isInstance(err) && attempt < 2) continue;
      throw aiFailure(req.engine, err);
    }
  }
}

/**
 * An AppError for a failed model call (server/ai/redact.ts `providerFailure`): an AiProviderError
 * whose message is generic (engine and HTTP status) and whose detail is the provider's words with
 * the key and every key shape removed; a malformed answer twice is its own SERVICE_UNAVAILABLE.
 */
export function aiFailure(engine: ModelEngine, err: unknown): AppError {
  return providerFailure(engine, err);
}
