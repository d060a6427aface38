/**
 * Fuzz benchmark (docs/performance.md "Fuzz"): the no-500 properties of
 * test/integration/bad-input.property.test.ts at benchmark size, counting answers instead of
 * stopping at the first failure. Not part of the tests.
 *
 *   npx tsx bench/fuzz.bench.ts [--runs 10000] [--seed 42] [--base-url http://localhost:3000]
 *
 * In process (SQLite in a temp DATA_DIR; BENCH_DATABASE_URL=postgres://… for PostgreSQL):
 * generated inputs to every procedure through the tRPC caller (40 % of --runs), and over real
 * HTTP (startServer, with the app's git route) tRPC (30 %), REST /api/tokens (10 %) and git smart
 * HTTP (20 %). With --base-url, also against that running svc (`npm start`): the same HTTP
 * surfaces plus the page routes (code browser, raw, sign-in callbackUrl…), signed in and not,
 * --runs more cases. Prints counts per status class and surface, and the first failures
 * (5xx, no answer, or internals in an API body). Exit code 1 when anything failed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { actorOf, callerFor, makeToken, makeUser, serviceToken, startServer } from "@/test/helpers";
import { allProcedures, outcome } from "@/test/procedures";
import { procedureStringLeaves } from "@/test/schema-strings";
import {
  gitCases,
  gitViaRoute,
  pageCases,
  problemOf,
  procedureInput,
  restCases,
  send,
  statusClass,
  trpcCases,
  type Fixture,
  type HttpCase,
} from "@/test/fuzz-cases";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const RUNS = Number(arg("runs") ?? process.env.BENCH_RUNS ?? 10_000);
const SEED = Number(arg("seed") ?? 42);
const BASE_URL = arg("base-url");
const CONCURRENCY = 4;

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-fuzz-"));
process.env.DATA_DIR = dir;
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? `file:${path.join(dir, "svc.db")}`;
process.env.NEXTAUTH_SECRET = "fuzz-bench";

const counts = new Map<string, Map<string, number>>();
const failures: string[] = [];
let total = 0;

function count(surface: string, cls: string): void {
  const m = counts.get(surface) ?? new Map<string, number>();
  m.set(cls, (m.get(cls) ?? 0) + 1);
  counts.set(surface, m);
  total += 1;
}

function fail(what: string): void {
  failures.push(what.slice(0, 400));
}

/** Runs `fn` over `items`, CONCURRENCY at a time. */
async function pool<T>(items: T[], fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

async function runHttp(label: string, baseUrl: string, arb: fc.Arbitrary<HttpCase>, n: number, secrets: string[]): Promise<void> {
  if (n <= 0) return;
  const cases = fc.sample(arb, { numRuns: n, seed: SEED });
  await pool(cases, async (c) => {
    const o = await send(baseUrl, c);
    count(`${label} ${c.surface}`, statusClass(o.status));
    const problem = problemOf(c, o, secrets);
    if (problem) fail(`${label} ${c.method} ${c.path.slice(0, 200)} → ${problem}`);
  });
}

async function inProcess(): Promise<void> {
  const owner = await makeUser("fuzz");
  const caller = await callerFor(actorOf(owner));
  const repo = await caller.repos.create({ name: "fuzz", isPrivate: false });
  const procedures = allProcedures();
  const targets = new Map(procedureStringLeaves().map((p) => [p.path, p.leaves.map((l) => l.path)]));
  const perProcedure = Math.ceil((RUNS * 0.4) / procedures.length);
  for (const { path: proc } of procedures) {
    const fresh = await caller.repos.create({ name: `r${Math.random().toString(36).slice(2, 10)}` });
    const inputs = fc.sample(procedureInput(fresh.id, owner.username, targets.get(proc) ?? []), { numRuns: perProcedure, seed: SEED });
    for (const input of inputs) {
      const code = await outcome(caller, proc, input);
      count("caller", code === "INTERNAL_SERVER_ERROR" ? "5xx" : code === "OK" ? "ok" : "4xx");
      if (code === "INTERNAL_SERVER_ERROR") fail(`caller ${proc}(${JSON.stringify(input)?.slice(0, 200)})`);
    }
  }
  const server = await startServer({ git: gitViaRoute });
  try {
    const f: Fixture = {
      owner: owner.username,
      repo: "fuzz",
      repoId: repo.id,
      pat: await makeToken(owner, ["repo:read", "repo:write", "repo:admin", "user:read", "user:write"]),
      restAuth: { authorization: `Bearer ${await serviceToken(owner)}` },
      procedures,
    };
    await runHttp("in-process", server.url, trpcCases(f), Math.round(RUNS * 0.3), [dir]);
    await runHttp("in-process", server.url, restCases(f), Math.round(RUNS * 0.1), [dir]);
    await runHttp("in-process", server.url, gitCases(f), Math.round(RUNS * 0.2), [dir]);
  } finally {
    await server.close();
  }
}

/** Signs up and in on a running svc: a session cookie, a PAT and a public repository. */
async function remoteFixture(base: string): Promise<Fixture> {
  const username = `fuzz${Date.now().toString(36)}`;
  const password = "fuzz-password-123";
  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(base + p, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, ...headers },
      body: JSON.stringify(body),
      redirect: "manual",
    });
  const signUp = await post("/api/trpc/users.signUp", { username, password });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin: base },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  const session = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.includes("session-token"))
    .join("; ");
  if (!session) throw new Error(`sign-in failed: ${signIn.status}`);
  const token = await post(
    "/api/tokens",
    { name: "fuzz", scopes: ["repo:read", "repo:write", "repo:admin", "user:read", "user:write"] },
    { cookie: session },
  );
  const { token: pat } = (await token.json()) as { token: string };
  const repo = await post("/api/trpc/repos.create", { name: "fuzz", isPrivate: false }, { authorization: `Bearer ${pat}` });
  const { result } = (await repo.json()) as { result: { data: { id: string } } };
  return {
    owner: username,
    repo: "fuzz",
    repoId: result.data.id,
    pat,
    restAuth: { cookie: session, origin: base },
    procedures: allProcedures(),
    sessionCookie: session,
  };
}

async function remote(base: string): Promise<void> {
  const f = await remoteFixture(base);
  await runHttp("remote", base, trpcCases(f), Math.round(RUNS * 0.3), []);
  await runHttp("remote", base, restCases(f), Math.round(RUNS * 0.1), []);
  await runHttp("remote", base, gitCases(f), Math.round(RUNS * 0.2), []);
  await runHttp("remote", base, pageCases(f), Math.round(RUNS * 0.4), []);
}

const started = Date.now();
try {
  await inProcess();
  if (BASE_URL) await remote(BASE_URL.replace(/\/$/, ""));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const classes = [...new Set([...counts.values()].flatMap((m) => [...m.keys()]))].sort();
console.log(`fuzz: ${total} cases, seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(["surface".padEnd(22), ...classes.map((c) => c.padStart(7))].join(" "));
for (const [surface, m] of [...counts].sort())
  console.log([surface.padEnd(22), ...classes.map((c) => String(m.get(c) ?? 0).padStart(7))].join(" "));
console.log(`failures: ${failures.length}`);
for (const f of failures.slice(0, 20)) console.log("  " + f);
process.exit(failures.length ? 1 : 0);
