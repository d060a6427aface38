/**
 * Who may make a model spend a repository's key, and how much (docs/security.md "Hardening II,
 * item 5"; server/services/ai/budget.ts). A public repository with its own key (the fake
 * OpenAI-compatible server, real HTTP): anonymous callers get the local engine and never reach
 * the provider; a signed-in caller's requests are counted against the repository's daily budget
 * (repoAiKeys.budget / setBudget, admins only) and refused with TOO_MANY_REQUESTS past it, the
 * provider not asked; the server's own provider is not counted; an AI review run past the budget
 * fails saying so. Two server processes on one database share the count exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { chargeAiRequest } from "@/server/services/ai/budget";
import { runAiReview } from "@/server/services/pulls/run-ai-review";
import { callerFor } from "../helpers";
import { trpc } from "../fixtures/clients";
import { spawnServe, type ServeChild } from "../fixtures/spawn-serve";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf, messageOf, team, type Caller, type Team } from "./pulls-fixtures";

const KEY = "sk-budget-" + "0123456789abcdefWXYZ";
const PROVIDER_ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_EMBEDDING_MODEL", "ANTHROPIC_API_KEY"];
const savedEnv = { ...process.env };

let t: Team;
let fake: FakeOpenAI;
let anon: Caller;

const explanation = JSON.stringify({ summary: "Changes a.", explanation: "a is now 2.", impact: "low" });
const explainInput = (repoId: string) => ({
  repoId,
  path: "src/a.ts",
  oldContent: "export const a = 1;\n",
  newContent: "export const a = 2;\n",
});

async function withKey(repoId: string): Promise<void> {
  await t.owner.as.repoAiKeys.set({ repoId, provider: "openai", apiKey: KEY, baseUrl: fake.url, model: "fake-chat" });
}

beforeAll(async () => {
  for (const k of PROVIDER_ENV) delete process.env[k];
  process.env.SVC_AI_ALLOW_PRIVATE_BASE_URLS = "1"; // the fake listens on 127.0.0.1
  fake = await startFakeOpenAI();
  fake.fallback = () => ({ content: explanation });
  t = await team("bu");
  await t.owner.as.repos.update({ repoId: t.repo.id, isPrivate: false });
  anon = await callerFor(null);
  await withKey(t.repo.id);
}, 120_000);

afterAll(async () => {
  for (const k of [...PROVIDER_ENV, "SVC_AI_ALLOW_PRIVATE_BASE_URLS"]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  await fake.close();
  await t.server.close();
});

describe("the repository key's daily budget", () => {
  it("is the default until an admin sets it; only admins read or set it; bad values are BAD_REQUEST", async () => {
    const budget = await t.owner.as.repoAiKeys.budget({ repoId: t.repo.id });
    expect(budget).toMatchObject({ dailyRequests: 500, isDefault: true, usedToday: 0, day: new Date().toISOString().slice(0, 10) });
    expect(Date.parse(budget.resetsAt)).toBeGreaterThan(Date.now());
    expect(await codeOf(t.writer.as.repoAiKeys.budget({ repoId: t.repo.id }))).toBe("FORBIDDEN");
    expect(await codeOf(t.reader.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 10_000 }))).toBe("FORBIDDEN");
    expect(await codeOf(anon.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 10_000 }))).toBe("UNAUTHORIZED");
    for (const dailyRequests of [-1, 1.5, 2_000_000, "10" as unknown as number])
      expect(await codeOf(t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests })), String(dailyRequests)).toBe(
        "BAD_REQUEST",
      );
    expect(await t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 40 })).toMatchObject({
      dailyRequests: 40,
      isDefault: false,
    });
  });

  it("counts a signed-in caller's model requests and refuses past it, without asking the provider; anonymous callers get the local engine", async () => {
    await t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 2 });
    const asked = fake.requests.length;
    for (let i = 0; i < 2; i++) expect((await t.reader.as.ai.explainFileDiff(explainInput(t.repo.id))).engine).toBe("openai:fake-chat");
    const refused = t.reader.as.ai.explainFileDiff(explainInput(t.repo.id));
    expect(await codeOf(refused)).toBe("TOO_MANY_REQUESTS");
    expect(await messageOf(t.writer.as.ai.explainFileDiff(explainInput(t.repo.id)))).toMatch(
      /this repository's AI key has used its budget of 2 requests today; it starts again at 00:00 UTC \(in .*\), or a repository admin can raise it in Settings → AI/,
    );
    expect(
      await codeOf(
        t.writer.as.ai.suggestConflictResolution({ repoId: t.repo.id, path: "a", base: "a\nb\n", ours: "a\nX\n", theirs: "a\nY\n" }),
      ),
    ).toBe("TOO_MANY_REQUESTS");
    // the anonymous visitor is neither refused nor counted: the local engine answers
    expect((await anon.ai.explainFileDiff(explainInput(t.repo.id))).engine).toBe("local");
    expect(fake.requests.length - asked).toBe(2);
    expect(await t.owner.as.repoAiKeys.budget({ repoId: t.repo.id })).toMatchObject({ dailyRequests: 2, usedToday: 2 });

    await t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 0 });
    expect(await messageOf(t.reader.as.ai.explainFileDiff(explainInput(t.repo.id)))).toMatch(
      /switched off \(a budget of 0 requests a day\)/,
    );
    await t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: null });
    expect((await t.reader.as.ai.explainFileDiff(explainInput(t.repo.id))).engine).toBe("openai:fake-chat");
    expect(await t.owner.as.repoAiKeys.budget({ repoId: t.repo.id })).toMatchObject({ dailyRequests: 500, isDefault: true, usedToday: 3 });
  });

  it("does not count the server's own provider", async () => {
    const repo = await t.owner.as.repos.create({ name: `bu-server-${Date.now()}`, isPrivate: false });
    await t.owner.as.repoAiKeys.setBudget({ repoId: repo.id, dailyRequests: 0 });
    Object.assign(process.env, { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: "server-chat" });
    try {
      expect((await t.reader.as.ai.explainFileDiff(explainInput(repo.id))).engine).toBe("openai:server-chat");
    } finally {
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_MODEL;
    }
    expect(await t.owner.as.repoAiKeys.budget({ repoId: repo.id })).toMatchObject({ usedToday: 0 });
  });

  it("an AI review run past the budget fails saying so, the provider not asked", async () => {
    await t.owner.as.repoAiKeys.setBudget({ repoId: t.repo.id, dailyRequests: 0 });
    await t.wt.run("checkout", "--quiet", "-b", "budget-review", "main");
    const head = await t.wt.commit("src/r.ts", "export const r = 1;\n", "r");
    await t.wt.push("budget-review");
    await t.wt.run("checkout", "--quiet", "main");
    const pr = await t.owner.as.pulls.create({
      repoId: t.repo.id,
      title: "Budget",
      sourceBranch: "budget-review",
      targetBranch: "main",
      headSha: head,
      baseSha: await t.wt.sha("main"),
    });
    const run = (await t.owner.as.pulls.getAIReview({ prId: pr.id }))!;
    const asked = fake.requests.length;
    await runAiReview(await getDb(), run.id); // the job's work, here (no worker in this file)
    expect(await t.reader.as.pulls.getAIReview({ prId: pr.id })).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/switched off \(a budget of 0 requests a day\)/),
    });
    expect(fake.requests.length).toBe(asked);
  });
});

describe("one budget for every process and connection", () => {
  it("many charges at once take exactly the budget (one atomic upsert)", async () => {
    const repo = await t.owner.as.repos.create({ name: `bu-race-${Date.now()}`, isPrivate: false });
    await t.owner.as.repoAiKeys.setBudget({ repoId: repo.id, dailyRequests: 7 });
    const db = await getDb();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => chargeAiRequest(db, repo.id)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(7);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(await t.owner.as.repoAiKeys.budget({ repoId: repo.id })).toMatchObject({ usedToday: 7 });
  });

  it("two server processes on one database: of 12 requests at once exactly the budget of 5 reach the provider", async () => {
    const repo = await t.owner.as.repos.create({ name: `bu-two-${Date.now()}`, isPrivate: false });
    await withKey(repo.id);
    await t.owner.as.repoAiKeys.setBudget({ repoId: repo.id, dailyRequests: 5 });
    let child: ServeChild | undefined;
    try {
      child = await spawnServe();
      const urls = [t.server.url, child.url];
      const asked = fake.requests.length;
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          trpc(urls[i % 2]!, t.writer.token, "ai.explainFileDiff", explainInput(repo.id), "mutation", 120_000),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, child.stderr().slice(-2000)).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
      expect(results.filter((r) => r.status === 429).every((r) => /budget of 5 requests today/.test(r.error ?? ""))).toBe(true);
      expect(fake.requests.length - asked).toBe(5);
      expect(await t.owner.as.repoAiKeys.budget({ repoId: repo.id })).toMatchObject({ usedToday: 5 });
    } finally {
      await child?.stop();
    }
  }, 300_000);
});
