/**
 * Structured answers from a model: the AI SDK's object output with a zod schema of the spec's
 * shape (docs/ai.md "Engines and providers"). A malformed answer is retried once, then a clear error;
 * a provider failure (bad key, unreachable server, 5xx) becomes an AppError naming the engine,
 * never a 500.
 */
import { APICallError, generateText, NoObjectGeneratedError, Output, RetryError } from "ai";
import type { z } from "zod";
import { AppError } from "@/server/errors";
import type { ModelEngine } from "./engine";

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
 * An AppError for a failed model call: what the provider said (HTTP status and its message, after
 * the SDK's own retries — a RetryError is unwrapped to its last error), never its key or a stack.
 * Always SERVICE_UNAVAILABLE naming the engine.
 */
export function aiFailure(engine: ModelEngine, err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (RetryError.isInstance(err)) {
    const attempts = err.errors.length;
    const inner = aiFailure(engine, err.lastError);
    return new AppError("SERVICE_UNAVAILABLE", attempts > 1 ? `${inner.message} (after ${attempts} attempts)` : inner.message);
  }
  if (NoObjectGeneratedError.isInstance(err)) {
    return new AppError(
      "SERVICE_UNAVAILABLE",
      `${engine.engine} answered twice in a shape svc could not use; try again, or use another model`,
    );
  }
  if (APICallError.isInstance(err)) {
    const status = err.statusCode ? ` ${err.statusCode}` : "";
    const detail = (err.message || "").slice(0, 200);
    return new AppError("SERVICE_UNAVAILABLE", `The AI provider (${engine.engine}) failed${status}: ${detail}`);
  }
  const message = err instanceof Error ? err.message.slice(0, 200) : String(err);
  return new AppError("SERVICE_UNAVAILABLE", `The AI provider (${engine.engine}) failed: ${message}`);
}
