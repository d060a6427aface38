/**
 * search.indexRepo with an embedding provider that is down (docs/ai.md "Semantic search"): the job
 * commits the lexical index and succeeds on its first run, the failure is recorded on the index
 * (ai.searchIndexStatus `embeddingError`), searches answer lexically meanwhile (also when the
 * provider goes down after the vectors were made), and a later run embeds once the provider answers
 * again. The server's provider comes from the environment (OPENAI_BASE_URL +
 * OPENAI_EMBEDDING_MODEL), first a closed local port, then the fake server.
 */
import net from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue, getJob, startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { SEARCH_INDEX_REPO } from "@/server/jobs/names";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { team, type Team } from "./pulls-fixtures";

let t: Team;
let fake: FakeOpenAI;
let closedUrl: string;
const ENV = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_EMBEDDING_MODEL", "OPENAI_MODEL", "ANTHROPIC_API_KEY"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

/** A local port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function useProvider(baseUrl: string): void {
  for (const k of ENV) delete process.env[k];
  process.env.OPENAI_BASE_URL = baseUrl;
  process.env.OPENAI_EMBEDDING_MODEL = "fake-embed";
}

/** Runs search.indexRepo once for main and waits until the queue is done with it. */
async function runIndexJob(): Promise<NonNullable<Awaited<ReturnType<typeof getJob>>>> {
  const id = await enqueue(SEARCH_INDEX_REPO, { repoId: t.repo.id, branch: "main" });
  expect(id).toBeTruthy();
  await expect
    .poll(async () => (await getJob(SEARCH_INDEX_REPO, id!))?.state, { timeout: 60_000, interval: 200 })
    .toMatch(/^(completed|failed|retry)$/);
  return (await getJob(SEARCH_INDEX_REPO, id!))!;
}

beforeAll(async () => {
  t = await team("se");
  fake = await startFakeOpenAI();
  closedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  useProvider(closedUrl);
  await t.wt.commit("lib/ms.js", readFileSync("node_modules/ms/index.js", "utf8"), "ms");
  await t.wt.push("main");
  registerJobHandlers();
  await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
});

afterAll(async () => {
  await stopJobWorker();
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await fake.close();
  await t.server.close();
});

describe("search.indexRepo with an unreachable embedding provider", () => {
  it("commits the lexical index, records the embedding error, searches lexically; a later run embeds", async () => {
    const tip = await t.wt.sha("HEAD");
    const job = await runIndexJob();
    expect(job).toMatchObject({ state: "completed", attempts: 1 }); // no retries: the refresh itself succeeded

    const status = await t.reader.as.ai.searchIndexStatus({ repoId: t.repo.id });
    expect(status).toMatchObject({ status: "ready", stale: false, commitSha: tip, embeddingModel: null });
    expect(status.chunks).toBeGreaterThan(0);
    expect(status.embeddingError).toMatch(/^embedding with openai:fake-embed failed: /);
    expect(status.embeddingError).not.toContain("none"); // the placeholder key is never echoed
    expect(status.embeddingFailedAt).not.toBeNull();

    const out = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "parse a duration string into milliseconds" });
    expect(out.engine).toBe("local");
    expect(out.results[0]).toMatchObject({ path: "lib/ms.js", chunkName: "parse" });

    // the provider is back: the next run embeds every chunk and clears the error
    useProvider(fake.url);
    expect(await runIndexJob()).toMatchObject({ state: "completed", attempts: 1 });
    const after = await t.reader.as.ai.searchIndexStatus({ repoId: t.repo.id });
    expect(after).toMatchObject({ embeddingModel: "openai:fake-embed", embeddingError: null, embeddingFailedAt: null });
    expect(fake.requests.some((r) => r.path.endsWith("/embeddings"))).toBe(true);
    const hybrid = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "parse a duration string into milliseconds" });
    expect(hybrid.engine).toBe("openai:fake-embed");

    // down again at query time: the lexical answer, labelled local, not an error
    useProvider(closedUrl);
    const fallback = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "parse a duration string into milliseconds" });
    expect(fallback.engine).toBe("local");
    expect(fallback.results[0]).toMatchObject({ path: "lib/ms.js", chunkName: "parse" });
  });
});
