/**
 * Two checks of the two-process test (./two-processes.test.ts), kept here for length:
 *
 * - checkBothJobWorkersRun (issue #21 item 1): two processes started at once on a new PostgreSQL
 *   database both run a job worker. Before the queue lock (server/jobs/pg-store.ts), pg-boss's
 *   queue creation in the two processes deadlocked (40P01) and the loser logged "svc: background
 *   jobs did not start: error: deadlock detected" and never retried (4 of 5 runs here).
 * - checkAgentTurnLockAcrossProcesses (issue #21 item 4; docs/agent.md "Limits": a message sent
 *   while the agent is still answering in the same session — through this process or another —
 *   is refused with CONFLICT (409) and nothing is stored). Before the database lease
 *   `agent-turn:<sessionId>` the lock was a set in one process's memory and the second turn,
 *   sent to the other process, ran too (it answered 200).
 */
import { expect } from "vitest";
import { trpc, waitFor } from "../fixtures/clients";
import { startFakeOpenAI } from "../fixtures/fake-openai";
import type { SvcProcess } from "./svc-process";

/**
 * Both processes run a job worker: `svc_job_worker_state{state="running"}` (GET /api/metrics) of
 * each becomes 1 within waitFor's bound (a failed start is retried with backoff, so `failed` may
 * show for a moment; a worker that never runs fails the check), and neither counted a failed start.
 */
export async function checkBothJobWorkersRun(processes: SvcProcess[]): Promise<void> {
  for (const s of processes) {
    await waitFor(`${s.name}'s job worker running`, async () =>
      (await s.metric(`svc_job_worker_state{state="running"}`)) === 1 ? true : null,
    );
    expect(await s.metric("svc_job_worker_start_failures_total"), `svc ${s.name}'s failed worker starts`).toBe(0);
  }
}

/**
 * A repository of `owner` whose AI key points at a fake OpenAI-compatible provider in this
 * process (the servers run with SVC_AI_ALLOW_PRIVATE_BASE_URLS=1); one agent session. A turn
 * through `first` whose reply streams slowly; while the provider is answering it, a turn on the
 * same session through `second` must be refused with 409 CONFLICT and store nothing. After the
 * first turn ends, a turn through `second` runs. Throws (an assertion) otherwise.
 */
export async function checkAgentTurnLockAcrossProcesses(
  first: SvcProcess,
  second: SvcProcess,
  owner: { token: string },
  repoName = "agentlock",
): Promise<void> {
  const fake = await startFakeOpenAI();
  try {
    const call = async <T>(s: SvcProcess, proc: string, input: unknown, kind: "query" | "mutation" = "mutation") => {
      const r = await trpc(s.url, owner.token, proc, input, kind);
      if (r.status !== 200) throw new Error(`${proc} on ${s.name}: ${r.status} ${r.error}`);
      return r.data as T;
    };
    const repo = await call<{ id: string }>(first, "repos.create", { name: repoName });
    await call(first, "repoAiKeys.set", {
      repoId: repo.id,
      provider: "openai",
      apiKey: "sk-two-processes-0000",
      model: "fake",
      baseUrl: fake.url,
    });
    const session = await call<{ id: string }>(second, "agent.createSession", { repoId: repo.id, mode: "pm", title: "one turn at a time" });

    // the first turn's reply takes several seconds to stream
    fake.reply({ chunks: ["Thinking ", "it ", "over ", "slowly."], delayMs: 1500 });
    const completions = () => fake.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
    const running = trpc(
      first.url,
      owner.token,
      "agent.chat",
      { sessionId: session.id, message: "first, through one process" },
      "mutation",
    );
    await waitFor("the first turn asking the model", () => completions() === 1, 60_000);

    const refused = await trpc(
      second.url,
      owner.token,
      "agent.chat",
      { sessionId: session.id, message: "second, through the other" },
      "mutation",
    );
    expect([refused.status, refused.error]).toEqual([409, expect.stringMatching(/the agent is still answering in this session/)]);
    expect(completions()).toBe(1); // the refused turn never asked the model

    const done = await running;
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({ role: "assistant", status: "complete", content: "Thinking it over slowly." });

    // the session is free again, in the other process too
    const next = await trpc(second.url, owner.token, "agent.chat", { sessionId: session.id, message: "now through the other" }, "mutation");
    expect(next.status).toBe(200);
    const messages = await call<Array<{ role: string; content: string }>>(first, "agent.getMessages", { sessionId: session.id }, "query");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages.some((m) => m.content === "second, through the other")).toBe(false);
  } finally {
    await fake.close();
  }
}
