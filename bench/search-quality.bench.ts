/**
 * Semantic search quality (issue #10 "Benchmark and quality"): `npx tsx bench/search-quality.bench.ts`.
 * zod 4's own sources (node_modules/zod/src/v4/core and classic, tests left out) are committed
 * into a temp git repository, pushed into a temp svc (SQLite in a temp DATA_DIR, or
 * BENCH_DATABASE_URL = a PostgreSQL server: a new database, dropped at the end), indexed, and
 * asked 35 natural-language questions, each with the definition(s) that answer it: a result hits
 * when it is in that file and its lines hold the definition. Prints MRR@10 and Recall@10 for the
 * local (lexical) engine, and for the hybrid engine when the server has an embedding provider
 * (OPENAI_API_KEY / OPENAI_BASE_URL + OPENAI_EMBEDDING_MODEL). Goal: local MRR@10 ≥ 0.7, Recall@10 ≥ 0.9.
 * Env: BENCH_VERBOSE=1 prints each query's rank and top 3.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..");
const ZOD = path.join(ROOT, "node_modules/zod/src/v4");

interface Case {
  q: string;
  /** Acceptable answers: file under the repository and a pattern of the definition's line. */
  targets: Array<[file: string, definition: RegExp]>;
}

const CASES: Case[] = [
  { q: "escape special characters so a string can be used inside a regular expression", targets: [["core/util.ts", /^export function escapeRegex[(<]/]] },
  { q: "turn a title into a url friendly slug", targets: [["core/util.ts", /^export function slugify[(<]/], ["core/api.ts", /^export function _slugify[(<]/]] },
  { q: "check whether a value is a plain object", targets: [["core/util.ts", /^export function isPlainObject[(<]/]] },
  { q: "generate a random string of a given length", targets: [["core/util.ts", /^export function randomString[(<]/]] },
  { q: "remainder of a floating point division without precision errors", targets: [["core/util.ts", /^export function floatSafeRemainder[(<]/]] },
  { q: "pick a subset of the keys of an object schema", targets: [["core/util.ts", /^export function pick[(<]/]] },
  { q: "omit some keys from an object schema", targets: [["core/util.ts", /^export function omit[(<]/]] },
  { q: "make every property of an object schema optional", targets: [["core/util.ts", /^export function partial[(<]/]] },
  { q: "make all properties of an object required", targets: [["core/util.ts", /^export function required[(<]/]] },
  { q: "merge two object schemas into one", targets: [["core/util.ts", /^export function merge[(<]/]] },
  { q: "count the keys of an object", targets: [["core/util.ts", /^export function numKeys[(<]/]] },
  { q: "await every promise in an object and keep the keys", targets: [["core/util.ts", /^export function promiseAllObject[(<]/]] },
  { q: "get a nested value by following a path of keys", targets: [["core/util.ts", /^export function getElementAtPath[(<]/]] },
  { q: "flatten validation errors into form errors and field errors", targets: [["core/errors.ts", /^export function flattenError[(<]/]] },
  { q: "turn the issues of an error into a tree", targets: [["core/errors.ts", /^export function treeifyError[(<]/]] },
  { q: "pretty print a validation error for people", targets: [["core/errors.ts", /^export function prettifyError[(<]/]] },
  { q: "convert an issue path to a dotted string", targets: [["core/errors.ts", /^export function toDotPath[(<]/]] },
  { q: "parse asynchronously and return success or error without throwing", targets: [["core/parse.ts", /^export const _safeParseAsync/], ["core/parse.ts", /^export const safeParseAsync/]] },
  { q: "regular expression to validate an email address", targets: [["core/regexes.ts", /^export const email/], ["classic/schemas.ts", /^export function email[(<]/], ["core/api.ts", /^export function _email[(<]/]] },
  { q: "registry that attaches metadata to schemas", targets: [["core/registries.ts", /^export class \$ZodRegistry/], ["core/registries.ts", /^export function registry/], ["core/registries.ts", /globalRegistry/]] },
  { q: "generate a JSON schema from a zod schema", targets: [["core/json-schema-processors.ts", /^export function toJSONSchema[(<]/], ["core/to-json-schema.ts", /^export function createToJSONSchemaMethod/]] },
  { q: "build a zod schema from a JSON schema document", targets: [["classic/from-json-schema.ts", /^export function fromJSONSchema[(<]/]] },
  { q: "coerce the input into a number", targets: [["classic/coerce.ts", /^export function number[(<]/], ["core/api.ts", /^export function _coercedNumber[(<]/]] },
  { q: "validate an ISO 8601 datetime string", targets: [["classic/iso.ts", /^export function datetime[(<]/], ["core/regexes.ts", /^export function datetime[(<]/], ["core/api.ts", /^export function _isoDateTime[(<]/]] },
  { q: "ISO duration such as P3Y6M4D", targets: [["classic/iso.ts", /^export function duration[(<]/], ["core/regexes.ts", /^export const duration/], ["core/api.ts", /^export function _isoDuration[(<]/], ["classic/schemas.ts", /^export const ZodISODuration:/], ["core/schemas.ts", /^export const \$ZodISODuration:/]] },
  { q: "add a custom refinement with a predicate", targets: [["classic/schemas.ts", /^export function refine</], ["core/api.ts", /^export function _refine[(<]/], ["classic/schemas.ts", /^\s+refine\(check/]] },
  { q: "transform the parsed value with a function", targets: [["classic/schemas.ts", /^export function transform</], ["classic/schemas.ts", /^\s+transform\(tx\)/], ["classic/schemas.ts", /^export const ZodTransform:/], ["core/schemas.ts", /^export const \$ZodTransform:/]] },
  { q: "minimum length check for strings and arrays", targets: [["core/api.ts", /^export function _minLength[(<]/], ["core/checks.ts", /^export const \$ZodCheckMinLength/]] },
  { q: "check that a number is a multiple of another number", targets: [["core/api.ts", /^export function _multipleOf[(<]/], ["core/checks.ts", /^export (const|interface) \$ZodCheckMultipleOf\b/]] },
  { q: "trim whitespace from a string", targets: [["core/api.ts", /^export function _trim[(<]/], ["classic/schemas.ts", /^\s{6}trim\(\) {/]] },
  { q: "union of objects told apart by a discriminator key", targets: [["classic/schemas.ts", /^export function discriminatedUnion</], ["core/schemas.ts", /^export const \$ZodDiscriminatedUnion/]] },
  { q: "record schema with key and value types", targets: [["classic/schemas.ts", /^export function record</], ["core/schemas.ts", /^export const \$ZodRecord/], ["classic/schemas.ts", /^export const ZodRecord:/]] },
  { q: "lazy schema for recursive types", targets: [["classic/schemas.ts", /^export function lazy</], ["core/schemas.ts", /^export const \$ZodLazy/]] },
  { q: "preprocess the input before it is parsed", targets: [["classic/schemas.ts", /^export function preprocess</], ["core/schemas.ts", /^export const \$ZodPreprocess:/]] },
  { q: "template literal type built from parts", targets: [["classic/schemas.ts", /^export function templateLiteral</], ["core/schemas.ts", /^export const \$ZodTemplateLiteral/]] },
];

/** Every .ts source of zod 4 core and classic, tests left out, as repository path → text. */
function corpus(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ["core", "classic"]) {
    for (const f of readdirSync(path.join(ZOD, dir))) if (f.endsWith(".ts")) files.set(`${dir}/${f}`, readFileSync(path.join(ZOD, dir, f), "utf8"));
  }
  return files;
}

/** The 1-based line numbers of each case's definitions (fails when zod changed under us). */
function targetLines(files: Map<string, string>): Array<Array<{ file: string; line: number }>> {
  return CASES.map((c) =>
    c.targets.flatMap(([file, re]) => {
      const lines = files.get(file)?.split("\n") ?? [];
      const found = lines.flatMap((l, i) => (re.test(l) ? [{ file, line: i + 1 }] : []));
      return found;
    }),
  ).map((t, i) => {
    if (!t.length) throw new Error(`no definition found for "${CASES[i]!.q}"`);
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
  const { signUp } = await import("@/server/services/users");
  const { createCaller } = await import("@/server/api/root");
  const { contextFor } = await import("@/server/api/trpc");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { authorizeRepo } = await import("@/server/services/repos/access");
  const { repoGitDir } = await import("@/server/git/paths");
  const { refreshSearchIndex } = await import("@/server/services/search/index-repo");
  const { semanticSearch } = await import("@/server/services/search/semantic-search");
  const { serverAiEngine } = await import("@/server/ai/engine");
  const { closeJobs } = await import("@/server/jobs");

  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const actor = { user: { ...user, isAdmin: false }, via: "session" as const, scopes: SCOPES };
  const caller = createCaller(await contextFor(actor));
  const created = await caller.repos.create({ name: "zod" });

  const files = corpus();
  const work = mkdtempSync(path.join(os.tmpdir(), "svc-bench-zod-"));
  cpSync(path.join(ZOD, "core"), path.join(work, "core"), { recursive: true, filter: (p) => !p.includes(`${path.sep}tests`) });
  cpSync(path.join(ZOD, "classic"), path.join(work, "classic"), { recursive: true, filter: (p) => !p.includes(`${path.sep}tests`) });
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=b@b", ...args], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "zod sources");
  git("push", "--quiet", repoGitDir("bench", "zod"), "main");

  const t0 = performance.now();
  const stats = await refreshSearchIndex(db, created.id);
  const indexMs = performance.now() - t0;
  console.log(`corpus: ${stats.files} files, ${stats.chunks} chunks; indexed in ${indexMs.toFixed(0)} ms (${((stats.files / indexMs) * 1000).toFixed(1)} files/s) on ${server ? "PostgreSQL" : "SQLite"}`);

  const repo = await authorizeRepo(db, actor, { repoId: created.id }, "read");
  const targets = targetLines(files);
  const run = async (label: string, embedding: Parameters<typeof semanticSearch>[3]) => {
    let rr = 0;
    let found = 0;
    const times: number[] = [];
    for (const [i, c] of CASES.entries()) {
      const out = await semanticSearch(db, repo, { query: c.q, options: { limit: 10, minSimilarity: 0 } }, embedding);
      times.push(out.searchTime);
      const rank = out.results.findIndex((r) => targets[i]!.some((t) => t.file === r.path && r.startLine <= t.line && t.line <= r.endLine));
      if (rank >= 0) {
        rr += 1 / (rank + 1);
        found += 1;
      }
      if (process.env.BENCH_VERBOSE) console.log(`${rank >= 0 ? `#${rank + 1}` : "miss"}\t${c.q}\n\t${out.results.slice(0, 3).map((r) => `${r.path}:${r.startLine} ${r.chunkName ?? r.chunkType} ${r.score}`).join(" | ")}`);
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: MRR@10 ${(rr / CASES.length).toFixed(3)}, Recall@10 ${(found / CASES.length).toFixed(3)} over ${CASES.length} queries; query p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms`);
  };
  await run("local (lexical)", null);

  const engine = serverAiEngine();
  if (engine.kind === "model" && engine.embedding) {
    const t1 = performance.now();
    const e = await refreshSearchIndex(db, created.id, undefined, engine.embedding);
    console.log(`embedded ${e.embedded} chunks with ${engine.embedding.engine} in ${(performance.now() - t1).toFixed(0)} ms`);
    await run(`hybrid (${engine.embedding.engine})`, engine.embedding);
  } else console.log("hybrid: no embedding provider configured (set OPENAI_API_KEY or OPENAI_BASE_URL + OPENAI_EMBEDDING_MODEL)");

  await closeJobs();
  await closeDb();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  if (server && dbName) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
