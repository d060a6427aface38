/**
 * Several svc processes on one PostgreSQL and Redis (issue #21 item 10; docs/architecture.md
 * "Redis outages", "Background jobs"): two production servers (`node scripts/server.mjs` over the
 * `next build` output), A and B, started at the same time on one fresh database, one DATA_DIR and
 * one Redis (through a TCP proxy, ../integration/redis-proxy.ts, so it can be cut), each with its
 * own port and SVC_RUN_DIR. Every check goes over HTTP or git, as a browser or a client would:
 *   - a session signed in on A works on B; "sign out everywhere" through A ends it on B;
 *   - the sign-in failure limit is one count: 10 wrong passwords spread over A and B, then the
 *     right one is refused on both;
 *   - a comment posted through A reaches a pull request's event stream open on B;
 *   - pull requests opened through both: every AI review (local engine) runs exactly once, in
 *     whichever process's worker claims it; a push through A has its mergeability job run and
 *     B answers from it;
 *   - Redis cut: sign-in on A and B still answers at once and works; after Redis is back both
 *     report it and count in Redis again.
 *   - both processes, started at once on a fresh database, run a job worker (the queue lock);
 *   - two agent turns on one session through A and B at once: one runs, the other is refused
 *     (the database lease); these two checks live in ./cross-process-checks.ts.
 *
 * Run by `npm test` as its own step after `next build` (scripts/test.mjs), with TEST_DATABASE_URL
 * (test/setup.ts makes the database and DATA_DIR, and drops them afterwards) and the local Redis
 * (TEST_REDIS_URL, default redis://127.0.0.1:6379):
 *
 *   TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx vitest run --config test/processes/vitest.config.ts
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { gitOk, trpc, waitFor } from "../fixtures/clients";
import { SseParser, type SseEvent } from "../fixtures/sse";
import { REDIS_URL, startRedisProxy, type RedisProxy } from "../integration/redis-proxy";
import { assertBuilt, startSvcOnFreePort, type SvcProcess } from "./svc-process";
import { WebClient } from "./web-client";
import { checkAgentTurnLockAcrossProcesses, checkBothJobWorkersRun } from "./cross-process-checks";

const PASSWORD = "correct horse battery";
/** Pull requests opened across A and B for the job check. */
const PULLS = 6;
/** A sign-in while Redis is cut: the bound is 1 s (26–36 s before); generous on a loaded machine. */
const SIGN_IN_BOUND_MS = 2000;
/** The AI review bot's username (server/services/pulls/ai-bot.ts). */
const BOT = "svc-ai";

const stamp = randomBytes(3).toString("hex");
const prefix = `svc-test-2p-${stamp}`;
const metricsToken = randomBytes(16).toString("hex");
let a: SvcProcess;
let b: SvcProcess;
let proxy: RedisProxy;
let db: pg.Client;
let redis: Redis;
const streams: AbortController[] = [];
/** The clients' git work trees (removed after the tests). */
const clientsDir = mkdtempSync(path.join(os.tmpdir(), "svc-2p-clients-"));
let users = 0;

/** A client at an address of its own (sign-ups are limited per address). */
function client(): WebClient {
  users += 1;
  return new WebClient(`10.${users}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`);
}

/** A new user signed up through `base`, signed in through it, with a personal access token (repository scopes). */
async function newUser(base: string, name: string): Promise<{ web: WebClient; username: string; id: string; token: string }> {
  const web = client();
  const username = `${name}${stamp}`;
  await web.signUp(base, username, PASSWORD);
  expect((await web.signIn(base, username, PASSWORD)).status).toBe(200);
  const me = await web.query(base, "users.me");
  // repo:admin: the agent check sets a repository's AI key (./cross-process-checks.ts)
  return { web, username, id: (me.data as { id: string }).id, token: await web.token(base, ["repo:read", "repo:write", "repo:admin"]) };
}

/** The rows of a query against the shared database. */
async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

/** A tRPC call with a token through `base`; throws unless 200. Returns the data. */
async function call<T>(base: string, token: string, proc: string, input: unknown, kind: "query" | "mutation" = "mutation"): Promise<T> {
  const r = await trpc(base, token, proc, input, kind);
  if (r.status !== 200) throw new Error(`${proc} on ${base}: ${r.status} ${r.error}`);
  return r.data as T;
}

/** A git work tree whose remotes are the repository on A and on B (the owner's token in the URLs). */
async function workTree(owner: { username: string; token: string }, repo: string) {
  const dir = mkdtempSync(path.join(clientsDir, "wt-"));
  const opts = { cwd: dir, home: `${dir}-home` };
  const remote = (s: SvcProcess) => {
    const u = new URL(`${s.url}/${owner.username}/${repo}.git`);
    u.username = owner.username;
    u.password = owner.token;
    return u.toString();
  };
  const git = (...args: string[]) => gitOk(args, opts);
  await git("-c", "init.defaultBranch=main", "init", "--quiet");
  return {
    git,
    async commit(files: Record<string, string>, message: string): Promise<string> {
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), content);
      }
      await git("add", "-A");
      await git("commit", "--quiet", "-m", message);
      return (await git("rev-parse", "HEAD")).trim();
    },
    push: (s: SvcProcess, branch: string) => git("push", "--quiet", remote(s), branch),
  };
}

/** Opens a pull request's event stream on `s` with `token`; collects its events until the test ends. */
async function openEvents(s: SvcProcess, token: string, prId: string): Promise<SseEvent[]> {
  const abort = new AbortController();
  streams.push(abort);
  const res = await fetch(`${s.url}/api/pulls/${prId}/events`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted at the end of the test
    }
  })();
  return events;
}

beforeAll(async () => {
  assertBuilt();
  const databaseUrl = process.env.DATABASE_URL ?? "";
  if (!/^postgres(ql)?:/.test(databaseUrl)) throw new Error("the two-process test needs PostgreSQL: set TEST_DATABASE_URL (test/setup.ts)");
  proxy = await startRedisProxy();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const env = (name: string): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    DATA_DIR: process.env.DATA_DIR!,
    SVC_RUN_DIR: path.join(process.env.DATA_DIR!, `run-${name}`),
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!,
    REDIS_URL: proxy.url,
    REDIS_KEY_PREFIX: prefix,
    METRICS_TOKEN: metricsToken,
    // the test plays the reverse proxy: each client has an X-Forwarded-For address of its own
    TRUST_PROXY: "1",
    // ./agent-lock.ts points a repository's AI key at a fake provider on 127.0.0.1
    SVC_AI_ALLOW_PRIVATE_BASE_URLS: "1",
  });
  // both at once on the fresh database: each migrates it (under the migration lock) and starts
  // pg-boss and its job worker
  const started = await Promise.allSettled([startSvcOnFreePort("A", env("A")), startSvcOnFreePort("B", env("B"))]);
  for (const s of started) {
    if (s.status !== "fulfilled") continue;
    if (s.value.name === "A") a = s.value;
    else b = s.value;
  }
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
}, 180_000);

afterEach(({ task }) => {
  if (task.result?.state !== "fail") return;
  for (const s of [a, b]) if (s) console.error(`--- svc ${s.name} (${s.url}), its last output:\n${s.log().slice(-6000)}`);
});

afterAll(async () => {
  for (const s of streams) s.abort();
  await Promise.all([a?.stop(), b?.stop()]);
  await proxy?.close();
  rmSync(clientsDir, { recursive: true, force: true });
  await db?.end();
  if (redis) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}, 60_000);

describe("two svc processes on one PostgreSQL and Redis", { timeout: 120_000 }, () => {
  it("both processes, started at once on a fresh database, run a job worker", () => checkBothJobWorkersRun([a, b]));

  it("two turns on one session through A and B at once: one runs, the other is refused", async () =>
    checkAgentTurnLockAcrossProcesses(a, b, await newUser(a.url, "agent")));

  it("a session signed in on A works on B, and sign out everywhere through A ends it on B", async () => {
    const first = client();
    const username = `sess${stamp}`;
    await first.signUp(a.url, username, PASSWORD);
    expect((await first.signIn(a.url, username, PASSWORD)).status).toBe(200);
    expect(first.session()).toBeTruthy();
    expect(await first.query(b.url, "users.me")).toMatchObject({ status: 200, data: { username } });
    // a second browser signs in on B; A knows its session too
    const second = new WebClient(first.address);
    expect((await second.signIn(b.url, username, PASSWORD)).status).toBe(200);
    expect(await second.query(a.url, "users.me")).toMatchObject({ status: 200, data: { username } });
    const listed = await first.query(b.url, "users.sessions");
    expect((listed.data as unknown[]).length).toBe(2);

    expect(await first.mutate(a.url, "users.signOutEverywhere")).toMatchObject({ status: 200, data: { revoked: 2 } });
    for (const s of [b, a]) {
      expect((await second.query(s.url, "users.me")).status).toBe(401);
      expect((await first.query(s.url, "users.me")).status).toBe(401);
    }
  });

  it("the sign-in failure limit is one count over A and B: 10 wrong passwords across both, then the right one is refused on either", async () => {
    const web = client();
    const username = `limit${stamp}`;
    await web.signUp(b.url, username, PASSWORD);
    for (let i = 0; i < 10; i++) {
      const r = await web.signIn(i % 2 ? b.url : a.url, username, `wrong password ${i}`);
      expect([r.status, r.error]).toEqual([401, "CredentialsSignin"]);
    }
    // 5 failures in each process: a per-process count would still let both through
    for (const s of [a, b]) {
      const r = await web.signIn(s.url, username, PASSWORD);
      expect(r.status).toBe(401);
      expect(r.error).toMatch(/^too many failed sign-in attempts for this account from your address/);
    }
    expect(web.session()).toBeUndefined();
    // counted in Redis (a refused attempt counts at the level that refused it: 10 failures, 2 refusals)
    expect(Number(await redis.get(`${prefix}:rl:signInFailures:${web.address}|${username}`))).toBeGreaterThanOrEqual(10);
  });

  it("a comment posted through A reaches the pull request's event stream open on B", async () => {
    const owner = await newUser(a.url, "live");
    const repo = await call<{ id: string }>(b.url, owner.token, "repos.create", { name: "live" });
    const wt = await workTree(owner, "live");
    const base = await wt.commit({ "README.md": "# live\n" }, "base");
    await wt.push(a, "main");
    await wt.git("checkout", "--quiet", "-b", "topic");
    const head = await wt.commit({ "notes.txt": "a note\n" }, "topic");
    await wt.push(b, "topic");
    const pr = await call<{ id: string }>(a.url, owner.token, "pulls.create", {
      repoId: repo.id,
      title: "live",
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: head,
      baseSha: base,
    });

    const events = await openEvents(b, owner.token, pr.id);
    await waitFor("the stream's ready event", () => events.some((e) => e.event === "ready"), 30_000);
    // B's subscription to the channel is in Redis (the SUBSCRIBE follows the stream's start)
    await waitFor(
      "B's subscription in Redis",
      async () => ((await redis.pubsub("NUMSUB", `${prefix}:live:pull:${pr.id}`)) as [string, number])[1] >= 1,
      30_000,
    );
    const comment = await call<{ id: string }>(a.url, owner.token, "pulls.addComment", { prId: pr.id, body: "from A" });
    const update = await waitFor(
      "the comment notice on B",
      () =>
        events.find((e) => {
          if (e.event !== "update") return false;
          const data = JSON.parse(e.data) as { type: string; actorId?: string };
          return data.type === "comment" && data.actorId === owner.id;
        }),
      30_000,
    );
    expect(update).toBeTruthy();
    expect(comment.id).toBeTruthy();
    expect(events.some((e) => e.event === "degraded")).toBe(false);
  });

  it("pull requests opened through A and B: each AI review runs exactly once; a push through A gets its mergeability job run, B answers from it", async () => {
    const owner = await newUser(b.url, "jobs");
    const repo = await call<{ id: string }>(a.url, owner.token, "repos.create", { name: "jobs" });
    const wt = await workTree(owner, "jobs");
    const base = await wt.commit({ "README.md": "# jobs\n", "src/shared.txt": "one\ntwo\nthree\n" }, "base");
    await wt.push(a, "main");
    const heads: string[] = [];
    for (let i = 0; i < PULLS; i++) {
      await wt.git("checkout", "--quiet", "-B", `topic${i}`, "main");
      const files: Record<string, string> = { [`src/f${i}.ts`]: `export const v${i} = ${i};\nconsole.log(v${i});\n` };
      if (i === 0) files["src/shared.txt"] = "one\nTWO from the topic\nthree\n";
      heads.push(await wt.commit(files, `topic ${i}`));
      await wt.push(i % 2 ? b : a, `topic${i}`);
    }
    // opened at the same time, half through each process: both workers are woken and compete
    const pulls = await Promise.all(
      heads.map((headSha, i) =>
        call<{ id: string }>(i % 2 ? b.url : a.url, owner.token, "pulls.create", {
          repoId: repo.id,
          title: `topic ${i}`,
          sourceBranch: `topic${i}`,
          targetBranch: "main",
          headSha,
          baseSha: base,
        }),
      ),
    );
    const ids = pulls.map((p) => p.id);

    type Run = { id: string; pullRequestId: string; status: string; attempts: number; engine: string | null; reviewId: string | null };
    const runs = await waitFor(
      "every AI review done",
      async () => {
        const r = await rows<Run>(
          `SELECT "id", "pullRequestId", "status", "attempts", "engine", "reviewId" FROM "PullRequestAiReview" WHERE "pullRequestId" = ANY($1)`,
          [ids],
        );
        return r.length === PULLS && r.every((x) => x.status === "done" || x.status === "failed") ? r : null;
      },
      90_000,
      250,
    );
    expect(runs.map((r) => [r.status, r.attempts, r.engine])).toEqual(Array.from({ length: PULLS }, () => ["done", 1, "local"]));
    expect(new Set(runs.map((r) => r.pullRequestId))).toEqual(new Set(ids));
    // one review of the bot per pull request, the run's
    const reviews = await rows<{ id: string; pullRequestId: string }>(
      `SELECT r."id", r."pullRequestId" FROM "PullRequestReview" r JOIN "User" u ON u."id" = r."authorId"
        WHERE u."usernameLower" = $1 AND r."pullRequestId" = ANY($2)`,
      [BOT, ids],
    );
    expect(reviews.map((r) => r.pullRequestId).sort()).toEqual([...ids].sort());
    expect(new Set(reviews.map((r) => r.id))).toEqual(new Set(runs.map((r) => r.reviewId)));
    // one job per run in pg-boss, completed on its first fetch (retry_count counts the fetches
    // after the first); a job is marked completed just after its handler wrote the run
    type Job = { singleton_key: string; state: string; retry_count: number };
    const jobs = await waitFor(
      "every AI review job finished in pg-boss",
      async () => {
        const r = await rows<Job>(
          `SELECT singleton_key, state::text, retry_count FROM pgboss.job WHERE name = 'pulls.aiReview' AND singleton_key = ANY($1)
            UNION ALL SELECT singleton_key, state::text, retry_count FROM pgboss.archive WHERE name = 'pulls.aiReview' AND singleton_key = ANY($1)`,
          [runs.map((x) => x.id)],
        );
        return r.every((j) => ["completed", "failed", "cancelled"].includes(j.state)) ? r : null;
      },
      30_000,
      100,
    );
    expect(jobs.map((j) => j.singleton_key).sort()).toEqual(runs.map((r) => r.id).sort());
    expect(jobs.map((j) => [j.state, j.retry_count])).toEqual(Array.from({ length: PULLS }, () => ["completed", 0]));

    // a push to main through A that conflicts with topic0: the after-push job (either worker)
    // records the mergeability of every pull request into main at the new tip
    await wt.git("checkout", "--quiet", "main");
    const tip = await wt.commit({ "src/shared.txt": "one\nTWO from main\nthree\n" }, "main moves");
    await wt.push(a, "main");
    type Cached = { pullRequestId: string; canMerge: boolean; conflicts: string };
    const cached = await waitFor(
      "the mergeability job",
      async () => {
        const r = await rows<Cached>(
          `SELECT "pullRequestId", "canMerge", "conflicts" FROM "PullRequestMergeability" WHERE "baseTip" = $1 AND "pullRequestId" = ANY($2)`,
          [tip, ids],
        );
        return r.length === PULLS ? r : null;
      },
      60_000,
      250,
    );
    const byId = new Map(cached.map((c) => [c.pullRequestId, c]));
    expect(byId.get(ids[0]!)).toMatchObject({ canMerge: false });
    expect(JSON.parse(byId.get(ids[0]!)!.conflicts)).toEqual(["src/shared.txt"]);
    expect(ids.slice(1).every((id) => byId.get(id)!.canMerge)).toBe(true);
    expect(await call(b.url, owner.token, "pulls.checkMergeability", { prId: ids[0] }, "query")).toMatchObject({ canMerge: false });
    expect(await call(b.url, owner.token, "pulls.checkMergeability", { prId: ids[1] }, "query")).toMatchObject({ canMerge: true });
  });

  it("Redis cut: sign-in on A and B answers at once and works; once Redis is back both count in it again", async () => {
    const web = client();
    const username = `cut${stamp}`;
    await web.signUp(a.url, username, PASSWORD);
    const pairKey = `${prefix}:rl:signInFailures:${web.address}|${username}`;
    expect((await web.signIn(b.url, username, "wrong password")).error).toBe("CredentialsSignin");
    expect(await redis.get(pairKey)).toBe("1");
    for (const s of [a, b]) expect(await s.metric('svc_redis_up{connection="limiter"}')).toBe(1);

    await proxy.cut();
    for (const s of [a, b, a, b]) {
      const wrong = await web.signIn(s.url, username, "wrong password");
      expect(wrong.error).toBe("CredentialsSignin");
      expect(wrong.ms).toBeLessThan(SIGN_IN_BOUND_MS);
      const right = await web.signIn(s.url, username, PASSWORD);
      expect(right.status).toBe(200);
      expect(right.ms).toBeLessThan(SIGN_IN_BOUND_MS);
      expect(await web.query(s.url, "users.me")).toMatchObject({ status: 200, data: { username } });
    }
    for (const s of [a, b]) expect(await s.metric('svc_redis_up{connection="limiter"}')).toBe(0);

    await proxy.restore();
    for (const s of [a, b])
      await waitFor(
        `${s.name}'s limiter connection back`,
        async () => (await s.metric('svc_redis_up{connection="limiter"}')) === 1,
        30_000,
        100,
      );
    // the count kept in Redis is used again, by both
    expect((await web.signIn(a.url, username, "wrong password")).error).toBe("CredentialsSignin");
    expect((await web.signIn(b.url, username, "wrong password")).error).toBe("CredentialsSignin");
    expect(await redis.get(pairKey)).toBe("3");
    for (const s of [a, b]) expect(await web.query(s.url, "users.me")).toMatchObject({ status: 200, data: { username } });
  });
});
