/**
 * Semantic search quality (docs/performance.md "Semantic search quality"):
 * `npx tsx bench/search-quality.bench.ts`. Four real code bases from node_modules
 * (search-quality-cases.ts): zod 4's core and classic sources (35 questions; the weights were tuned
 * on them), node-semver 7's (25 questions; seen: held out once, looked at and tuned on since),
 * commander 14's lib (35 questions, written before any run, never tuned on; held out for one run,
 * its misses read since: seen), and ioredis 6's compiled built/**\/*.js (44 questions, written
 * before any run; run once per database, its misses read since: seen). Each is committed into a temp git repository, pushed into a temp svc
 * (SQLite in a temp DATA_DIR, or BENCH_DATABASE_URL = a PostgreSQL server: a new database,
 * dropped at the end), indexed alone (the previous corpus's index is dropped first), and asked
 * its questions, each with the definition(s) that answer it: a result hits when it is in that
 * file and its lines hold the definition. Prints MRR@10 and Recall@10 for the
 * local (lexical) engine, and for the hybrid engine when the server has an embedding provider
 * (OPENAI_API_KEY / OPENAI_BASE_URL + OPENAI_EMBEDDING_MODEL). Goal: local MRR@10 ≥ 0.7, Recall@10 ≥ 0.9.
 * Env: BENCH_CORPUS=zod|semver|commander|ioredis runs one set; BENCH_VERBOSE=1 prints each query's rank and top 3.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

import { COMMANDER_CASES, IOREDIS_CASES, SEMVER_CASES, ZOD_CASES, type Case } from "./search-quality-cases";

const ROOT = path.resolve(import.meta.dirname, "..");

interface Corpus {
  name: string;
  /** Folders copied into the repository (relative to node_modules/<package>), and single files. */
  root: string;
  dirs: string[];
  ext: RegExp;
  /** Files left out of the repository (e.g. type declarations next to compiled sources). */
  skip?: RegExp;
  cases: Case[];
}

/** The tuned set, then the seen ones (search-quality-cases.ts; the next held-out set goes last). BENCH_CORPUS=zod|semver|commander|ioredis picks one. */
const CORPORA: Corpus[] = [
  { name: "zod 4 (tuned on)", root: "zod/src/v4", dirs: ["core", "classic"], ext: /\.ts$/, cases: ZOD_CASES },
  { name: "semver 7 (seen)", root: "semver", dirs: ["classes", "functions", "internal", "ranges"], ext: /\.js$/, cases: SEMVER_CASES },
  { name: "commander 14 (seen)", root: "commander", dirs: ["lib"], ext: /\.js$/, cases: COMMANDER_CASES },
  {
    name: "ioredis 6 (held out, written session 8)",
    root: "ioredis",
    dirs: ["built"],
    ext: /\.js$/,
    skip: /\.d\.ts$/,
    cases: IOREDIS_CASES,
  },
];

/** Every source of a corpus, subfolders included (tests and skipped files left out), as repository path → text. */
function corpus(c: Corpus): Map<string, string> {
  const files = new Map<string, string>();
  const base = path.join(ROOT, "node_modules", c.root);
  for (const dir of c.dirs) {
    for (const f of readdirSync(path.join(base, dir), { recursive: true, encoding: "utf8" })) {
      const rel = f.split(path.sep).join("/");
      if (c.ext.test(rel) && !c.skip?.test(rel) && !/(^|\/)tests\//.test(rel))
        files.set(`${dir}/${rel}`, readFileSync(path.join(base, dir, f), "utf8"));
    }
  }
  return files;
}

/** The 1-based line numbers of each case's definitions (fails when the package changed under us). */
function targetLines(files: Map<string, string>, cases: Case[]): Array<Array<{ file: string; line: number }>> {
  return cases
    .map((c) =>
      c.targets.flatMap(([file, re]) => {
        const lines = files.get(file)?.split("\n") ?? [];
        return lines.flatMap((l, i) => (re.test(l) ? [{ file, line: i + 1 }] : []));
      }),
    )
    .map((t, i) => {
      if (!t.length) throw new Error(`no definition found for "${cases[i]!.q}"`);
      return t;
    });
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-search-"));
  process.env.DATA_DIR = dataDir;
  process.env.SVC_APP_ROOT = ROOT;
  process.env.NEXTAUTH_SECRET ??= "bench-" + randomBytes(8).toString("hex");
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
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createCaller } = await import("@/server/api/root");
  const { contextFor } = await import("@/server/api/trpc");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { authorizeRepo } = await import("@/server/services/repos/access");
  const { repoGitDir } = await import("@/server/git/paths");
  const { refreshSearchIndex } = await import("@/server/services/search/index-repo");
  const { semanticSearch } = await import("@/server/services/search/semantic-search");
  const { forgetLexicalStats } = await import("@/server/services/search/lexical-stats");
  const { serverAiEngine } = await import("@/server/ai/engine");
  const { closeJobs } = await import("@/server/jobs");

  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const actor = { user: { ...user, isAdmin: false }, via: "session" as const, scopes: SCOPES };
  const caller = createCaller(await contextFor(actor));
  const summary: string[] = [];
  let previous: string | null = null;

  for (const c of CORPORA.filter((k) => !process.env.BENCH_CORPUS || k.name.startsWith(process.env.BENCH_CORPUS))) {
    // each corpus alone in the full-text index (its idf is its own, as in a one-repository server)
    if (previous) {
      await db.searchIndex.deleteMany({ where: { repoId: previous } });
      await db.searchBlob.deleteMany({
        where: { oid: { notIn: (await db.searchFile.findMany({ select: { blobOid: true } })).map((f) => f.blobOid) } },
      });
    }
    const slug = c.root.split("/")[0]!;
    const created = await caller.repos.create({ name: slug });
    previous = created.id;
    const files = corpus(c);
    const work = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${slug}-`));
    for (const dir of c.dirs)
      cpSync(path.join(ROOT, "node_modules", c.root, dir), path.join(work, dir), {
        recursive: true,
        filter: (p) => !p.includes(`${path.sep}tests`) && !c.skip?.test(p),
      });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=b@b", ...args], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    git("init", "--quiet", "--initial-branch=main");
    git("add", "-A");
    git("commit", "--quiet", "-m", `${slug} sources`);
    git("push", "--quiet", repoGitDir("bench", slug), "main");
    rmSync(work, { recursive: true, force: true });

    const t0 = performance.now();
    const stats = await refreshSearchIndex(db, created.id);
    const indexMs = performance.now() - t0;
    console.log(
      `${c.name}: ${stats.files} files, ${stats.chunks} chunks; indexed in ${indexMs.toFixed(0)} ms (${((stats.files / indexMs) * 1000).toFixed(1)} files/s) on ${server ? "PostgreSQL" : "SQLite"}`,
    );

    // the engine's cached table size would still be the previous corpus's for a minute (PostgreSQL's idf uses it)
    forgetLexicalStats();
    const repo = await authorizeRepo(db, actor, { repoId: created.id }, "read");
    const targets = targetLines(files, c.cases);
    const run = async (label: string, embedding: Parameters<typeof semanticSearch>[4]) => {
      let rr = 0;
      let found = 0;
      const times: number[] = [];
      for (const [i, k] of c.cases.entries()) {
        const out = await semanticSearch(db, null, repo, { query: k.q, options: { limit: 10, minSimilarity: 0 } }, embedding);
        times.push(out.searchTime);
        const rank = out.results.findIndex((r) =>
          targets[i]!.some((t) => t.file === r.path && r.startLine <= t.line && t.line <= r.endLine),
        );
        if (rank >= 0) {
          rr += 1 / (rank + 1);
          found += 1;
        }
        if (process.env.BENCH_VERBOSE)
          console.log(
            `${rank >= 0 ? `#${rank + 1}` : "miss"}\t${k.q}\n\t${out.results
              .slice(0, 3)
              .map((r) => `${r.path}:${r.startLine} ${r.chunkName ?? r.chunkType} ${r.score}`)
              .join(" | ")}`,
          );
      }
      times.sort((a, b) => a - b);
      const line = `${c.name}, ${label}: MRR@10 ${(rr / c.cases.length).toFixed(3)}, Recall@10 ${(found / c.cases.length).toFixed(3)} over ${c.cases.length} queries; query p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms`;
      console.log(line);
      summary.push(line);
    };
    await run("local (lexical)", null);

    const engine = serverAiEngine();
    if (engine.kind === "model" && engine.embedding) {
      const t1 = performance.now();
      const e = await refreshSearchIndex(db, created.id, undefined, engine.embedding);
      console.log(`embedded ${e.embedded} chunks with ${engine.embedding.engine} in ${(performance.now() - t1).toFixed(0)} ms`);
      await run(`hybrid (${engine.embedding.engine})`, engine.embedding);
    } else console.log("hybrid: no embedding provider configured (set OPENAI_API_KEY or OPENAI_BASE_URL + OPENAI_EMBEDDING_MODEL)");
  }
  console.log(`\nsummary (${server ? "PostgreSQL" : "SQLite"}):\n${summary.join("\n")}`);

  await closeJobs();
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
