/**
 * Semantic search speed (issue #10 "Benchmark and quality"): `npx tsx bench/search.bench.ts`.
 * - Chunking throughput: zod 4's core and classic sources through chunkFile (files/s, chunks/s).
 * - Query p50 over BENCH_CHUNKS (100 000) chunks in one index: those chunks (zod's, repeated
 *   under other blob ids and paths) stored through Prisma as the indexer does (insert rate
 *   printed), then the lexical engine (lexicalSearch: FTS5 or tsvector, plus the JavaScript
 *   blend) against the raw SQL baseline (the bare full-text query for the 10 best rows, joined
 *   to the index's files), and brute-force cosine over the same number of vectors (BENCH_DIMS,
 *   default 256; topByDot of embeddings.ts) for the hybrid engine. Goal: < 50 ms p50.
 * SQLite in a temp DATA_DIR; BENCH_DATABASE_URL = a PostgreSQL server: a new database there,
 * dropped at the end. Env: BENCH_CHUNKS, BENCH_DIMS, BENCH_RUNS (per query, default 5).
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..");
const ZOD = path.join(ROOT, "node_modules/zod/src/v4");
const TOTAL = Number(process.env.BENCH_CHUNKS ?? 100_000);
const DIMS = Number(process.env.BENCH_DIMS ?? 256);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const QUERIES = [
  "escape special characters of a regular expression", "make every property optional", "flatten validation errors",
  "parse asynchronously without throwing", "coerce the input into a number", "validate an email address",
  "generate a JSON schema", "trim whitespace from a string", "lazy schema for recursive types", "merge two object schemas",
];

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-search-"));
  process.env.DATA_DIR = dataDir;
  process.env.SVC_APP_ROOT = ROOT;
  const server = process.env.BENCH_DATABASE_URL;
  let dbName: string | undefined;
  if (server) {
    dbName = `svc_bench_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(server);
    u.pathname = `/${dbName}`;
    process.env.DATABASE_URL = u.toString();
  } else process.env.DATABASE_URL = `file:${path.join(dataDir, "svc.db")}`;

  const { getDb, closeDb } = await import("@/server/db");
  const { readRows } = await import("@/server/db/read");
  const { chunkFile } = await import("@/server/services/search/chunk");
  const { lexicalSearch } = await import("@/server/services/search/lexical");
  const { queryWords } = await import("@/server/services/search/tokens");
  const { topByDot, unit } = await import("@/server/services/search/embeddings");
  const { signUp } = await import("@/server/services/users");

  // chunking throughput
  const files: Array<[string, string]> = [];
  for (const dir of ["core", "classic"]) for (const f of readdirSync(path.join(ZOD, dir))) if (f.endsWith(".ts")) files.push([`${dir}/${f}`, readFileSync(path.join(ZOD, dir, f), "utf8")]);
  await chunkFile("warm.ts", "const a = 1;");
  let t = performance.now();
  const chunks: Array<Awaited<ReturnType<typeof chunkFile>>[number] & { path: string }> = [];
  for (const [p, text] of files) chunks.push(...(await chunkFile(p, text)).map((c) => ({ ...c, path: p })));
  const chunkMs = performance.now() - t;
  console.log(`chunking: ${files.length} files (${(files.reduce((n, [, s]) => n + s.length, 0) / 1024).toFixed(0)} KiB), ${chunks.length} chunks in ${chunkMs.toFixed(0)} ms = ${((files.length / chunkMs) * 1000).toFixed(1)} files/s, ${((chunks.length / chunkMs) * 1000).toFixed(0)} chunks/s`);

  // 100k chunks in one index: blobs of 50 chunks each, one file per blob
  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const repo = await db.repository.create({ data: { name: "big", nameLower: "big", ownerId: user.id, defaultBranch: "main" } });
  const index = await db.searchIndex.create({ data: { repoId: repo.id, branch: "main", commitSha: "0".repeat(40), status: "ready" } });
  t = performance.now();
  const PER_BLOB = 50;
  for (let b = 0; b * PER_BLOB < TOTAL; b++) {
    const oid = randomBytes(20).toString("hex");
    const part = Array.from({ length: Math.min(PER_BLOB, TOTAL - b * PER_BLOB) }, (_, k) => chunks[(b * PER_BLOB + k) % chunks.length]!);
    await db.$transaction(async (tx) => {
      await tx.searchBlob.create({ data: { oid, language: "typescript", chunkCount: part.length } });
      await tx.searchChunk.createMany({ data: part.map(({ path: _p, ...c }) => ({ ...c, blobOid: oid })) });
      await tx.searchFile.create({ data: { indexId: index.id, path: `copy${b}/${part[0]!.path}`, blobOid: oid } });
    });
  }
  const insertMs = performance.now() - t;
  console.log(`stored ${TOTAL} chunks (${Math.ceil(TOTAL / PER_BLOB)} blobs) in ${(insertMs / 1000).toFixed(1)} s = ${((TOTAL / insertMs) * 1000).toFixed(0)} chunks/s (with the full-text index)`);
  // planner statistics as autovacuum / the server's start-up PRAGMA optimize would leave them
  if (server) await db.$executeRawUnsafe(`VACUUM ANALYZE "SearchChunk", "SearchFile", "SearchBlob", "SearchIndex"`);
  else await db.$executeRawUnsafe(`PRAGMA optimize`);

  const timeQueries = async (fn: (q: string) => Promise<unknown>) => {
    const times: number[] = [];
    for (const q of QUERIES) {
      await fn(q);
      for (let r = 0; r < RUNS; r++) {
        const s = performance.now();
        await fn(q);
        times.push(performance.now() - s);
      }
    }
    return times;
  };
  const engine = await timeQueries((q) => lexicalSearch(db, index.id, queryWords(q), 200));
  const baselineSql = server
    ? `SELECT c."id", f."path", c."startLine", c."endLine" FROM "SearchChunk" c JOIN "SearchFile" f ON f."blobOid" = c."blobOid", to_tsquery('english'::regconfig, $1) q WHERE f."indexId" = $2 AND c."tsv" @@ q ORDER BY ts_rank(c."tsv", q, 1) DESC LIMIT 10`
    : `SELECT c."id", f."path", c."startLine", c."endLine" FROM "SearchChunkFts" JOIN "SearchChunk" c ON c."id" = "SearchChunkFts".rowid JOIN "SearchFile" f ON f."blobOid" = c."blobOid" WHERE "SearchChunkFts" MATCH ? AND f."indexId" = ? ORDER BY bm25("SearchChunkFts") LIMIT 10`;
  const baseline = await timeQueries((q) => {
    const words = queryWords(q);
    return readRows(db, baselineSql, [server ? words.join(" | ") : words.map((w) => `"${w}"`).join(" OR "), index.id]);
  });
  console.log(`lexical engine over ${TOTAL} chunks (${server ? "PostgreSQL tsvector" : "SQLite FTS5"}): p50 ${p50(engine).toFixed(1)} ms (p95 ${p95(engine).toFixed(1)}); bare full-text query (every match ranked, 10 best, no blend) p50 ${p50(baseline).toFixed(1)} ms; ratio ${(p50(engine) / p50(baseline)).toFixed(2)}`);
  // a few queries once more, with their candidate count and best hit (a sanity check of the answers)
  for (const q of QUERIES.slice(0, 3)) {
    const words = queryWords(q);
    const s = performance.now();
    const hits = await lexicalSearch(db, index.id, words, 200);
    console.log(`  "${q}": ${(performance.now() - s).toFixed(1)} ms, ${hits.length} candidates, best ${hits[0]?.name ?? "-"}`);
  }

  // brute-force cosine over TOTAL vectors
  const ids = new Int32Array(TOTAL).map((_, i) => i);
  const matrix = new Float32Array(TOTAL * DIMS);
  for (let i = 0; i < TOTAL; i++) matrix.set(unit(Array.from({ length: DIMS }, () => Math.random() - 0.5)), i * DIMS);
  const vec: number[] = [];
  for (let r = 0; r < 20; r++) {
    const q = unit(Array.from({ length: DIMS }, () => Math.random() - 0.5));
    const s = performance.now();
    topByDot(ids, matrix, DIMS, q, 200);
    vec.push(performance.now() - s);
  }
  console.log(`vector top-200 by brute-force cosine over ${TOTAL} × ${DIMS} float32 (${((TOTAL * DIMS * 4) / 1048576).toFixed(0)} MiB in memory): p50 ${p50(vec).toFixed(1)} ms`);

  await closeDb();
  rmSync(dataDir, { recursive: true, force: true });
  if (server && dbName) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
