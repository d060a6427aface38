/**
 * Blob memory benchmark (docs/performance.md "Blob memory"): a public repository holding a text
 * file of --mib MiB (default 1024: 1 GiB), then, in this process, --parallel (10) anonymous raw
 * downloads through the raw route's GET (each consumed fully, bytes counted, nothing kept) at the
 * same time as --parallel `repos.blob` calls. Prints the RSS before, the peak RSS growth (goal <
 * 100 MB) and the download throughput next to `git cat-file blob` alone.
 *
 *   npx tsx bench/blob-memory.bench.ts [--mib 1024] [--parallel 10]
 *
 * The test suite runs the same measurement at 256 MiB (test/integration/blob-limits.test.ts).
 * Not part of the tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setGitHttpLimits } from "@/server/http/git/http-limits";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MIB = 1024 * 1024;
const BYTES = flag("mib", 1024) * MIB;
const PARALLEL = flag("parallel", 10);

const work = mkdtempSync(path.join(os.tmpdir(), "svc-bench-blob-"));
process.env.DATA_DIR = path.join(work, "data");
process.env.DATABASE_URL = `file:${path.join(work, "data", "svc.db")}`;
process.env.NEXTAUTH_SECRET ??= "bench-secret";
process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");

const mb = (n: number) => `${(n / MIB).toFixed(1)} MiB`;
const rate = (bytes: number, ms: number) => `${(bytes / MIB / (ms / 1000)).toFixed(0)} MiB/s`;

async function main(): Promise<void> {
  const { getDb, closeDb } = await import("@/server/db");
  const { signUp } = await import("@/server/services/users/sign-up");
  const { createRepository } = await import("@/server/services/repos/create-repository");
  const { SCOPES } = await import("@/server/auth/scopes");
  const { repoGitDir } = await import("@/server/git/paths");
  const { spawnGit } = await import("@/server/git/exec");
  const { createCaller } = await import("@/server/api/root");
  const { contextFor } = await import("@/server/api/trpc");
  const { GET } = await import("@/app/[owner]/[repo]/raw/[...segments]/route");
  const { commitBlobs, countBytes, hashFile, peakRssGrowth, writeRepeatedFile } = await import("../test/big-blob");

  const db = await getDb();
  const user = await signUp(db, { username: "bench", password: "password123" });
  const repo = await createRepository(
    db,
    { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES },
    { name: "big", isPrivate: false },
  );
  const gitDir = repoGitDir(user.username, "big");

  let t = Date.now();
  const file = path.join(work, "big.txt");
  await writeRepeatedFile(file, BYTES, Buffer.from("All work and no play makes Jack a dull boy. 0123456789\n".repeat(1200)));
  const sha = await hashFile(gitDir, file);
  rmSync(file);
  await commitBlobs(gitDir, "main", { "big.txt": sha });
  console.log(`blob of ${mb(BYTES)} stored in ${Date.now() - t} ms`);

  t = Date.now(); // git alone, its output discarded

  await new Promise<void>((resolve) => {
    const child = spawnGit(["cat-file", "blob", sha], { gitDir, timeoutMs: 0 });
    child.stdin.end();
    child.stdout.resume();
    child.on("close", () => resolve());
  });
  const gitMs = Date.now() - t;

  // ten downloads really in parallel (the process caps would queue some: they bound memory further)
  setGitHttpLimits({ maxProcesses: 4 * PARALLEL, maxPerClient: 4 * PARALLEL });
  const get = () =>
    GET(new Request(`http://bench/${user.username}/big/raw/main/big.txt`), {
      params: Promise.resolve({ owner: user.username, repo: "big", segments: ["main", "big.txt"] }),
    });
  t = Date.now();
  const one = await countBytes((await get()).body!);
  const routeMs = Date.now() - t;
  console.log(`one download: ${mb(one)} in ${routeMs} ms (${rate(one, routeMs)}); git cat-file alone: ${gitMs} ms (${rate(BYTES, gitMs)})`);

  const caller = createCaller(await contextFor(null));
  t = Date.now();
  const { result, baseline, growth } = await peakRssGrowth(() =>
    Promise.all([
      Promise.all(Array.from({ length: PARALLEL }, async () => countBytes((await get()).body!))),
      Promise.all(
        Array.from({ length: PARALLEL }, async () => (await caller.repos.blob({ repoId: repo.id, path: "big.txt" })).text?.length ?? 0),
      ),
    ]),
  );
  const ms = Date.now() - t;
  const total = result[0].reduce((a, b) => a + b, 0);
  if (result[0].some((n) => n !== BYTES)) throw new Error(`short download: ${result[0].join(", ")}`);
  console.log(`${PARALLEL}× raw + ${PARALLEL}× repos.blob of ${mb(BYTES)}: ${ms} ms (${rate(total, ms)} downloaded)`);
  console.log(`RSS before ${mb(baseline)}, peak growth ${mb(growth)} (goal < 100 MB = ${mb(100e6)}): ${growth < 100e6 ? "OK" : "OVER"}`);
  await closeDb();
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
