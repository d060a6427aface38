/**
 * ai.status shapes (spec "AI router" plus `engines`, `engine`, `source`; docs/ai.md "Status") and
 * the per-procedure AI rate limits over real HTTP (docs/ai.md "Rate limits"; spec "Limits"): the
 * (limit+1)th call in a minute → 429 with Retry-After and the wait in the message, per user and
 * procedure, after the access check. The HTTP test limits ai.generatePRDescription (10 per
 * minute) when that procedure exists, else the first limited procedure the router has.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/server/rate-limit";
import { PROCEDURE_LIMITS } from "@/server/api/procedure-limits";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { allProcedures } from "../procedures";

let owner: Profile;
let privateRepoId: string;
let publicRepoId: string;

const savedEnv = { ...process.env };
afterEach(() => {
  for (const k of ["OPENAI_API_KEY", "OPENAI_MODEL", "OPENAI_BASE_URL", "OPENAI_EMBEDDING_MODEL", "ANTHROPIC_API_KEY"]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

beforeAll(async () => {
  owner = await makeUser("stowner");
  const caller = await callerFor(actorOf(owner));
  privateRepoId = (await caller.repos.create({ name: "st-private", isPrivate: true })).id;
  publicRepoId = (await caller.repos.create({ name: "st-public", isPrivate: false })).id;
});

const ALL_LOCAL = { prDescription: "local", codeExplanation: "local", conflictResolution: "local", semanticSearch: "local", chat: "local" };
const ALL_TRUE = { prDescription: true, codeExplanation: true, conflictResolution: true, semanticSearch: true, chat: true };

describe("ai.status", () => {
  it("without any model: every feature usable through the local engine", async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    const anon = await callerFor(null);
    const expected = {
      available: true,
      providers: { openai: false, anthropic: false },
      features: ALL_TRUE,
      engines: ALL_LOCAL,
      engine: "local",
      source: "local",
    };
    expect(await anon.ai.status()).toEqual(expected);
    expect(await anon.ai.status({ repoId: publicRepoId })).toEqual(expected);
  });

  it("the server's provider, then the repository's own key, as used now for that repository", async () => {
    process.env.OPENAI_API_KEY = "sk-server";
    const caller = await callerFor(actorOf(owner));
    expect(await caller.ai.status({ repoId: privateRepoId })).toMatchObject({
      providers: { openai: true, anthropic: false },
      engine: "openai:gpt-4o-mini",
      source: "server",
      engines: { prDescription: "openai:gpt-4o-mini", chat: "openai:gpt-4o-mini", semanticSearch: "openai:text-embedding-3-small" },
    });
    await caller.repoAiKeys.set({ repoId: privateRepoId, provider: "anthropic", apiKey: "sk-ant-0123456789-abcd", model: "claude-test" });
    const status = await caller.ai.status({ repoId: privateRepoId });
    expect(status).toMatchObject({
      available: true,
      features: ALL_TRUE,
      providers: { openai: true, anthropic: true },
      engine: "anthropic:claude-test",
      source: "repository",
      // Anthropic has no embedding model: search stays local
      engines: {
        prDescription: "anthropic:claude-test",
        codeExplanation: "anthropic:claude-test",
        conflictResolution: "anthropic:claude-test",
        chat: "anthropic:claude-test",
        semanticSearch: "local",
      },
    });
    expect(JSON.stringify(status)).not.toContain("0123456789");
    // the other repository still uses the server's provider
    expect(await caller.ai.status({ repoId: publicRepoId })).toMatchObject({
      engine: "openai:gpt-4o-mini",
      source: "server",
      providers: { anthropic: false },
    });
  });

  it('semanticSearch: the lexical engine ("local") whenever the chosen engine has no embedding model, as ai.semanticSearch answers; else the embedding model', async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    // an OpenAI-compatible server without an embedding model: generation by the model, search lexical
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.OPENAI_MODEL = "llama-test";
    delete process.env.OPENAI_EMBEDDING_MODEL;
    const caller = await callerFor(actorOf(owner));
    const status = await caller.ai.status({ repoId: publicRepoId });
    expect(status).toMatchObject({
      engine: "openai:llama-test",
      source: "server",
      engines: { chat: "openai:llama-test", semanticSearch: "local" },
    });
    const search = await caller.ai.semanticSearch({ repoId: publicRepoId, query: "anything at all" });
    expect(search.engine).toBe(status.engines.semanticSearch);
    // the same server with an embedding model: the hybrid engine, labelled with that model
    process.env.OPENAI_EMBEDDING_MODEL = "nomic-embed";
    expect((await caller.ai.status({ repoId: publicRepoId })).engines).toMatchObject({
      chat: "openai:llama-test",
      semanticSearch: "openai:nomic-embed",
    });
    await expect((await callerFor(null)).ai.status()).resolves.toMatchObject({ engines: { semanticSearch: "openai:nomic-embed" } });
  });

  it("a private repository is NOT_FOUND to strangers and anonymous callers; a token needs repo:read", async () => {
    const stranger = await makeUser("ststranger");
    await expect((await callerFor(actorOf(stranger))).ai.status({ repoId: privateRepoId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).ai.status({ repoId: privateRepoId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(owner, ["user:read"]))).ai.status({ repoId: privateRepoId })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("repo:read"),
    });
    await expect((await callerFor(actorOf(owner, ["repo:read"]))).ai.status({ repoId: privateRepoId })).resolves.toMatchObject({
      available: true,
    });
    await expect((await callerFor(null)).ai.status({ repoId: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("AI rate limits", () => {
  it("follow the spec's Limits table, by procedure path", () => {
    const perMinute = (path: string) => {
      const spec = LIMITS[PROCEDURE_LIMITS[path]!];
      return spec.durationS === 60 ? spec.points : NaN;
    };
    expect(
      Object.fromEntries(
        ["ai.generatePRDescription", "ai.explainFileDiff", "ai.suggestConflictResolution", "ai.chat", "ai.semanticSearch"].map((p) => [
          p,
          perMinute(p),
        ]),
      ),
    ).toEqual({
      "ai.generatePRDescription": 10,
      "ai.explainFileDiff": 30,
      "ai.suggestConflictResolution": 20,
      "ai.chat": 30,
      "ai.semanticSearch": 60,
    });
  });

  it("the call after the limit answers 429 with Retry-After and the wait, per user and procedure, after the access check", async () => {
    const procedures = allProcedures();
    const preferred = ["ai.generatePRDescription", ...Object.keys(PROCEDURE_LIMITS)];
    const target = preferred.map((p) => procedures.find((x) => x.path === p)).find(Boolean)!;
    expect(target).toBeDefined();
    const points = LIMITS[PROCEDURE_LIMITS[target.path]!].points;
    const user = await makeUser("limited");
    const token = await makeToken(user, ["repo:read", "repo:write"]);
    const server = await startServer();
    const call = (repoId: string, bearer = token) => {
      const input = JSON.stringify({ repoId });
      const headers = { authorization: `Bearer ${bearer}`, "content-type": "application/json", "x-forwarded-for": "10.9.8.7" };
      return target.type === "query"
        ? fetch(`${server.url}/api/trpc/${target.path}?input=${encodeURIComponent(input)}`, { headers })
        : fetch(`${server.url}/api/trpc/${target.path}`, { method: "POST", headers, body: input });
    };
    try {
      // a call the access tier refuses uses no point (a stranger and a private repository); a
      // public-tier procedure (ai.status) checks the repository in its service, after the limit
      const tierChecksRepo = target.tier !== "public";
      for (let i = 0; i < 3; i++) expect((await call(privateRepoId)).status).toBe(404);
      for (let i = 0; i < points - (tierChecksRepo ? 0 : 3); i++) expect((await call(publicRepoId)).status, `call ${i + 1}`).not.toBe(429);
      const refused = await call(publicRepoId);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = await refused.json();
      expect(body.error.data).toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter });
      expect(body.error.message).toMatch(/^too many .+; try again in \d+ seconds$/);
      // over the limit, the access tier's answer still comes first
      expect((await call(privateRepoId)).status).toBe(tierChecksRepo ? 404 : 429);
      // another user is not limited by this one's calls
      const other = await makeUser("unlimited");
      expect((await call(publicRepoId, await makeToken(other, ["repo:read"]))).status).not.toBe(429);
    } finally {
      await server.close();
    }
  });
});
