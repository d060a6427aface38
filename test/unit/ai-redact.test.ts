/**
 * server/ai/redact.ts `redactSecrets`, the one function every provider error passes through
 * (docs/security.md "Hardening II, item 3"): the configured key itself in any shape, a piece of
 * it (a partly masked echo), and the known key shapes are removed; ordinary words, short
 * "keys" such as the `none` placeholder, request ids and status codes stay readable.
 */
import { describe, expect, it } from "vitest";
import { APICallError } from "ai";
import { AiProviderError, providerFailure, redactSecrets, REDACTED, rememberEngineKey, shownTo } from "@/server/ai/redact";
import { engineFromSettings } from "@/server/ai/engine";

// assembled at run time: the file holds no literal key shapes
const tail = "9f8e7d6c5b4a3210ZYXW";

describe("redactSecrets", () => {
  it("removes the configured key wherever it is, whatever its shape", () => {
    const key = `plainkey_${tail}`;
    expect(redactSecrets(`Incorrect API key provided: ${key}.`, [key])).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(redactSecrets(`bad key "${key}" (${key})`, [key])).toBe(`bad key "${REDACTED}" (${REDACTED})`);
    const odd = `a.b+c*d?${tail}`; // regex characters in a key are matched literally
    expect(redactSecrets(`got ${odd} here`, [odd])).toBe(`got ${REDACTED} here`);
  });

  it("removes an 8+ character piece of the key (a provider's partly masked echo)", () => {
    const key = `plainkey_${tail}`;
    expect(redactSecrets(`key plainkey_9f8e****ZYXW refused`, [key])).toBe(`key ${REDACTED}****ZYXW refused`);
    expect(redactSecrets(`…${tail.slice(4, 14)}…`, [key])).toBe(`…${REDACTED}…`);
  });

  it("removes the known key shapes even when they are not the configured key", () => {
    for (const shape of [
      `sk-${tail}`,
      `sk-proj-${tail}`,
      `sk-ant-api03-${tail}`,
      `gsk_${tail}`,
      `xai-${tail}`,
      `AIza${tail}abc`,
      `hf_${tail}`,
      `svc_abcdefgh_${tail}`,
      `ghp_${tail}`,
    ]) {
      const out = redactSecrets(`Incorrect API key provided: ${shape}. See the docs.`);
      expect(out, shape).toBe(`Incorrect API key provided: ${REDACTED}. See the docs.`);
    }
    expect(redactSecrets("sk-abcd*********************WXYZ is wrong")).toBe(`${REDACTED} is wrong`);
    expect(redactSecrets(`Authorization: Bearer ${tail}`)).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactSecrets(`GET /v1/models?key=${tail}&alt=json`)).toBe(`GET /v1/models?key=${REDACTED}&alt=json`);
    expect(redactSecrets(`{"api_key": "${tail}"}`)).toBe(`{"api_key": "${REDACTED}"}`);
  });

  it("keeps ordinary text: short configured values, request ids, statuses", () => {
    expect(redactSecrets("none of the models named none answered", ["none", "test"])).toBe("none of the models named none answered");
    expect(redactSecrets("Rate limit reached for gpt-4o-mini (request req_8f2c19ab); status 429")).toBe(
      "Rate limit reached for gpt-4o-mini (request req_8f2c19ab); status 429",
    );
  });
});

describe("providerFailure and shownTo", () => {
  const key = `plainkey_${tail}`;
  const engine = rememberEngineKey(engineFromSettings({ provider: "openai", apiKey: key, model: "m" }, "repository"), key);
  const refusal = new APICallError({
    message: `Incorrect API key provided: ${key}`,
    url: "https://api.example.com/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 401,
  });

  it("gives everyone the status, admins the provider's words without the key", () => {
    const err = providerFailure(engine, refusal);
    expect(err).toBeInstanceOf(AiProviderError);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.message).toBe("the AI provider (openai:m) refused the request (401): a repository admin can check the key");
    expect((err as AiProviderError).detail).toBe(`The AI provider (openai:m) failed 401: Incorrect API key provided: ${REDACTED}`);
    expect(shownTo("read", err)).toBe(err);
    expect(shownTo("write", err)).toBe(err);
    expect((shownTo("admin", err) as Error).message).toBe((err as AiProviderError).detail);
  });
});
