/**
 * AI review benchmark (docs/performance.md "AI review"; goal: the local AI review finishes within 5
 * s of creation on a 200-file pull request): `npx tsx bench/ai-review.bench.ts` (not part of the
 * tests). SQLite in a temp DATA_DIR, a real bare repository, the real job queue in this process.
 * Each round pushes a branch changing BENCH_FILES TypeScript files (BENCH_LINES lines each; every
 * 10th file adds a console.log, every 20th a TODO), opens a non-draft pull request through the tRPC
 * caller and waits (polling pulls.getAIReview every 20 ms) until the run is done. Prints per round
 * the time from the create call to done, and p50 / max over BENCH_ROUNDS rounds, plus the pure rule
 * time (reviewLocally on the parsed diff). Goal: max ≤ 5 000 ms. Env: BENCH_FILES (200),
 * BENCH_LINES (60), BENCH_ROUNDS (5).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { migrateSqlite } from "@/server/db/migrate";
import { gitText } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { initBareRepository } from "@/server/git/repository";
import { diffThreeDot } from "@/server/git/diff";
import { reviewLocally } from "@/server/ai/review-rules";
import { reviewFilesOf } from "@/server/services/pulls/run-ai-review";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";

const FILES = Number(process.env.BENCH_FILES ?? 200);
const LINES = Number(process.env.BENCH_LINES ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-ai-review-"));
const file = path.join(dir, "svc.db");
process.env.DATA_DIR = dir;
process.env.DATABASE_URL = `file:${file}`;
process.env.NEXTAUTH_SECRET = "bench";
for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"]) delete process.env[k];
migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations"));

// ---- rows: one user, one repository ----
const raw = new Database(file);
const now = new Date().toISOString();
const owner = { id: randomUUID(), username: "bencher" };
raw
  .prepare(`INSERT INTO "User" (id, username, usernameLower, name, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`)
  .run(owner.id, owner.username, owner.username, "Bench", now, now);
const repoId = randomUUID();
raw
  .prepare(
    `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, 1, ?, ?)`,
  )
  .run(repoId, owner.id, "big", "big", now, now);
raw.close();

// ---- git: main, then one branch per round changing every file ----
const gitDir = repoGitDir(owner.username, "big");
await initBareRepository(gitDir, "main");
const work = path.join(dir, "work");
mkdirSync(work);
const wgit = (...args: string[]) => gitText(["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { cwd: work });
await wgit("init", "--quiet", "--initial-branch=main");
const writeAll = (tag: string) => {
  for (let f = 0; f < FILES; f++) {
    mkdirSync(path.join(work, "src", `m${f % 20}`), { recursive: true });
    const lines = Array.from({ length: LINES }, (_, i) => `export const v${i}_${tag} = ${f} + ${i};`);
    if (tag !== "base" && f % 10 === 0) lines[5] = `console.log("${tag} ${f}");`;
    if (tag !== "base" && f % 20 === 0) lines[9] = `// TODO: ${tag} ${f}`;
    writeFileSync(path.join(work, "src", `m${f % 20}`, `f${f}.ts`), lines.join("\n") + "\n");
  }
};
const commit = async (msg: string) => {
  await wgit("add", "-A");
  await wgit("commit", "--quiet", "-m", msg);
  return (await wgit("rev-parse", "HEAD")).trim();
};
writeAll("base");
const base = await commit("base");
const heads: string[] = [];
for (let r = 0; r < ROUNDS; r++) {
  await wgit("checkout", "--quiet", "-B", `topic${r}`, "main");
  writeAll(`r${r}`);
  heads.push(await commit(`round ${r}`));
}
await wgit("push", "--quiet", gitDir, "main", ...heads.map((_, r) => `topic${r}`));

// ---- the server's pieces: database, job worker, caller ----
const { getDb } = await import("@/server/db");
const { registerJobHandlers } = await import("@/server/jobs/handlers");
const { startJobWorker, closeJobs } = await import("@/server/jobs");
const { createCaller } = await import("@/server/api/root");
const db = await getDb();
registerJobHandlers();
await startJobWorker({ concurrency: 2 });
const actor: Actor = {
  user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false },
  via: "session",
  scopes: SCOPES,
};
const caller = createCaller({ db, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" } as never);

const times: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const pr = await caller.pulls.create({
    repoId,
    title: `round ${r}`,
    sourceBranch: `topic${r}`,
    targetBranch: "main",
    headSha: heads[r]!,
    baseSha: base,
  });
  for (;;) {
    const run = await caller.pulls.getAIReview({ prId: pr.id });
    if (run && (run.status === "done" || run.status === "failed")) {
      const ms = performance.now() - t0;
      times.push(ms);
      console.log(
        `round ${r}: ${run.status} in ${ms.toFixed(0)} ms (${run.findings.length} findings, ${run.state}, engine ${run.engine})${run.error ? ` — ${run.error}` : ""}`,
      );
      break;
    }
    await new Promise((res) => setTimeout(res, 20));
  }
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `create → done over ${ROUNDS} rounds of ${FILES} files × ${LINES} lines: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (goal ≤ 5000 ms)`,
);

// the rules alone, on the parsed diff
const diff = await diffThreeDot(gitDir, base, heads[0]!);
const files = reviewFilesOf(diff.files, new Map());
const r0 = performance.now();
for (let i = 0; i < 20; i++) reviewLocally({ files, totalFiles: diff.totalFiles });
console.log(
  `reviewLocally alone: ${((performance.now() - r0) / 20).toFixed(1)} ms per review (${files.reduce((n, f) => n + f.added.length, 0)} added lines)`,
);
await closeJobs();
process.exit(0);
