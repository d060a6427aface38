/**
 * server/ai/structured.ts through the real OpenAI provider code against the fake
 * OpenAI-compatible server: an object answer parses; a malformed one is retried once, then a
 * clear SERVICE_UNAVAILABLE; a provider error names the engine and never leaks the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { engineFromSettings, serverAiEngine, serverProviderSettings } from "@/server/ai/engine";
import { generateStructured } from "@/server/ai/structured";
import { AppError } from "@/server/errors";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

const schema = z.object({ title: z.string(), impact: z.enum(["low", "medium", "high"]) });

describe("generateStructured", () => {
  it("returns the model's object, sent as a JSON-schema response format", async () => {
    const engine = engineFromSettings({ provider: "openai", apiKey: "sk-test-secret", baseUrl: fake.url, model: "fake-chat" });
    expect(engine.engine).toBe("openai:fake-chat");
    fake.reply({ content: JSON.stringify({ title: "Add a", impact: "low" }) });
    const before = fake.requests.length;
    await expect(generateStructured({ engine, schema, instructions: "Describe.", prompt: "diff" })).resolves.toEqual({
      title: "Add a",
      impact: "low",
    });
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.response_format?.type).toBe("json_schema");
    expect(sent[0]!.body.model).toBe("fake-chat");
  });

  it("retries a malformed answer once, then fails with a clear message", async () => {
    const engine = engineFromSettings({ provider: "openai", apiKey: "sk-test-secret", baseUrl: fake.url, model: "fake-chat" });
    fake.reply({ content: "not json" });
    fake.reply({ content: JSON.stringify({ title: "Second try", impact: "high" }) });
    await expect(generateStructured({ engine, schema, instructions: "x", prompt: "y" })).resolves.toEqual({
      title: "Second try",
      impact: "high",
    });
    fake.reply({ content: "{" });
    fake.reply({ content: JSON.stringify({ title: 3 }) });
    const err = await generateStructured({ engine, schema, instructions: "x", prompt: "y" }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.message).toContain("openai:fake-chat");
  });

  it("a provider error becomes SERVICE_UNAVAILABLE naming the engine, without the key", async () => {
    const engine = engineFromSettings({ provider: "openai", apiKey: "sk-test-secret", baseUrl: fake.url, model: "fake-chat" });
    fake.reply({ status: 401, error: "Incorrect API key provided" });
    const err = await generateStructured({ engine, schema, instructions: "x", prompt: "y" }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.message).toContain("401");
    expect(err.message).not.toContain("sk-test-secret");
  });
});

describe("server providers from the environment", () => {
  it("reads OpenAI, an OpenAI-compatible base URL without a key, and Anthropic; else local", () => {
    expect(serverAiEngine({})).toEqual({ kind: "local", engine: "local" });
    expect(serverProviderSettings({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", OPENAI_MODEL: "llama3" })).toEqual([
      { provider: "openai", apiKey: "none", model: "llama3", baseUrl: "http://127.0.0.1:11434/v1", embeddingModel: undefined },
    ]);
    const both = serverProviderSettings({ OPENAI_API_KEY: "k1", ANTHROPIC_API_KEY: "k2", ANTHROPIC_MODEL: "claude-x" });
    expect(both.map((s) => s.provider)).toEqual(["openai", "anthropic"]);
    expect(serverAiEngine({ ANTHROPIC_API_KEY: "k2" }).engine).toBe("anthropic:claude-sonnet-4-5");
    const openai = serverAiEngine({ OPENAI_API_KEY: "k1" });
    expect(openai.kind === "model" && openai.embedding?.engine).toBe("openai:text-embedding-3-small");
  });
});
