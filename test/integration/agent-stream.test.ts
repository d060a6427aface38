/**
 * The agent's streaming transports (spec Events 1; docs/api.md "Agent stream events") against a
 * real HTTP server (test/helpers.ts startServer: the same handlers as the Next routes) and the fake
 * OpenAI-compatible server streaming its answers: POST /api/agent/stream read with a real HTTP
 * client (events in order, heartbeats, JSON 4xx before streaming, disconnect → a stored "stopped"
 * reply and the fake sees the request cancelled) and agent.chatStream through @trpc/client's
 * httpSubscriptionLink (events in order; unsubscribing stops the model and stores "stopped").
 */
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTRPCClient, httpSubscriptionLink } from "@trpc/client";
import type { AppRouter } from "@/server/api/root";
import { closeRateLimits, consume } from "@/server/rate-limit";
import type { AgentStreamEvent } from "@/server/services/agent/events";
import { makeToken, serviceToken, startServer } from "../helpers";
import { serveModelFrom, startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { FetchEventSource, SseParser } from "../fixtures/sse";
import { agentWorld, type AgentWorld } from "./agent-fixtures";
import { codeOf } from "./issues-fixtures";

let fake: FakeOpenAI;
let restoreEnv: () => void;
let server: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  fake = await startFakeOpenAI();
  restoreEnv = serveModelFrom(fake, "fake-agent", { SVC_AGENT_HEARTBEAT_MS: "40" });
  server = await startServer();
});
afterAll(async () => {
  restoreEnv();
  await server.close();
  await fake.close();
});
beforeEach(async () => {
  await closeRateLimits();
  fake.fallback = () => ({ content: "done" });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T | undefined | null | false>, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Posted {
  status: number;
  contentType: string;
  events: AgentStreamEvent[];
  names: string[];
  pings: number;
  body: string;
}

/**
 * POSTs `body` to /api/agent/stream with node:http and reads the SSE answer. `stopAfter`: destroys
 * the connection once an event of that type arrived (a client going away).
 */
function post(body: unknown, headers: Record<string, string>, stopAfter?: AgentStreamEvent["type"]): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const out: Posted = { status: 0, contentType: "", events: [], names: [], pings: 0, body: "" };
    const req = http.request(
      `${server.url}/api/agent/stream`,
      { method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        out.status = res.statusCode ?? 0;
        out.contentType = String(res.headers["content-type"] ?? "");
        const parser = new SseParser(
          (e) => {
            out.names.push(e.event);
            const event = JSON.parse(e.data) as AgentStreamEvent;
            out.events.push(event);
            if (stopAfter && event.type === stopAfter) {
              req.destroy();
              resolve(out);
            }
          },
          (c) => void (c === "ping" && out.pings++),
        );
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          out.body += c;
          if (out.contentType.startsWith("text/event-stream")) parser.push(c);
        });
        res.on("end", () => resolve(out));
        res.on("error", () => resolve(out));
      },
    );
    req.on("error", (e) => (stopAfter ? resolve(out) : reject(e)));
    req.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}

let w: AgentWorld;
let auth: Record<string, string>;
beforeAll(async () => {
  w = await agentWorld();
  auth = { authorization: `Bearer ${await makeToken(w.writer, ["repo:read"])}` };
});

describe("POST /api/agent/stream", () => {
  it("streams start, tool, change, text deltas and the stored message, in order, with heartbeats", async () => {
    fake.reply({ toolCalls: [{ name: "proposeChange", arguments: { type: "create", path: "docs/new.md", content: "# New\n" } }] });
    fake.reply({ chunks: ["I pro", "posed ", "docs/new.md."], delayMs: 60 });
    const r = await post({ sessionId: w.session.id, message: "write docs" }, auth);
    expect(r.status).toBe(200);
    expect(r.contentType).toContain("text/event-stream");
    expect(r.names).toEqual(r.events.map((e) => e.type));
    expect(r.names).toEqual(["start", "tool", "change", "text", "text", "text", "message"]);
    const [start, tool, change] = r.events;
    expect(start).toMatchObject({ type: "start", userMessage: { role: "user", content: "write docs" } });
    expect(tool).toEqual({ type: "tool", name: "proposeChange", summary: "proposing to create docs/new.md" });
    expect(change).toMatchObject({ type: "change", change: { type: "create", path: "docs/new.md", status: "pending" } });
    expect(
      r.events
        .filter((e) => e.type === "text")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("I proposed docs/new.md.");
    const last = r.events.at(-1) as Extract<AgentStreamEvent, { type: "message" }>;
    expect(last.message).toMatchObject({ role: "assistant", status: "complete", content: "I proposed docs/new.md." });
    expect(last.message.changes!.map((c) => c.id)).toEqual([(change as Extract<AgentStreamEvent, { type: "change" }>).change.id]);
    expect(r.pings).toBeGreaterThan(0);
    const stored = await w.as.writer.agent.getMessages({ sessionId: w.session.id });
    expect(stored.at(-1)).toMatchObject({ id: last.message.id, status: "complete" });
  });

  it("refuses before streaming with a JSON 4xx: no credentials, a token without repo:read, a bad body, another user's session", async () => {
    const base = { sessionId: w.session.id, message: "hi" };
    const none = await post(base, {});
    expect([none.status, none.contentType]).toEqual([401, "application/json; charset=utf-8"]);
    const userOnly = await post(base, { authorization: `Bearer ${await makeToken(w.writer, ["user:read"])}` });
    expect(userOnly.status).toBe(403);
    expect(JSON.parse(userOnly.body).error.message).toContain("repo:read");
    const bad = await post({ sessionId: "nope", message: "" }, auth);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toContain("sessionId");
    const notJson = await post("{", auth);
    expect(notJson.status).toBe(400);
    const other = await post(base, { authorization: `Bearer ${await makeToken(w.reader, ["repo:read"])}` });
    expect([other.status, JSON.parse(other.body).error.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("shares one rate-limit bucket with agent.chat: over it, a JSON 429 with Retry-After before streaming", async () => {
    for (let i = 0; i < 30; i++) await consume("agentChat", `u:${w.writer.id}`);
    const r = await post({ sessionId: w.session.id, message: "one more" }, auth);
    expect(r.status).toBe(429);
    expect(JSON.parse(r.body).error).toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringContaining("agent messages") });
    expect(await codeOf(w.as.writer.agent.chat({ sessionId: w.session.id, message: "and via tRPC" }))).toBe("TOO_MANY_REQUESTS");
    await closeRateLimits();
  });

  it("a client that disconnects stops the model: the partial reply is stored as stopped and the fake sees the request cancelled", async () => {
    const cancelled = fake.cancelled;
    fake.reply({ chunks: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 100 });
    const r = await post({ sessionId: w.session.id, message: "write a long answer" }, auth, "text");
    expect(r.names.slice(0, 2)).toEqual(["start", "text"]);
    const stopped = await until(
      async () => (await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).find((m) => m.status === "stopped"),
      "the stopped message",
    );
    expect(stopped.content).toContain("word0");
    expect(stopped.content).toContain("Stopped before the reply was finished");
    expect(stopped.content).not.toContain("word59");
    await until(async () => fake.cancelled > cancelled, "the fake to see the request cancelled");
  });
});

describe("agent.chatStream through httpSubscriptionLink", () => {
  const client = () =>
    createTRPCClient<AppRouter>({
      links: [
        httpSubscriptionLink({
          url: `${server.url}/api/trpc`,
          EventSource: FetchEventSource as never,
          eventSourceOptions: () => ({ headers: auth }) as never,
        }),
      ],
    });

  it("yields the events of the turn in order", async () => {
    fake.reply({ toolCalls: [{ name: "readFile", arguments: { path: "README.md" } }] });
    fake.reply({ chunks: ["Hello", " there"], delayMs: 30 });
    const events: AgentStreamEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = client().agent.chatStream.subscribe(
        { sessionId: w.session.id, message: "read the readme" },
        {
          onData: (e) => {
            events.push(e as AgentStreamEvent);
            if ((e as AgentStreamEvent).type === "message") {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    expect(events.map((e) => e.type)).toEqual(["start", "tool", "text", "text", "message"]);
    expect(events[1]).toEqual({ type: "tool", name: "readFile", summary: "reading README.md" });
    expect((events.at(-1) as Extract<AgentStreamEvent, { type: "message" }>).message).toMatchObject({
      status: "complete",
      content: "Hello there",
    });
  });

  it("unsubscribing aborts the model call and stores the reply as stopped", async () => {
    const cancelled = fake.cancelled;
    const before = (await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).filter(
      (m) => m.status === "stopped",
    ).length;
    fake.reply({ chunks: Array.from({ length: 60 }, (_, i) => `part${i} `), delayMs: 100 });
    await new Promise<void>((resolve, reject) => {
      const sub = client().agent.chatStream.subscribe(
        { sessionId: w.session.id, message: "go on and on" },
        {
          onData: (e) => {
            if ((e as AgentStreamEvent).type === "text") {
              sub.unsubscribe();
              resolve();
            }
          },
          onError: reject,
        },
      );
    });
    const stopped = await until(async () => {
      const all = (await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).filter((m) => m.status === "stopped");
      return all.length > before ? all.at(-1) : undefined;
    }, "the stopped message");
    expect(stopped.content).toContain("part0");
    expect(stopped.content).not.toContain("part59");
    await until(async () => fake.cancelled > cancelled, "the fake to see the request cancelled");
  });

  it("a GET made with the session cookie must be same-origin: a foreign Origin or Sec-Fetch-Site is 403 and runs no turn", async () => {
    const cookie = `next-auth.session-token=${await serviceToken(w.writer)}`;
    const get = (message: string, headers: Record<string, string>) =>
      fetch(`${server.url}/api/trpc/agent.chatStream?input=${encodeURIComponent(JSON.stringify({ sessionId: w.session.id, message }))}`, {
        headers: { accept: "text/event-stream", cookie, ...headers },
      });
    const stored = async () => (await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).map((m) => m.content);
    const before = await stored();
    // a foreign page's EventSource (withCredentials) sends its Origin; an <img> or a link sends Sec-Fetch-Site
    for (const [message, headers] of [
      ["from evil eventsource", { origin: "http://evil.example", "sec-fetch-site": "cross-site" }],
      ["from a sibling port", { origin: server.url.replace(/:\d+$/, ":1"), "sec-fetch-site": "same-site" }],
      ["from an img", { "sec-fetch-site": "cross-site" }],
      ["from nowhere", {}],
    ] as const) {
      const r = await get(message, headers);
      expect([message, r.status]).toEqual([message, 403]);
      expect(await r.text()).toContain("cross-site request refused");
    }
    await sleep(200);
    expect(await stored()).toEqual(before);
    // svc's own page: a same-origin EventSource sends Sec-Fetch-Site: same-origin (no Origin on a GET)
    fake.reply({ content: "same-origin answer" });
    const ok = await get("from svc's page", { "sec-fetch-site": "same-origin" });
    expect([ok.status, ok.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const reader = ok.body!.getReader();
    let text = "";
    while (!text.includes("same-origin answer")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toContain("same-origin answer");
    expect(await stored()).toEqual(expect.arrayContaining(["from svc's page"]));
  });

  it("fails the subscription before storing anything for another user's session", async () => {
    const other = createTRPCClient<AppRouter>({
      links: [
        httpSubscriptionLink({
          url: `${server.url}/api/trpc`,
          EventSource: FetchEventSource as never,
          eventSourceOptions: async () => ({ headers: { authorization: `Bearer ${await makeToken(w.reader, ["repo:read"])}` } }) as never,
        }),
      ],
    });
    const count = (await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).length;
    const error = await new Promise<unknown>((resolve) => {
      const sub = other.agent.chatStream.subscribe(
        { sessionId: w.session.id, message: "hi" },
        {
          onData: () => {},
          onError: (e) => {
            sub.unsubscribe();
            resolve(e);
          },
        },
      );
    });
    expect(String((error as Error).message)).toContain("agent session not found");
    expect((await w.as.writer.agent.getMessages({ sessionId: w.session.id, limit: 100 })).length).toBe(count);
  });
});
