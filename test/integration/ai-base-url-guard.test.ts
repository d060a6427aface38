/**
 * A repository's AI base URL through the real router, engine resolution and OpenAI provider code
 * (docs/security.md "Hardening II, item 4"): names a local resolver knows are refused when saved;
 * a saved base URL whose name resolves to this machine (a key saved while
 * SVC_AI_ALLOW_PRIVATE_BASE_URLS=1, since withdrawn) is refused when connecting, and the key never
 * reaches the server there; a redirect is not followed. The server's own provider is unaffected.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/server/db";
import { resolveAiEngine } from "@/server/ai/resolve";
import { engineFromSettings } from "@/server/ai/engine";
import { generateStructured } from "@/server/ai/structured";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";

const KEY = "sk-proj-GUARDtestKEY-0123456789abcdefWXYZ";
let fake: FakeOpenAI;
let owner: Profile;
let repoId: string;

afterEach(() => {
  delete process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS;
});

beforeAll(async () => {
  fake = await startFakeOpenAI();
  owner = await makeUser("guardowner");
  repoId = (await (await callerFor(actorOf(owner))).repos.create({ name: "guarded-ai", isPrivate: true })).id;
});
afterAll(() => fake.close());

const schema = z.object({ title: z.string() });
const port = () => new URL(fake.url).port;

async function ask(): Promise<unknown> {
  const engine = await resolveAiEngine(await getDb(), repoId);
  if (engine.kind !== "model") throw new Error("expected the repository's model");
  fake.reply({ content: JSON.stringify({ title: "answered" }) });
  try {
    return await generateStructured({ engine, schema, instructions: "x", prompt: "y" });
  } catch (err) {
    return err;
  } finally {
    fake.clearReplies();
  }
}

describe("a repository's AI base URL", () => {
  it("refuses, when saved, a single-label hosts-file name and IPv4 inside IPv6", async () => {
    const caller = await callerFor(actorOf(owner));
    for (const baseUrl of ["http://vm:4101/v1", "http://localhost.:4101/v1", "http://[::127.0.0.1]/v1", "http://[::ffff:7f00:1]/v1"]) {
      const err = await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, baseUrl }).catch((e: unknown) => e);
      expect(err, baseUrl).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("must be a public server") });
    }
    expect(await caller.repoAiKeys.list({ repoId })).toEqual([]);
  });

  it("refuses to connect where the saved name resolves to this machine; the key never reaches the server", async () => {
    const caller = await callerFor(actorOf(owner));
    process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1";
    const baseUrl = `http://localhost:${port()}/v1`;
    await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, model: "fake-chat", baseUrl });
    // allowed: the name resolves (hosts file) and the pinned connection reaches the server
    const before = fake.requests.length;
    expect(await ask()).toEqual({ title: "answered" });
    expect(fake.requests.slice(before).map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);

    // the administrator withdraws the setting: the saved key no longer goes there
    delete process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS;
    const after = fake.requests.length;
    const err = await ask();
    // readers see the generic sentence; the detail (for repository admins) says why, without the key
    expect(err).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: expect.stringContaining("could not be reached"),
      detail: expect.stringMatching(/svc does not connect to localhost \((127\.0\.0\.1|::1)\): loopback/),
    });
    expect((err as Error).message).not.toContain("GUARDtestKEY");
    expect((err as { detail: string }).detail).not.toContain("GUARDtestKEY");
    expect(fake.requests.length).toBe(after);
    await caller.repoAiKeys.delete({ repoId, provider: "openai" });
  });

  it("does not follow a redirect, and the redirect's target never gets a request", async () => {
    const bounced: string[] = [];
    const bouncer = http.createServer((req, res) => {
      bounced.push(`${req.method} ${req.url}`);
      res.writeHead(307, { location: `${fake.url}/chat/completions` }).end();
    });
    await new Promise<void>((r) => bouncer.listen(0, "127.0.0.1", r));
    try {
      process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1";
      const caller = await callerFor(actorOf(owner));
      const baseUrl = `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}/v1`;
      await caller.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, model: "fake-chat", baseUrl });
      const before = fake.requests.length;
      const err = await ask();
      expect(err).toMatchObject({ code: "SERVICE_UNAVAILABLE", detail: expect.stringContaining("answered with a redirect (HTTP 307)") });
      expect(bounced).toEqual(["POST /v1/chat/completions"]); // one request, not retried
      expect(fake.requests.length).toBe(before);
      await caller.repoAiKeys.delete({ repoId, provider: "openai" });
    } finally {
      bouncer.closeAllConnections();
      await new Promise((r) => bouncer.close(r));
    }
  });

  it("leaves the server's own provider alone (an operator set OPENAI_BASE_URL)", async () => {
    const engine = engineFromSettings({
      provider: "openai",
      apiKey: "sk-server",
      baseUrl: `http://localhost:${port()}/v1`,
      model: "fake-chat",
    });
    fake.reply({ content: JSON.stringify({ title: "server" }) });
    await expect(generateStructured({ engine, schema, instructions: "x", prompt: "y" })).resolves.toEqual({ title: "server" });
  });
});
