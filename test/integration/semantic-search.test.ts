/**
 * Semantic code search (docs/ai.md "Semantic search"): a real repository pushed over git smart HTTP
 * is indexed per blob, searched through the real router (ai.semanticSearch) by natural words,
 * filtered by file type and path glob; a push that changes one file re-chunks only that blob
 * (through the search.indexRepo job); a private repository is NOT_FOUND to strangers; the hybrid
 * engine runs through the real OpenAI provider code against the fake embeddings endpoint.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { observeReads } from "@/server/db/read";
import { startJobWorker, stopJobWorker } from "@/server/jobs";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { engineFromSettings } from "@/server/ai/engine";
import { authorizeRepo } from "@/server/services/repos/access";
import { refreshSearchIndex } from "@/server/services/search/index-repo";
import { semanticSearch } from "@/server/services/search/semantic-search";
import { CHUNKER_VERSION } from "@/server/services/search/chunk";
import { MAX_EMBEDDING_DIMS } from "@/server/services/search/embeddings";
import { cachedVectorBytes, setVectorMemoryBudget, vectorMemoryMbFromEnv } from "@/server/services/search/vectors";
import { actorOf } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf, team, type Team } from "./pulls-fixtures";

const PYTHON = `"""Helpers for money amounts."""


def format_currency(amount, currency="EUR"):
    """Formats an amount of money with its currency symbol and two decimals."""
    symbol = {"EUR": "€", "USD": "$"}.get(currency, currency)
    return f"{symbol}{amount:.2f}"


class InvoiceTotals:
    """Sums the lines of an invoice."""

    def __init__(self, lines):
        self.lines = lines

    def grand_total(self):
        return sum(line.price * line.quantity for line in self.lines)
`;

let t: Team;
let fake: FakeOpenAI;

beforeAll(async () => {
  t = await team("ss");
  fake = await startFakeOpenAI();
  await t.wt.commit("src/util.ts", readFileSync("node_modules/zod/src/v4/core/util.ts", "utf8"), "util");
  await t.wt.commit("lib/ms.js", readFileSync("node_modules/ms/index.js", "utf8"), "ms");
  await t.wt.commit("billing/money.py", PYTHON, "money");
  await t.wt.commit("assets/logo.bin", "\u0000\u0001binary\u0000", "binary");
  await t.wt.commit("vendor/dep.js", "function vendoredEscapeRegex() {}\n", "vendored");
  await t.wt.push("main");
});

afterAll(async () => {
  await stopJobWorker();
  await fake.close();
  await t.server.close();
});

describe("ai.semanticSearch (lexical engine)", () => {
  it("finds a function by natural words, in the spec's shape, with engine local", async () => {
    const out = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "escape special characters of a regular expression" });
    expect(out).toMatchObject({
      query: "escape special characters of a regular expression",
      engine: "local",
      totalResults: out.results.length,
    });
    expect(typeof out.searchTime).toBe("number");
    expect(out.results[0]).toMatchObject({ path: "src/util.ts", chunkType: "function", chunkName: "escapeRegex", language: "typescript" });
    const top = out.results[0]!;
    const lines = readFileSync("node_modules/zod/src/v4/core/util.ts", "utf8").split("\n");
    expect(top.content).toBe(lines.slice(top.startLine - 1, top.endLine).join("\n"));
    expect(top.content).toContain("export function escapeRegex");
    expect(top.score).toBeGreaterThan(0.4);
    expect(top.score).toBeLessThanOrEqual(1);
    for (const r of out.results)
      expect(Object.keys(r).sort()).toEqual(
        expect.arrayContaining(["path", "startLine", "endLine", "content", "score", "chunkType", "language"]),
      );
  });

  it("finds Python and JavaScript by words of their doc comments and names", async () => {
    const money = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "format money with a currency symbol" });
    expect(money.results[0]).toMatchObject({
      path: "billing/money.py",
      chunkName: "format_currency",
      chunkType: "function",
      language: "python",
    });
    const total = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "invoice grand total" });
    expect(total.results.map((r) => r.chunkName)).toContain("InvoiceTotals.grand_total");
    const ms = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "parse a duration string into milliseconds" });
    expect(ms.results[0]).toMatchObject({ path: "lib/ms.js", chunkName: "parse" });
  });

  it("skips binary and vendored files", async () => {
    const out = await t.reader.as.ai.semanticSearch({
      repoId: t.repo.id,
      query: "vendored escape regex binary",
      options: { minSimilarity: 0 },
    });
    expect(out.results.map((r) => r.path)).not.toContain("vendor/dep.js");
    expect(out.results.map((r) => r.path)).not.toContain("assets/logo.bin");
  });

  it("filters by file type, path glob, limit and minSimilarity", async () => {
    const q = "format the long amount";
    const py = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { fileTypes: ["py"], minSimilarity: 0 } });
    expect(py.results.length).toBeGreaterThan(0);
    expect(py.results.every((r) => r.path.endsWith(".py"))).toBe(true);
    const lib = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { paths: ["lib/**"], minSimilarity: 0 } });
    expect(lib.results.length).toBeGreaterThan(0);
    expect(lib.results.every((r) => r.path.startsWith("lib/"))).toBe(true);
    const two = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { limit: 2, minSimilarity: 0 } });
    expect(two.results).toHaveLength(2);
    const all = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { limit: 100, minSimilarity: 0 } });
    const strict = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { limit: 100, minSimilarity: 0.9 } });
    expect(strict.results.length).toBeLessThan(all.results.length);
    expect(strict.results.every((r) => r.score >= 0.9)).toBe(true);
    expect(await codeOf(t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { limit: 101 } }))).toBe("BAD_REQUEST");
    expect(await codeOf(t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: q, options: { minSimilarity: 1.5 } }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "  " }))).toBe("BAD_REQUEST");
  });

  it("hides a private repository from strangers (NOT_FOUND) and answers readers", async () => {
    expect(await codeOf(t.stranger.as.ai.semanticSearch({ repoId: t.repo.id, query: "escape regex" }))).toBe("NOT_FOUND");
    expect(await codeOf(t.stranger.as.ai.searchIndexStatus({ repoId: t.repo.id }))).toBe("NOT_FOUND");
    expect(await t.reader.as.ai.searchIndexStatus({ repoId: t.repo.id })).toMatchObject({
      branch: "main",
      status: "ready",
      stale: false,
      files: 4,
    });
  });

  it("a push that changes one file re-chunks only that blob (the search.indexRepo job)", async () => {
    const db = await getDb();
    const index = await db.searchIndex.findUniqueOrThrow({ where: { repoId_branch: { repoId: t.repo.id, branch: "main" } } });
    const before = await db.searchFile.findMany({ where: { indexId: index.id }, orderBy: { path: "asc" } });
    const chunkIds = async (oid: string) =>
      (await db.searchChunk.findMany({ where: { blobOid: oid }, select: { id: true }, orderBy: { id: "asc" } })).map((c) => c.id);
    const unchanged = before.filter((f) => f.path !== "billing/money.py");
    const idsBefore = await Promise.all(unchanged.map((f) => chunkIds(f.blobOid)));
    const oldMoney = before.find((f) => f.path === "billing/money.py")!.blobOid;

    await t.wt.commit(
      "billing/money.py",
      PYTHON + '\n\ndef refund_payment(order):\n    """Gives the customer their money back."""\n    return order.total\n',
      "refunds",
    );
    const tip = await t.wt.sha("HEAD");
    await t.wt.push("main");
    registerJobHandlers();
    await startJobWorker({ concurrency: 1, pollIntervalMs: 100 });
    await expect
      .poll(async () => (await db.searchIndex.findUniqueOrThrow({ where: { id: index.id } })).commitSha, { timeout: 60_000, interval: 200 })
      .toBe(tip);

    const after = await db.searchFile.findMany({ where: { indexId: index.id }, orderBy: { path: "asc" } });
    expect(after.map((f) => f.path)).toEqual(before.map((f) => f.path));
    expect(await Promise.all(unchanged.map((f) => chunkIds(f.blobOid)))).toEqual(idsBefore); // same rows: not re-chunked
    const newMoney = after.find((f) => f.path === "billing/money.py")!.blobOid;
    expect(newMoney).not.toBe(oldMoney);
    expect(await db.searchBlob.findUnique({ where: { oid: oldMoney } })).toBeNull(); // no index holds it any more
    const refund = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "refund the customer's payment" });
    expect(refund.results[0]).toMatchObject({ chunkName: "refund_payment", path: "billing/money.py" });

    // and a refresh of the same commit does nothing
    const again = await refreshSearchIndex(db, t.repo.id);
    expect(again).toMatchObject({ chunkedBlobs: 0, applied: false, commitSha: tip });
  });

  it("an index cut by an older chunker is stale, and its next refresh cuts its blobs again (same commit)", async () => {
    const db = await getDb();
    await refreshSearchIndex(db, t.repo.id);
    const index = await db.searchIndex.findFirstOrThrow({
      where: { repoId: t.repo.id, branch: "main" },
      select: { id: true, commitSha: true },
    });
    const oids = (await db.searchFile.findMany({ where: { indexId: index.id }, select: { blobOid: true } })).map((f) => f.blobOid);
    const chunksBefore = await db.searchChunk.findMany({ where: { blobOid: { in: oids } }, select: { id: true } });
    await db.searchBlob.updateMany({ where: { oid: { in: oids } }, data: { chunker: CHUNKER_VERSION - 1 } });
    await db.searchIndex.update({ where: { id: index.id }, data: { chunker: CHUNKER_VERSION - 1 } });
    expect(await t.reader.as.ai.searchIndexStatus({ repoId: t.repo.id })).toMatchObject({ stale: true, commitSha: index.commitSha });

    const again = await refreshSearchIndex(db, t.repo.id);
    expect(again).toMatchObject({ commitSha: index.commitSha, chunkedBlobs: new Set(oids).size, reusedBlobs: 0 });
    expect(await db.searchBlob.count({ where: { oid: { in: oids }, chunker: { lt: CHUNKER_VERSION } } })).toBe(0);
    const chunksAfter = await db.searchChunk.findMany({ where: { blobOid: { in: oids } }, select: { id: true } });
    expect(chunksAfter.length).toBe(again.chunks);
    expect(chunksAfter.some((c) => chunksBefore.some((b) => b.id === c.id))).toBe(false); // new rows, the old ones gone
    expect(await t.reader.as.ai.searchIndexStatus({ repoId: t.repo.id })).toMatchObject({ stale: false });
    expect(await refreshSearchIndex(db, t.repo.id)).toMatchObject({ chunkedBlobs: 0, applied: false });
    const out = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "format currency symbol" });
    expect(out.results[0]).toMatchObject({ path: "billing/money.py", chunkName: "format_currency" });
  });

  it("indexes another branch on demand; an unknown branch is NOT_FOUND", async () => {
    await t.wt.run("checkout", "--quiet", "-b", "feature");
    await t.wt.commit(
      "src/feature.ts",
      "/** Computes the checksum of a shipping label. */\nexport function labelChecksum(label: string): number {\n  return label.length % 7;\n}\n",
      "feature",
    );
    await t.wt.push("feature");
    await t.wt.run("checkout", "--quiet", "main");
    const out = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "shipping label checksum", branch: "feature" });
    expect(out.results[0]).toMatchObject({ path: "src/feature.ts", chunkName: "labelChecksum" });
    const main = await t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "shipping label checksum" });
    expect(main.results.map((r) => r.path)).not.toContain("src/feature.ts");
    expect(await codeOf(t.reader.as.ai.semanticSearch({ repoId: t.repo.id, query: "x", branch: "nope" }))).toBe("NOT_FOUND");
  });
});

describe("hybrid engine (embeddings through the fake OpenAI server)", () => {
  it("embeds every chunk once, then fuses vector and lexical rankings, labelled with the embedding model", async () => {
    const db = await getDb();
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, embeddingModel: "fake-embed" });
    expect(engine.embedding?.engine).toBe("openai:fake-embed");
    const stats = await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding);
    expect(stats.embedded).toBe(stats.chunks);
    const embedCalls = fake.requests.filter((r) => r.path.endsWith("/embeddings")).length;
    expect(embedCalls).toBeGreaterThan(0);
    expect((await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding)).embedded).toBe(0); // nothing new to embed
    expect(fake.requests.filter((r) => r.path.endsWith("/embeddings")).length).toBe(embedCalls);

    const repo = await authorizeRepo(db, actorOf(t.reader.user), { repoId: t.repo.id }, "read");
    const out = await semanticSearch(db, null, repo, { query: "format currency symbol" }, engine.embedding);
    expect(out.engine).toBe("openai:fake-embed");
    expect(out.results[0]).toMatchObject({ path: "billing/money.py", chunkName: "format_currency" });
    expect(out.results[0]!.score).toBeGreaterThan(0.9); // first in both rankings
    const py = await semanticSearch(
      db,
      null,
      repo,
      { query: "format currency symbol", options: { fileTypes: ["ts"], minSimilarity: 0 } },
      engine.embedding,
    );
    expect(py.results.every((r) => r.path.endsWith(".ts"))).toBe(true);
    // the cut: every result scores at least minSimilarity, best first, at most limit; above 0.5 only chunks both rankings found
    const all = await semanticSearch(
      db,
      null,
      repo,
      { query: "format currency symbol", options: { minSimilarity: 0, limit: 100 } },
      engine.embedding,
    );
    expect(all.results.length).toBeGreaterThan(out.results.length);
    expect(all.results.map((r) => r.score)).toEqual([...all.results.map((r) => r.score)].sort((a, b) => b - a));
    const few = await semanticSearch(
      db,
      null,
      repo,
      { query: "format currency symbol", options: { minSimilarity: 0, limit: 3 } },
      engine.embedding,
    );
    expect(few.results).toEqual(all.results.slice(0, 3));
    const both = await semanticSearch(
      db,
      null,
      repo,
      { query: "format currency symbol", options: { minSimilarity: 0.55, limit: 100 } },
      engine.embedding,
    );
    expect(both.results.length).toBeGreaterThan(0);
    expect(both.results.every((r) => r.score >= 0.55)).toBe(true);
    expect(both.results).toEqual(all.results.filter((r) => r.score >= 0.55));
  });

  it("keeps loaded vectors within the memory budget: an index whose vectors exceed it is searched lexically", async () => {
    const db = await getDb();
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, embeddingModel: "fake-embed" });
    await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding);
    const repo = await authorizeRepo(db, actorOf(t.reader.user), { repoId: t.repo.id }, "read");
    try {
      await semanticSearch(db, null, repo, { query: "format currency symbol" }, engine.embedding);
      const loaded = cachedVectorBytes();
      expect(loaded).toBeGreaterThan(0);
      setVectorMemoryBudget(loaded / 2 / 1_048_576); // half of what this index's vectors take
      expect(cachedVectorBytes()).toBe(0); // dropped at once
      const lexical = await semanticSearch(db, null, repo, { query: "format currency symbol" }, engine.embedding);
      expect(lexical.engine).toBe("local");
      expect(lexical.results[0]).toMatchObject({ path: "billing/money.py", chunkName: "format_currency" });
      expect(cachedVectorBytes()).toBe(0); // never loaded past the budget
    } finally {
      setVectorMemoryBudget(vectorMemoryMbFromEnv());
    }
    const hybrid = await semanticSearch(db, null, repo, { query: "format currency symbol" }, engine.embedding);
    expect(hybrid.engine).toBe("openai:fake-embed");
    expect(cachedVectorBytes()).toBeGreaterThan(0);
  });

  it("after a push, the refresh loads only the vectors of the changed file's chunks, and the search reads none", async () => {
    const db = await getDb();
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, embeddingModel: "fake-embed" });
    const repo = await authorizeRepo(db, actorOf(t.reader.user), { repoId: t.repo.id }, "read");
    const before = await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding);
    await semanticSearch(db, null, repo, { query: "format currency symbol" }, engine.embedding); // loaded
    await t.wt.commit("billing/tax.py", 'def vat_amount(net):\n    """Value added tax of a net amount."""\n    return net * 0.2\n', "tax");
    await t.wt.push("main");
    let vectorsRead = 0;
    const stop = observeReads((text) => {
      if (/FROM "SearchEmbedding" e WHERE e\."model" = \S+ AND e\."chunkId" IN \([?$]/.test(text))
        vectorsRead += (text.match(/\?|\$\d+/g)?.length ?? 1) - 1;
    });
    let after: Awaited<ReturnType<typeof refreshSearchIndex>>;
    let readBySearch: number;
    try {
      after = await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding); // embeds the new chunks, then loads their vectors
      expect(after.embedded).toBeGreaterThan(0);
      const warmed = vectorsRead;
      const out = await semanticSearch(db, null, repo, { query: "value added tax of a net amount" }, engine.embedding);
      readBySearch = vectorsRead - warmed;
      expect(out.engine).toBe("openai:fake-embed");
      expect(out.results[0]).toMatchObject({ path: "billing/tax.py", chunkName: "vat_amount" });
    } finally {
      stop();
    }
    expect(readBySearch).toBe(0); // already loaded by the refresh
    expect(vectorsRead).toBe(after.embedded); // the new blob's chunks only
    expect(before.chunks).toBeGreaterThan(after.embedded * 10); // …of an index many times larger
  });

  it("refuses a provider's vectors wider than MAX_EMBEDDING_DIMS: recorded as the embedding error, nothing stored", async () => {
    const db = await getDb();
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, embeddingModel: "wide-embed" });
    fake.embeddingDims = MAX_EMBEDDING_DIMS + 1;
    try {
      const stats = await refreshSearchIndex(db, t.repo.id, undefined, engine.embedding);
      expect(stats.embeddingError).toContain(`a vector of ${MAX_EMBEDDING_DIMS + 1} dimensions`);
      expect(await db.searchEmbedding.count({ where: { model: "openai:wide-embed" } })).toBe(0);
    } finally {
      fake.embeddingDims = 64;
    }
  });
});
