/**
 * The AI review job (spec pulls.getAIReview, pulls.triggerAIReview,
 * Events 2; docs/ai.md "AI review"), through the real router, real git and the real job queue
 * (SQLite's own queue, pg-boss with TEST_DATABASE_URL): a non-draft pull request is reviewed
 * after creation, findings become inline threads of the bot, drafts wait until ready, re-runs,
 * a provider failure is a failed run (not a 500), and a run cut short by a restart runs again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { authenticate } from "@/server/services/users/sign-in";
import { MAX_ATTEMPTS, runAiReview } from "@/server/services/pulls/run-ai-review";
import { AI_BOT_USERNAME } from "@/server/services/pulls/ai-bot";
import { callerFor } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf, team, type Team } from "./pulls-fixtures";

type Run = NonNullable<Awaited<ReturnType<Team["owner"]["as"]["pulls"]["getAIReview"]>>>;

let t: Team;
let fake: FakeOpenAI;
const savedEnv = { ...process.env };
// built at run time: this file itself holds no secret shapes
const awsKey = "AKIA" + "Q2W3E4R5T6Y7U8I9";
let branches = 0;

/** A branch off main with `files`, pushed; a pull request of it (draft when asked). */
async function openPull(files: Record<string, string>, opts: { isDraft?: boolean; title?: string } = {}) {
  const name = `ai${++branches}`;
  await t.wt.run("checkout", "--quiet", "-B", name, "main");
  let head = "";
  for (const [path, content] of Object.entries(files)) head = await t.wt.commit(path, content);
  await t.wt.push(name);
  const pr = await t.owner.as.pulls.create({
    repoId: t.repo.id,
    title: opts.title ?? name,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await t.wt.sha("main"),
    isDraft: opts.isDraft ?? false,
  });
  return { pr, branch: name, head };
}

/** Waits until the pull request's latest run is finished (done or failed) and returns it. */
async function finished(prId: string, notId?: string): Promise<Run> {
  let last: Run | null = null;
  await expect
    .poll(
      async () => {
        last = await t.owner.as.pulls.getAIReview({ prId });
        return last && last.id !== notId && (last.status === "done" || last.status === "failed") ? last.status : "pending";
      },
      { timeout: 60_000, interval: 150 },
    )
    .not.toBe("pending");
  return last!;
}

const botReviews = async (prId: string) => (await t.owner.as.pulls.reviews({ prId })).filter((r) => r.author?.username === AI_BOT_USERNAME);
const botThreads = async (prId: string) =>
  (await t.owner.as.pulls.comments({ prId })).filter((c) => c.author?.username === AI_BOT_USERNAME);

beforeAll(async () => {
  for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "ANTHROPIC_API_KEY"]) delete process.env[k];
  t = await team("air");
  fake = await startFakeOpenAI();
  // main has a console.log that a pull request will remove (a removal is no finding)
  await t.wt.commit("src/old.ts", 'export const x = 1;\nconsole.log("old");\n');
  await t.wt.push("main");
  registerJobHandlers();
});

afterAll(async () => {
  process.env = savedEnv;
  await stopJobWorker();
  await fake.close();
  await t.server.close();
});

describe("AI review: restart", () => {
  it("a run cut short (the process died while it was running) runs again when the worker starts, and finishes once", async () => {
    await stopJobWorker();
    const { pr } = await openPull({ "src/a.ts": "export const a = 1;\nconsole.log(a);\n" });
    const queued = await t.owner.as.pulls.getAIReview({ prId: pr.id });
    expect(queued).toMatchObject({ status: "queued", prId: pr.id, headSha: pr.headSha, reason: "opened", engine: null });
    // as a worker that claimed the run and then died leaves it
    const db = await getDb();
    await db.pullRequestAiReview.update({ where: { id: queued!.id }, data: { status: "running", attempts: 1 } });
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    const done = await finished(pr.id);
    expect(done).toMatchObject({ id: queued!.id, status: "done", engine: "local", state: "commented" });
    expect((await db.pullRequestAiReview.findUniqueOrThrow({ where: { id: done.id } })).attempts).toBe(2);
    // delivered again (at least once): nothing changes
    await runAiReview(db, done.id);
    expect(await botReviews(pr.id)).toHaveLength(1);
  });

  it("a run that died mid-way MAX_ATTEMPTS times is recorded failed with the reason, and a re-run starts afresh", async () => {
    await stopJobWorker();
    const { pr } = await openPull({ "src/crashy.ts": "export const c = 1;\n" });
    const db = await getDb();
    const queued = (await t.owner.as.pulls.getAIReview({ prId: pr.id }))!;
    await db.pullRequestAiReview.update({ where: { id: queued.id }, data: { status: "running", attempts: MAX_ATTEMPTS } });
    await runAiReview(db, queued.id);
    const failed = await t.reader.as.pulls.getAIReview({ prId: pr.id });
    expect(failed).toMatchObject({ id: queued.id, status: "failed", error: expect.stringMatching(/stopped before finishing 3 times/) });
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    const rerun = await t.owner.as.pulls.triggerAIReview({ prId: pr.id });
    expect(await finished(pr.id, queued.id)).toMatchObject({ id: rerun.id, status: "done" });
  });
});

describe("AI review: the job", () => {
  beforeAll(() => startJobWorker({ concurrency: 1, pollIntervalMs: 100 }));

  it("a non-draft pull request with a planted secret and a console.log: done, changes requested, inline threads of the bot", async () => {
    const { pr, head } = await openPull({
      "src/config.ts": `export const key = "${awsKey}";\nconsole.log(key);\nexport const ok = true;\n`,
      "src/old.ts": "export const x = 1;\n",
    });
    const run = await finished(pr.id);
    expect(run).toMatchObject({ status: "done", type: "review", state: "changes_requested", engine: "local", headSha: head, error: null });
    expect(run.findings).toEqual([
      expect.objectContaining({ path: "src/config.ts", line: 1, severity: "error", rule: "secret" }),
      expect.objectContaining({ path: "src/config.ts", line: 2, severity: "warning", rule: "debug" }),
    ]);
    expect(JSON.stringify(run)).not.toContain(awsKey);
    const [review] = await botReviews(pr.id);
    expect(review).toMatchObject({ state: "changes_requested", commitSha: head, commentCount: 2 });
    expect(review!.id).toBe(run.reviewId);
    // the bot is marked as one wherever it is shown (the pages show a "bot" badge)
    expect(review!.author).toMatchObject({ username: AI_BOT_USERNAME, isBot: true });
    const threads = await botThreads(pr.id);
    expect(threads.map((c) => [c.path, c.line, c.side, c.reviewId])).toEqual([
      ["src/config.ts", 1, "RIGHT", review!.id],
      ["src/config.ts", 2, "RIGHT", review!.id],
    ]);
    expect(threads[1]!.diffHunk).toContain("+console.log(key);");
    expect(threads.map((c) => c.author?.isBot)).toEqual([true, true]);
    expect(
      (await t.owner.as.pulls.comments({ prId: pr.id }))
        .filter((c) => c.author?.username !== AI_BOT_USERNAME)
        .every((c) => !c.author?.isBot),
    ).toBe(true);
    // the files tab reads them per file too
    expect((await t.owner.as.pulls.getFileComments({ prId: pr.id, path: "src/config.ts" })).length).toBe(2);
    // resolvable like any thread, by someone with write permission
    await t.writer.as.pulls.resolveComment({ commentId: threads[1]!.id });
    expect((await botThreads(pr.id)).find((c) => c.id === threads[1]!.id)).toMatchObject({ isResolved: true });
    // readers see the run; the timeline has the bot's review
    expect(await t.reader.as.pulls.getAIReview({ prId: pr.id })).toMatchObject({ id: run.id, status: "done" });
    expect(
      (await t.owner.as.pulls.timeline({ prId: pr.id })).some((e) => e.type === "reviewed" && e.actor?.username === AI_BOT_USERNAME),
    ).toBe(true);
  });

  it("the bot cannot sign in, and nobody can sign up with its name", async () => {
    const db = await getDb();
    const bot = await db.user.findUniqueOrThrow({ where: { usernameLower: AI_BOT_USERNAME } });
    expect(bot).toMatchObject({ isBot: true, passwordHash: null, githubId: null });
    expect(await authenticate(db, AI_BOT_USERNAME, "anything-at-all")).toBeNull();
    expect(await codeOf((await callerFor(null)).users.signUp({ username: AI_BOT_USERNAME, password: "password123" }))).toBe("BAD_REQUEST");
  });

  it("nothing to flag inline: done as a comment, no review posted", async () => {
    const { pr } = await openPull({ "notes.txt": "just text\n" });
    expect(await finished(pr.id)).toMatchObject({ status: "done", type: "comment", state: "commented", reviewId: null, findings: [] });
    expect(await botReviews(pr.id)).toEqual([]);
  });

  it("a draft gets no run until it is marked ready for review", async () => {
    const { pr } = await openPull({ "src/d.ts": "debugger;\n" }, { isDraft: true });
    expect(await t.owner.as.pulls.getAIReview({ prId: pr.id })).toBeNull();
    await t.owner.as.pulls.update({ prId: pr.id, isDraft: false });
    const run = await finished(pr.id);
    expect(run).toMatchObject({
      status: "done",
      reason: "ready_for_review",
      findings: [expect.objectContaining({ path: "src/d.ts", line: 1, rule: "debug" })],
    });
  });

  it("triggerAIReview: the author or write; an unchanged head posts nothing twice; a new head gets a new review", async () => {
    const { pr, branch } = await openPull({ "src/r.ts": "console.log(1);\n" });
    const first = await finished(pr.id);
    expect(await codeOf(t.reader.as.pulls.triggerAIReview({ prId: pr.id }))).toBe("FORBIDDEN");
    expect(await codeOf(t.stranger.as.pulls.triggerAIReview({ prId: pr.id }))).toBe("NOT_FOUND");
    const again = await t.writer.as.pulls.triggerAIReview({ prId: pr.id });
    expect(again).toMatchObject({ reason: "manual", headSha: pr.headSha });
    expect(["queued", "running", "done"]).toContain(again.status);
    const second = await finished(pr.id, first.id);
    expect(second).toMatchObject({ status: "done", reviewId: first.reviewId });
    expect(await botReviews(pr.id)).toHaveLength(1);
    expect(await botThreads(pr.id)).toHaveLength(1);
    // a new head: a new review with its own threads
    await t.wt.run("checkout", "--quiet", branch);
    await t.wt.commit("src/r.ts", "console.log(1);\nconsole.debug(2);\n");
    await t.wt.push(branch);
    const third = await t.owner.as.pulls.triggerAIReview({ prId: pr.id });
    const done = await finished(pr.id, second.id);
    expect(done.id).toBe(third.id);
    expect(done.reviewId).not.toBe(first.reviewId);
    expect(await botReviews(pr.id)).toHaveLength(2);
    expect((await botThreads(pr.id)).filter((c) => c.commitSha === done.headSha).map((c) => c.line)).toEqual([1, 2]);
    // closed pull requests are not reviewed
    await t.owner.as.pulls.close({ prId: pr.id });
    expect(await codeOf(t.owner.as.pulls.triggerAIReview({ prId: pr.id }))).toBe("PRECONDITION_FAILED");
  });

  it("with a model: findings grounded in the diff (others dropped), labelled with the engine", async () => {
    process.env.OPENAI_BASE_URL = fake.url;
    process.env.OPENAI_MODEL = "fake-review";
    try {
      let prompt = "";
      fake.reply((req) => {
        prompt = JSON.stringify(req.messages);
        return {
          content: JSON.stringify({
            summary: "Adds a divide helper.",
            findings: [
              { path: "src/math.ts", line: 2, severity: "warning", message: "Division by zero is not handled." },
              { path: "src/math.ts", line: 40, severity: "error", message: "a line the diff does not add" },
              { path: "src/elsewhere.ts", line: 1, severity: "error", message: "a file the pull request does not change" },
            ],
          }),
        };
      });
      const { pr } = await openPull({ "src/math.ts": "export function divide(a: number, b: number) {\n  return a / b;\n}\n" });
      const run = await finished(pr.id);
      expect(prompt).toContain("src/math.ts");
      expect(prompt).toContain("return a / b;");
      expect(run).toMatchObject({
        status: "done",
        engine: "openai:fake-review",
        state: "commented",
        findings: [{ path: "src/math.ts", line: 2, severity: "warning", message: "Division by zero is not handled.", rule: "model" }],
      });
      expect(run.body).toContain("Adds a divide helper.");
      expect((await botThreads(pr.id)).map((c) => [c.path, c.line])).toEqual([["src/math.ts", 2]]);
    } finally {
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_MODEL;
    }
  });

  it("a provider error is a failed run with the reason, never a 500; a re-run can then succeed", async () => {
    process.env.OPENAI_BASE_URL = fake.url;
    fake.fallback = () => ({ status: 500, error: "the model server is down" });
    try {
      const { pr } = await openPull({ "src/f.ts": "console.log('f');\n" });
      const run = await finished(pr.id);
      expect(run).toMatchObject({ status: "failed", engine: "openai:gpt-4o-mini" });
      expect(run.error).toMatch(/AI provider \(openai:gpt-4o-mini\) failed.*the model server is down/);
      expect(await botReviews(pr.id)).toEqual([]);
      delete process.env.OPENAI_BASE_URL;
      const rerun = await t.owner.as.pulls.triggerAIReview({ prId: pr.id });
      expect(await finished(pr.id, run.id)).toMatchObject({ id: rerun.id, status: "done", engine: "local" });
    } finally {
      delete process.env.OPENAI_BASE_URL;
      fake.fallback = () => ({ content: "ok" });
    }
  });
});
