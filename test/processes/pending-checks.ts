/**
 * Checks of the two-process test (./two-processes.test.ts) that main does not pass yet: each is
 * written against the documented behaviour and is NOT CALLED until the change it checks is merged
 * (then it becomes one `it` of two-processes.test.ts, as shown on each).
 *
 * - checkBothJobWorkersRun (issue #21, the job worker's start): two processes started at once on
 *   a new PostgreSQL database must both run a job worker. On main, pg-boss's queue creation in the
 *   two processes deadlocks (40P01) and the loser logs "svc: background jobs did not start: error:
 *   deadlock detected" and never retries: its worker state is `failed` (seen in 4 of 5 runs here).
 *   The jobs are then all run by the other process, so the exactly-once check still passes.
 * - checkAgentTurnLockAcrossProcesses (issue #21, the agent's turn lock; docs/agent.md "Limits":
 *   a message sent while the agent is still answering in the same session — through this process
 *   or another — is refused with CONFLICT (409) and nothing is stored). On main the lock is a set
 *   in the memory of the process running the turn (server/services/agent/run-turn.ts), so the
 *   second turn, sent to the other process, runs too (checked: it answered 200); with the branch
 *   wt-locks merged (the database lease `agent-turn:<sessionId>`) it passes.
 */
import { expect } from "vitest";
import { trpc, waitFor } from "../fixtures/clients";
import { startFakeOpenAI } from "../fixtures/fake-openai";
import type { SvcProcess } from "./svc-process";

/**
 * Both processes run a job worker: `svc_job_worker_state{state="running"}` (GET /api/metrics) of
 * each becomes 1, not the `failed` or `stopped` sample.
 *
 *   it("both processes, started at once on a fresh database, run a job worker", () => checkBothJobWorkersRun([a, b]));
 */
export async function checkBothJobWorkersRun(processes: SvcProcess[]): Promise<void> {
  for (const s of processes) {
    const state = await waitFor(`${s.name}'s job worker`, async () => {
      for (const st of ["running", "failed", "stopped"]) if ((await s.metric(`svc_job_worker_state{state="${st}"}`)) === 1) return st;
      return null;
    });
    expect(state, `svc ${s.name}'s job worker`).toBe("running");
  }
}

/**
 *   it("two turns on one session through A and B at once: one runs, the other is refused", async () =>
 *     checkAgentTurnLockAcrossProcesses(a, b, await newUser(a.url, "agent")));
 *
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
