/**
 * Notification fan-out (docs/notifications.md "Performance"; issue #25):
 * `npx tsx bench/notifications-fanout.bench.ts` (not part of the tests).
 *
 * 1. A comment on an issue (issues.addComment through the real router) in a repository with 1,000
 *    watchers at level "all" against one with none. No job worker runs: the request pays one
 *    notifications.fanOut job written in its transaction; who is notified is decided by the job.
 *    Goal: with 1,000 watchers ≈ without (ratio ≈ 1).
 * 2. The fan-out job of one event to those 1,000 watchers (fanOutNotification: recipients, the
 *    readability statement, the bulk thread upsert, live notices): a first event (1,000 new
 *    threads) and a bump (1,000 threads updated), printed against a raw SQL INSERT of 1,000
 *    Notification rows in the same chunks (the floor). Goal: well under 2 s.
 *
 * Ratios and times are printed; nothing is asserted.
 * Env: BENCH_RUNS (20 comments per repository, 5 fan-outs), BENCH_DATABASE_URL (PostgreSQL, bench/support.ts).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { openBenchDatabase } from "./support";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WATCHERS = 1_000;

const bench = await openBenchDatabase("notify");
const { getDb, closeDb } = await import("@/server/db");
const { getConfig } = await import("@/server/config");
const { signUp } = await import("@/server/services/users/sign-up");
const { SCOPES } = await import("@/server/auth/scopes");
const { createCaller } = await import("@/server/api/root");
const { contextFor } = await import("@/server/api/trpc");
const { closeJobs } = await import("@/server/jobs");
const { fanOutNotification } = await import("@/server/services/notifications/fan-out");
const { Sql } = await import("@/server/services/issues/query");

const db = await getDb();
const user = await signUp(db, { username: "bench", password: "password123" });
const peer = await signUp(db, { username: "peer", password: "password123" });
const actorOf = (u: typeof user) => ({ user: { ...u, isAdmin: false }, via: "session", scopes: SCOPES }) as const;
const owner = createCaller(await contextFor(actorOf(user)));
const commenter = createCaller(await contextFor(actorOf(peer)));

const quiet = await owner.repos.create({ name: "quiet", isPrivate: false });
const busy = await owner.repos.create({ name: "busy", isPrivate: false });
const watchers = Array.from({ length: WATCHERS }, (_, i) => ({ id: randomUUID(), username: `w${i}`, usernameLower: `w${i}` }));
for (let i = 0; i < watchers.length; i += 200) await db.user.createMany({ data: watchers.slice(i, i + 200) });
await db.repoWatch.createMany({ data: watchers.map((w) => ({ userId: w.id, repoId: busy.id, level: "all" })) });
const quietIssue = await owner.issues.create({ repoId: quiet.id, title: "quiet" });
const busyIssue = await owner.issues.create({ repoId: busy.id, title: "busy" });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

// 1. the request: a comment with 1,000 watchers against none
const comment = (repoId: string, number: number, i: number) =>
  time(async () => {
    await commenter.issues.addComment({ repoId, number, body: `comment ${i}` }); // the fan-out job is written in its transaction
  });
await comment(quiet.id, quietIssue.number, -1);
await comment(busy.id, busyIssue.number, -1);
const none: number[] = [];
const many: number[] = [];
for (let i = 0; i < RUNS; i++) {
  none.push(await comment(quiet.id, quietIssue.number, i));
  many.push(await comment(busy.id, busyIssue.number, i));
}
console.log(`notifications fan-out (${bench.provider}, load ${os.loadavg()[0].toFixed(1)})`);
console.log(`  issues.addComment, no watchers:    median ${fmt(median(none))} (${RUNS} runs)`);
console.log(`  issues.addComment, 1,000 watchers: median ${fmt(median(many))}`);
console.log(`  ratio 1,000 watchers / none: ${(median(many) / median(none)).toFixed(2)}× (goal ≈ 1: the fan-out is the job's)`);

// 2. the job: one event to 1,000 watchers, against a raw INSERT of 1,000 rows
const event = (issueId: string) => ({
  repoId: busy.id,
  subjectType: "issue" as const,
  subjectId: issueId,
  kind: "comment" as const,
  actorId: peer.id,
  at: new Date().toISOString(),
  body: "a comment",
});
const first: number[] = [];
const bump: number[] = [];
const raw: number[] = [];
let recipients = 0;
for (let i = 0; i < Math.max(3, Math.floor(RUNS / 4)); i++) {
  const issue = await owner.issues.create({ repoId: busy.id, title: `fan-out ${i}` });
  first.push(await time(async () => (recipients = await fanOutNotification(db, event(issue.id)))));
  bump.push(await time(() => fanOutNotification(db, event(issue.id))));
  raw.push(
    await time(async () => {
      const subjectId = randomUUID();
      const now = new Date();
      for (let c = 0; c < watchers.length; c += 500) {
        const sql = new Sql(getConfig().provider);
        const values = watchers
          .slice(c, c + 500)
          .map(
            (w) =>
              `(${sql.list([randomUUID(), w.id, busy.id, "issue", subjectId, "subscribed"])}, TRUE, FALSE, ${sql.list([now, peer.id, null, now, now])})`,
          );
        await db.$executeRawUnsafe(
          `INSERT INTO "Notification" ("id", "userId", "repoId", "subjectType", "subjectId", "reason", "unread", "done",
             "lastActivityAt", "lastActorId", "lastAnchor", "createdAt", "updatedAt") VALUES ${values.join(", ")}`,
          ...sql.params,
        );
      }
    }),
  );
}
console.log(`  fanOutNotification to ${recipients} recipients, new threads: median ${fmt(median(first))} (goal < 2 s)`);
console.log(`  fanOutNotification to ${recipients} recipients, bump:        median ${fmt(median(bump))}`);
console.log(`  raw INSERT of ${WATCHERS} Notification rows (floor):    median ${fmt(median(raw))}`);
console.log(
  `  ratio fan-out / raw insert: new ${(median(first) / median(raw)).toFixed(2)}×, bump ${(median(bump) / median(raw)).toFixed(2)}×`,
);

await closeJobs();
await closeDb();
await bench.drop();
