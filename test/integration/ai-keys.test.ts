/**
 * repoAiKeys and engine resolution (docs/ai.md "Repository keys (`repoAiKeys`)", "Which engine
 * answers"): the key is encrypted at rest (never in the database in clear — the raw row, and on
 * SQLite the database file's bytes), masked in every response, used for its repository only
 * (another repository gets the server's provider or the local engine), refused to non-admins and to
 * repo:read / repo:write tokens; a private repository is NOT_FOUND to strangers. Through the real
 * OpenAI provider code: a repository key with baseUrl = the fake server reaches it with that key.
 */
import { readFileSync, existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { resolveAiEngine } from "@/server/ai/resolve";
import { generateStructured } from "@/server/ai/structured";
import { open, seal, secretKeys } from "@/server/ai/secret-box";
import { main as svcCli } from "@/cli/svc";
import { isPrivateHost } from "@/server/services/ai/base-url";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";

const KEY = "sk-proj-THISisTHEclearKEY-0123456789abcdWXYZ";
let fake: FakeOpenAI;
let owner: Profile;
let writer: Profile;
let stranger: Profile;
let repoId: string;
let otherRepoId: string;
let publicRepoId: string;

const savedEnv = { ...process.env };
afterEach(() => {
  for (const k of ["SVC_AI_ALLOW_PRIVATE_BASE_URLS", "OPENAI_API_KEY", "OPENAI_MODEL", "SVC_AI_KEY_SECRET", "SVC_AI_KEY_SECRET_PREVIOUS"]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

beforeAll(async () => {
  fake = await startFakeOpenAI();
  owner = await makeUser("aiowner");
  writer = await makeUser("aiwriter");
  stranger = await makeUser("aistranger");
  const caller = await callerFor(actorOf(owner));
  repoId = (await caller.repos.create({ name: "secret-ai", isPrivate: true })).id;
  otherRepoId = (await caller.repos.create({ name: "other-ai", isPrivate: true })).id;
  publicRepoId = (await caller.repos.create({ name: "open-ai", isPrivate: false })).id;
  await caller.repos.addCollaborator({ repoId, username: writer.username, role: "write" });
});
afterAll(() => fake.close());

describe("repoAiKeys", () => {
  it("stores the key encrypted and shows only a mask, in set and list", async () => {
    const caller = await callerFor(actorOf(owner));
    const set = await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, model: "gpt-test" });
    expect(set).toMatchObject({
      provider: "openai",
      maskedKey: "••••WXYZ",
      model: "gpt-test",
      baseUrl: null,
      engine: "openai:gpt-test",
      readable: true,
    });
    expect(JSON.stringify(set)).not.toContain("THISisTHEclearKEY");
    const list = await caller.repoAiKeys.list({ repoId });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ provider: "openai", maskedKey: "••••WXYZ" });
    expect(JSON.stringify(list)).not.toContain("THISisTHEclearKEY");

    // at rest: the raw row holds ciphertext, never the key (both databases) …
    const db = await getDb();
    const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "RepoAiKey"`);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain("THISisTHEclearKEY");
    expect(String(rows[0]!.encryptedKey)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // … and on SQLite the database file and its write-ahead log do not contain it either
    const { databaseUrl, provider } = getConfig();
    if (provider === "sqlite") {
      const file = databaseUrl.slice("file:".length);
      for (const f of [file, `${file}-wal`])
        if (existsSync(f)) expect(readFileSync(f).includes(Buffer.from("THISisTHEclearKEY"))).toBe(false);
    }
  });

  it("set without apiKey updates model and baseUrl of the existing key; without a key it is NOT_FOUND", async () => {
    const caller = await callerFor(actorOf(owner));
    await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, model: "gpt-test" });
    const updated = await caller.repoAiKeys.set({ repoId, provider: "openai", baseUrl: "https://llm.example.com/v1" });
    expect(updated).toMatchObject({ model: "gpt-test", baseUrl: "https://llm.example.com/v1", maskedKey: "••••WXYZ" });
    expect((await caller.repoAiKeys.set({ repoId, provider: "openai", model: "" })).model).toBeNull();
    await expect(caller.repoAiKeys.set({ repoId, provider: "anthropic", model: "claude-x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("no anthropic key"),
    });
  });

  it("refuses bad base URLs without echoing the key, and bounds input sizes", async () => {
    const caller = await callerFor(actorOf(owner));
    for (const baseUrl of [
      "ftp://example.com",
      "not a url",
      "https://user:pw@example.com/v1",
      "http://127.0.0.1:11434/v1",
      "http://169.254.169.254/latest",
      "http://localhost:8080",
      "http://[::1]/v1",
      "http://10.1.2.3/v1",
    ]) {
      const err = await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, baseUrl }).catch((e) => e);
      expect(err, baseUrl).toMatchObject({ code: "BAD_REQUEST" });
      expect(err.message).not.toContain("THISisTHEclearKEY");
    }
    await expect(caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: "x".repeat(513) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("apiKey is at most 512"),
    });
    await expect(caller.repoAiKeys.set({ repoId, provider: "mistral" as never, apiKey: KEY })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    // an administrator may allow private servers (Ollama on this machine)
    process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1";
    await expect(caller.repoAiKeys.set({ repoId, provider: "openai", baseUrl: "http://127.0.0.1:11434/v1" })).resolves.toMatchObject({
      baseUrl: "http://127.0.0.1:11434/v1",
    });
    expect(["example.com", "8.8.8.8", "[2001:db8::1]"].map(isPrivateHost)).toEqual([false, false, false]);
    expect(
      ["LOCALHOST", "foo.localhost", "0x7f000001", "[::ffff:127.0.0.1]", "192.168.1.1", "172.20.0.1", "100.64.1.1"].map(isPrivateHost),
    ).toEqual([true, true, true, true, true, true, true]);
  });

  it("is for repository admins with a repo:admin token; private repositories are NOT_FOUND to strangers", async () => {
    const input = { repoId };
    await expect((await callerFor(actorOf(writer))).repoAiKeys.list(input)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await callerFor(actorOf(writer))).repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect((await callerFor(actorOf(stranger))).repoAiKeys.list(input)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(stranger))).repoAiKeys.list({ repoId: publicRepoId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect((await callerFor(null)).repoAiKeys.list({ repoId: publicRepoId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    for (const scopes of [["repo:read"], ["repo:write"]] as const) {
      await expect((await callerFor(actorOf(owner, [...scopes]))).repoAiKeys.list(input)).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("repo:admin"),
      });
      await expect((await callerFor(actorOf(owner, [...scopes]))).repoAiKeys.delete({ repoId, provider: "openai" })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    }
    await expect((await callerFor(actorOf(owner, ["repo:admin"]))).repoAiKeys.list(input)).resolves.toBeInstanceOf(Array);
  });

  it("embeddingModel (beyond the spec) names semantic search's model: openai only, null clears it, resolveAiEngine uses it", async () => {
    process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1";
    const caller = await callerFor(actorOf(owner));
    const db = await getDb();
    const onServer = await caller.repoAiKeys.set({
      repoId: otherRepoId,
      provider: "openai",
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:11434/v1",
    });
    expect(onServer).toMatchObject({ embeddingModel: null, embeddingEngine: null }); // a compatible server: no default embedding model
    const before = await resolveAiEngine(db, otherRepoId);
    expect(before.kind).toBe("model");
    expect(before.kind === "model" ? before.embedding : "local").toBeUndefined();
    const named = await caller.repoAiKeys.set({ repoId: otherRepoId, provider: "openai", embeddingModel: " nomic-embed-text " });
    expect(named).toMatchObject({
      embeddingModel: "nomic-embed-text",
      embeddingEngine: "openai:nomic-embed-text",
      baseUrl: "http://127.0.0.1:11434/v1",
      maskedKey: "••••WXYZ",
    });
    expect((await caller.repoAiKeys.list({ repoId: otherRepoId }))[0]).toMatchObject({ embeddingEngine: "openai:nomic-embed-text" });
    const engine = await resolveAiEngine(db, otherRepoId);
    expect(engine.kind === "model" ? engine.embedding?.engine : null).toBe("openai:nomic-embed-text");
    // a model-only update keeps it; null clears it; OpenAI itself has a default
    expect(await caller.repoAiKeys.set({ repoId: otherRepoId, provider: "openai", model: "llama3" })).toMatchObject({
      embeddingModel: "nomic-embed-text",
    });
    expect(await caller.repoAiKeys.set({ repoId: otherRepoId, provider: "openai", embeddingModel: null, baseUrl: null })).toMatchObject({
      embeddingModel: null,
      embeddingEngine: "openai:text-embedding-3-small",
    });
    await expect(
      caller.repoAiKeys.set({ repoId: otherRepoId, provider: "anthropic", apiKey: "sk-ant-x", embeddingModel: "voyage-3" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("openai keys only") });
    await expect(caller.repoAiKeys.set({ repoId: otherRepoId, provider: "openai", embeddingModel: "e".repeat(201) })).rejects.toMatchObject(
      { code: "BAD_REQUEST", message: expect.stringContaining("embeddingModel is at most 200") },
    );
    expect((await caller.repoAiKeys.list({ repoId: otherRepoId })).map((k) => k.provider)).toEqual(["openai"]); // the refused anthropic key was not stored
    await caller.repoAiKeys.delete({ repoId: otherRepoId, provider: "openai" });
  });

  it("delete removes the key; deleting again says deleted: false", async () => {
    const caller = await callerFor(actorOf(owner));
    await caller.repoAiKeys.set({ repoId: publicRepoId, provider: "anthropic", apiKey: "sk-short" });
    expect((await caller.repoAiKeys.list({ repoId: publicRepoId }))[0]).toMatchObject({
      provider: "anthropic",
      maskedKey: "••••",
      engine: "anthropic:claude-sonnet-4-5",
    });
    expect(await caller.repoAiKeys.delete({ repoId: publicRepoId, provider: "anthropic" })).toEqual({
      provider: "anthropic",
      deleted: true,
    });
    expect(await caller.repoAiKeys.delete({ repoId: publicRepoId, provider: "anthropic" })).toEqual({
      provider: "anthropic",
      deleted: false,
    });
    expect(await caller.repoAiKeys.list({ repoId: publicRepoId })).toEqual([]);
  });
});

describe("resolveAiEngine", () => {
  it("uses the repository's key against its base URL, for that repository only", async () => {
    process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1";
    const caller = await callerFor(actorOf(owner));
    await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, model: "fake-chat", baseUrl: fake.url });
    const db = await getDb();
    const engine = await resolveAiEngine(db, repoId);
    expect(engine).toMatchObject({ kind: "model", engine: "openai:fake-chat", source: "repository" });
    if (engine.kind !== "model") throw new Error("expected a model");
    fake.reply({ content: JSON.stringify({ title: "From the repository key" }) });
    const before = fake.requests.length;
    await expect(generateStructured({ engine, schema: z.object({ title: z.string() }), instructions: "x", prompt: "y" })).resolves.toEqual({
      title: "From the repository key",
    });
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    // another repository: the server's provider when one is configured, else the local engine
    expect(await resolveAiEngine(db, otherRepoId)).toEqual({ kind: "local", engine: "local" });
    expect(await resolveAiEngine(db, undefined)).toEqual({ kind: "local", engine: "local" });
    process.env.OPENAI_API_KEY = "sk-server-key";
    process.env.OPENAI_MODEL = "server-model";
    expect(await resolveAiEngine(db, otherRepoId)).toMatchObject({ engine: "openai:server-model", source: "server" });
    expect(await resolveAiEngine(db, repoId)).toMatchObject({ engine: "openai:fake-chat", source: "repository" });

    // deleted: the very next resolution falls back
    await caller.repoAiKeys.delete({ repoId, provider: "openai" });
    expect(await resolveAiEngine(db, repoId)).toMatchObject({ engine: "openai:server-model", source: "server" });
  });

  it("rotation: a new SVC_AI_KEY_SECRET opens old rows through SVC_AI_KEY_SECRET_PREVIOUS; re-encryption moves them", async () => {
    const caller = await callerFor(actorOf(owner));
    await caller.repoAiKeys.set({ repoId: otherRepoId, provider: "anthropic", apiKey: KEY });
    const db = await getDb();
    const oldId = (await db.repoAiKey.findFirstOrThrow({ where: { repoId: otherRepoId } })).keyId;
    process.env.SVC_AI_KEY_SECRET = "first-secret-for-ai-keys";
    await caller.repoAiKeys.set({ repoId: otherRepoId, provider: "anthropic", apiKey: KEY });
    const firstId = (await db.repoAiKey.findFirstOrThrow({ where: { repoId: otherRepoId } })).keyId;
    expect(firstId).not.toBe(oldId);
    // rotate: new secret, the old one kept as previous → still readable, then re-encrypted
    process.env.SVC_AI_KEY_SECRET = "second-secret-for-ai-keys";
    process.env.SVC_AI_KEY_SECRET_PREVIOUS = "first-secret-for-ai-keys";
    expect(await resolveAiEngine(db, otherRepoId)).toMatchObject({ engine: "anthropic:claude-sonnet-4-5", source: "repository" });
    // `svc ai-keys reencrypt` (it closes the database when done, as the CLI does)
    let printed = "";
    expect(await svcCli(["ai-keys", "reencrypt"], (s) => void (printed += s))).toBe(0);
    expect(printed).toMatch(/^Re-encrypted [1-9]\d* key\(s\); \d+ already on the current secret; 0 unreadable/);
    expect(printed).not.toContain("THISisTHEclearKEY");
    const row = await (await getDb()).repoAiKey.findFirstOrThrow({ where: { repoId: otherRepoId } });
    expect(row.keyId).toBe(secretKeys()[0]!.id);
    // without the previous secret the row still opens (it is on the current one now)
    delete process.env.SVC_AI_KEY_SECRET_PREVIOUS;
    expect((await caller.repoAiKeys.list({ repoId: otherRepoId }))[0]).toMatchObject({ readable: true });
    // a lost secret: the key is listed unreadable and skipped, not a 500
    process.env.SVC_AI_KEY_SECRET = "a-third-secret-nobody-kept";
    expect((await caller.repoAiKeys.list({ repoId: otherRepoId }))[0]).toMatchObject({ readable: false, maskedKey: "••••WXYZ" });
    expect(await resolveAiEngine(await getDb(), otherRepoId)).toEqual({ kind: "local", engine: "local" });
  });

  it("a ciphertext only opens for its own repository and provider", () => {
    const sealed = seal("sk-abc", "repo-a:openai");
    expect(open(sealed, "repo-a:openai")).toBe("sk-abc");
    expect(open(sealed, "repo-b:openai")).toBeNull();
    expect(open({ ...sealed, ciphertext: sealed.ciphertext.replace(/.$/, (c) => (c === "A" ? "B" : "A")) }, "repo-a:openai")).toBeNull();
  });
});
