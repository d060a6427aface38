/**
 * A provider's error text never carries the repository's AI key (docs/security.md "Hardening II,
 * item 3"; server/ai/redact.ts). A public repository has its own key and a provider that answers
 * 401 "Incorrect API key provided: <the key it was sent>" (the fake, real HTTP, the real OpenAI
 * provider code). Every path a provider error takes — the answer of ai.explainFileDiff,
 * ai.suggestConflictResolution, ai.chat, ai.generatePRDescription; the stored `error` of
 * pulls.getAIReview and `embeddingError` of ai.searchIndexStatus (and their database rows); the
 * server's log — holds no key, of any shape (sk-…, gsk_…, a plain one), nor a piece of it. Readers
 * see "the AI provider refused the request (401)"; repository admins the provider's words, redacted.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/server/db";
import { resolveAiEngine } from "@/server/ai/resolve";
import { refreshSearchIndex } from "@/server/services/search/index-repo";
import { runAiReview } from "@/server/services/pulls/run-ai-review";
import { callerFor } from "../helpers";
import { trpc } from "../fixtures/clients";
import { echoKeyRefusal, startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { messageOf, team, type Caller, type Team } from "./pulls-fixtures";

// built at run time: this file holds no key shapes a scanner would flag
const MARK = "PUBREPO" + "KEY";
const KEYS = {
  sk: `sk-${MARK}-9f8e7d6c5b4a3210ZYXW`,
  gsk: `gsk_${MARK}7d6c5b4a3210abcdEFGH`,
  plain: `plainkey_${MARK}4a3210abcdIJKL`,
};
const PROVIDER_ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_EMBEDDING_MODEL", "ANTHROPIC_API_KEY"];
const savedEnv = { ...process.env };

let t: Team;
let fake: FakeOpenAI;
let anon: Caller;
const logged: string[] = [];

/** The key, or any piece of it that names it, in `text`. */
function leaks(text: unknown): boolean {
  const s = typeof text === "string" ? text : inspect(text, { depth: 8 });
  return s.includes(MARK) || Object.values(KEYS).some((k) => s.includes(k));
}

async function useKey(apiKey: string): Promise<void> {
  await t.owner.as.repoAiKeys.set({
    repoId: t.repo.id,
    provider: "openai",
    apiKey,
    baseUrl: fake.url,
    model: "fake-chat",
    embeddingModel: "fake-embed",
  });
}

/** The provider was asked with `apiKey` since request number `since` (so its refusal echoed it). */
function askedWith(since: number, apiKey: string): void {
  const sent = fake.requests.slice(since).map((r) => r.headers.authorization);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.every((h) => h === `Bearer ${apiKey}`)).toBe(true);
}

const REFUSED = /the AI provider \(openai:fake-chat\) refused the request \(401\)/;
const ADMIN_DETAIL = /Incorrect API key provided: \[redacted\]/;

beforeAll(async () => {
  for (const k of PROVIDER_ENV) delete process.env[k];
  process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1"; // the fake listens on 127.0.0.1
  for (const level of ["error", "warn", "log", "info"] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 8 }))).join(" "));
      original(...args);
    });
  }
  fake = await startFakeOpenAI();
  fake.fallback = echoKeyRefusal;
  fake.embeddingFailure = echoKeyRefusal;
  t = await team("kr");
  await t.owner.as.repos.update({ repoId: t.repo.id, isPrivate: false });
  anon = await callerFor(null);
  await t.wt.commit("src/money.ts", "export function formatCurrency(n: number) {\n  return `$${n.toFixed(2)}`;\n}\n", "money");
  await t.wt.push("main");
  await t.wt.run("checkout", "--quiet", "-b", "feature");
  await t.wt.commit("src/tax.ts", "export const vat = (n: number) => n * 0.2;\n", "feat: tax");
  await t.wt.push("feature");
  await t.wt.run("checkout", "--quiet", "main");
  await useKey(KEYS.sk);
}, 120_000);

afterEach(() => fake.clearReplies());

afterAll(async () => {
  vi.restoreAllMocks();
  for (const k of [...PROVIDER_ENV, "SVC_AI_ALLOW_PRIVATE_BASE_URLS"]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  await fake.close();
  await t.server.close();
});

const explainInput = () => ({
  repoId: t.repo.id,
  path: "src/a.ts",
  oldContent: "export const a = 1;\n",
  newContent: "export const a = 2;\n",
});
const conflictInput = () => ({ repoId: t.repo.id, path: "src/a.ts", base: "a\nb\nc\n", ours: "a\nX\nc\n", theirs: "a\nY\nc\n" });

describe("a provider's refusal that echoes the repository key", () => {
  it("ai.explainFileDiff and ai.suggestConflictResolution: a reader sees the generic refusal, an admin the redacted words", async () => {
    for (const call of [
      (c: Caller) => c.ai.explainFileDiff(explainInput()),
      (c: Caller) => c.ai.suggestConflictResolution(conflictInput()),
    ]) {
      const since = fake.requests.length;
      const reader = await messageOf(call(t.reader.as));
      askedWith(since, KEYS.sk);
      expect(reader).toMatch(REFUSED);
      expect(reader).not.toMatch(/Incorrect API key/);
      const admin = await messageOf(call(t.owner.as));
      expect(admin).toMatch(ADMIN_DETAIL);
      expect(leaks(reader) || leaks(admin)).toBe(false);
    }
  });

  it("anonymous callers get the local engine: the key is never sent, nothing can echo it", async () => {
    const since = fake.requests.length;
    expect((await anon.ai.explainFileDiff(explainInput())).engine).toBe("local");
    expect((await anon.ai.suggestConflictResolution(conflictInput())).engine).toBe("local");
    expect((await anon.ai.semanticSearch({ repoId: t.repo.id, query: "format currency" })).engine).toBe("local");
    expect(fake.requests.length).toBe(since);
  });

  it("ai.generatePRDescription and ai.chat (a reader): the generic refusal; an admin: the redacted words", async () => {
    const since = fake.requests.length;
    const describe = (c: Caller) => c.ai.generatePRDescription({ repoId: t.repo.id, sourceBranch: "feature", targetBranch: "main" });
    const reader = await messageOf(describe(t.reader.as));
    askedWith(since, KEYS.sk);
    expect(reader).toMatch(REFUSED);
    const admin = await messageOf(describe(t.owner.as));
    expect(admin).toMatch(ADMIN_DETAIL);
    const chat = await messageOf(t.reader.as.ai.chat({ repoId: t.repo.id, message: "how is money formatted?" }));
    expect(chat).toMatch(REFUSED);
    expect([reader, admin, chat].some(leaks)).toBe(false);
  });

  it("keys of other shapes (gsk_…, a plain one) do not leak through ai.chat either, to readers or admins", async () => {
    try {
      for (const key of [KEYS.gsk, KEYS.plain]) {
        await useKey(key);
        const since = fake.requests.length;
        const reader = await messageOf(t.reader.as.ai.chat({ repoId: t.repo.id, message: "how is money formatted?" }));
        askedWith(since, key);
        expect(reader).toMatch(REFUSED);
        const admin = await messageOf(t.owner.as.ai.chat({ repoId: t.repo.id, message: "how is money formatted?" }));
        expect(admin).toMatch(ADMIN_DETAIL);
        expect(leaks(reader) || leaks(admin)).toBe(false);
      }
    } finally {
      await useKey(KEYS.sk);
    }
  });

  it("pulls.getAIReview: the stored error holds no key; anonymous readers get the generic refusal, admins the redacted words", async () => {
    await t.wt.run("checkout", "--quiet", "-b", "reviewed", "main");
    const head = await t.wt.commit("src/review.ts", "export const r = 1;\n", "review me");
    await t.wt.push("reviewed");
    await t.wt.run("checkout", "--quiet", "main");
    const pr = await t.owner.as.pulls.create({
      repoId: t.repo.id,
      title: "Review me",
      sourceBranch: "reviewed",
      targetBranch: "main",
      headSha: head,
      baseSha: await t.wt.sha("main"),
    });
    const db = await getDb();
    const run = (await anon.pulls.getAIReview({ prId: pr.id }))!;
    const since = fake.requests.length;
    await runAiReview(db, run.id); // the job's work, here (no worker in this file)
    askedWith(since, KEYS.sk);
    const seen = (await anon.pulls.getAIReview({ prId: pr.id }))!;
    expect(seen).toMatchObject({ status: "failed" });
    expect(seen.error).toMatch(/the AI provider \(openai:fake-chat\) refused the request \(401\)/);
    expect((await t.reader.as.pulls.getAIReview({ prId: pr.id }))!.error).toBe(seen.error);
    const admin = (await t.owner.as.pulls.getAIReview({ prId: pr.id }))!;
    expect(admin.error).toMatch(ADMIN_DETAIL);
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "PullRequestAiReview" WHERE "id" = '${run.id}'`);
    expect(rows).toHaveLength(1);
    expect([seen, admin, rows].some(leaks)).toBe(false);
  });

  it("ai.searchIndexStatus: the stored embeddingError holds no key; readers get the status only, admins the redacted words", async () => {
    const db = await getDb();
    const engine = await resolveAiEngine(db, t.repo.id);
    expect(engine.kind === "model" && engine.embedding).toBeTruthy();
    const since = fake.requests.length;
    await refreshSearchIndex(db, t.repo.id, "main", engine.kind === "model" ? engine.embedding : undefined);
    askedWith(since, KEYS.sk);
    const status = await anon.ai.searchIndexStatus({ repoId: t.repo.id });
    expect(status.embeddingError).toBe("embedding with openai:fake-embed failed: the provider answered 401");
    const admin = await t.owner.as.ai.searchIndexStatus({ repoId: t.repo.id });
    expect(admin.embeddingError).toMatch(/^embedding with openai:fake-embed failed 401: Incorrect API key provided: \[redacted\]/);
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "SearchIndex" WHERE "repoId" = '${t.repo.id}'`);
    expect([status, admin, rows].some(leaks)).toBe(false);
  });

  it("over HTTP: the 503 a reader gets and the server's log line hold no key", async () => {
    const before = logged.length;
    const since = fake.requests.length;
    const r = await trpc(t.server.url, t.reader.token, "ai.explainFileDiff", explainInput(), "mutation");
    askedWith(since, KEYS.sk);
    expect(r.status).toBe(503);
    expect(r.error).toMatch(REFUSED);
    const lines = logged.slice(before);
    expect(lines.join("\n")).toMatch(/ai\.explainFileDiff/); // the 503 was logged …
    expect(lines.join("\n")).toMatch(ADMIN_DETAIL); // … with the provider's words, redacted
    expect(leaks(r.error) || leaks(lines)).toBe(false);
  });

  it("nothing this file made svc log holds a key", () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter(leaks)).toEqual([]);
  });
});
