/**
 * One agent turn at a time per session across svc processes (docs/agent.md "Limits",
 * docs/architecture.md "Locks across processes"). The second "process" is a fresh copy of svc's
 * modules (vi.resetModules) with its own database client on the same database: it shares no
 * memory with this one, only the database, as a second server process would. A turn under way in
 * one process makes a turn of the same session in the other CONFLICT before anything is stored or
 * the model is asked; the lease is released with the turn, and a different session is not held up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import type { AgentMessageView } from "@/server/services/agent/model";
import type { ChatInput } from "@/server/services/agent/schemas";
import { closeRateLimits } from "@/server/rate-limit";
import { actorOf } from "../helpers";
import { serveModelFrom, startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf } from "./issues-fixtures";
import { agentWorld } from "./agent-fixtures";

let fake: FakeOpenAI;
let restoreEnv: () => void;
let other: { chat: (actor: Actor, input: ChatInput) => Promise<AgentMessageView>; close: () => Promise<void> };

/** svc's agent service as another process would run it: fresh modules and a database client of its own. */
async function otherProcess(): Promise<typeof other> {
  const g = globalThis as unknown as { __svcDb?: unknown };
  const saved = g.__svcDb;
  vi.resetModules();
  g.__svcDb = undefined;
  try {
    const dbModule = await import("@/server/db");
    const db: Db = await dbModule.getDb();
    const { chat } = await import("@/server/services/agent/chat");
    return { chat: (actor, input) => chat(db, actor, input), close: () => dbModule.closeDb() };
  } finally {
    g.__svcDb = saved;
  }
}

/** The AppError code of a rejected call of the other process (its AppError is another module's class). */
async function otherCodeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (e) {
    return String((e as { code?: unknown }).code);
  }
}

const chatRequests = () => fake.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
async function untilModelAsked(before: number): Promise<void> {
  while (chatRequests() === before) await new Promise((r) => setTimeout(r, 20));
}
/** A model reply that waits for `open()`, so a turn stays under way as long as the test needs. */
function heldReply(content: string) {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  fake.fallback = async () => {
    await gate;
    return { content };
  };
  return open;
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  restoreEnv = serveModelFrom(fake, "fake-agent");
  other = await otherProcess();
});
afterAll(async () => {
  await other.close();
  restoreEnv();
  await fake.close();
});

describe("agent: one turn at a time per session, across processes", () => {
  it("a turn under way in one process makes the same session's turn in another CONFLICT, storing nothing", async () => {
    await closeRateLimits();
    const w = await agentWorld();
    const sessionId = w.session.id;
    const writer = actorOf(w.writer);

    // this process first, the other process refused
    let open = heldReply("first answer");
    let asked = chatRequests();
    const first = w.as.writer.agent.chat({ sessionId, message: "first" });
    await untilModelAsked(asked);
    const calls = chatRequests();
    // refused before the model is asked (a turn that reaches the model would wait for the held reply)
    const second = otherCodeOf(other.chat(writer, { sessionId, message: "second" }));
    expect(await Promise.race([second, untilModelAsked(calls).then(() => "the model was asked")])).toBe("CONFLICT");
    open();
    expect((await first).content).toBe("first answer");

    // the other process first, this process refused
    open = heldReply("third answer");
    asked = chatRequests();
    const third = other.chat(writer, { sessionId, message: "third" });
    await untilModelAsked(asked);
    const fourth = codeOf(w.as.writer.agent.chat({ sessionId, message: "fourth" }));
    expect(await Promise.race([fourth, untilModelAsked(chatRequests()).then(() => "the model was asked")])).toBe("CONFLICT");
    open();
    expect((await third).content).toBe("third answer");

    // released with the turn: the next message is answered in either process
    fake.fallback = () => ({ content: "done" });
    expect((await other.chat(writer, { sessionId, message: "fifth" })).content).toBe("done");
    const messages = await w.as.writer.agent.getMessages({ sessionId });
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "first"],
      ["assistant", "first answer"],
      ["user", "third"],
      ["assistant", "third answer"],
      ["user", "fifth"],
      ["assistant", "done"],
    ]);
  });

  it("another session of the same user is not held up by a turn under way", async () => {
    await closeRateLimits();
    const w = await agentWorld();
    const second = await w.as.writer.agent.createSession({ repoId: w.repoId, mode: "code", title: "Other" });
    const open = heldReply("slow");
    const asked = chatRequests();
    const first = w.as.writer.agent.chat({ sessionId: w.session.id, message: "first" });
    await untilModelAsked(asked);
    fake.reply({ content: "quick" });
    expect((await other.chat(actorOf(w.writer), { sessionId: second.id, message: "hello" })).content).toBe("quick");
    open();
    expect((await first).content).toBe("slow");
  });
});
