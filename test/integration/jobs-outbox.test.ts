/**
 * Jobs written with the change (docs/architecture.md "Background jobs", "Jobs written with the
 * change"): `enqueue(…, { tx })` inside `inTransaction` on the database of this run (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL). A rolled-back transaction leaves no job; a committed one has
 * its job although nothing after the commit runs (a process killed right after it); singleton keys
 * still dedupe; the root client behaves as a plain enqueue; this process's worker is woken after
 * the commit; a notification event's fan-out job is part of its change. No worker runs unless a
 * test starts it, so jobs stay where they were written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { getDb, type Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { closeJobs, defineJob, enqueue, getJob, jobQueueDepth, startJobWorker, stopJobWorker } from "@/server/jobs";
import { NOTIFY_FAN_OUT } from "@/server/jobs/names";
import { enqueueNotification } from "@/server/services/notifications/enqueue";

const NAME = "test.outbox";
let db: Db;
const ran: string[] = [];

/** Jobs of `name` waiting for their first run (created), all processes together. */
const waiting = async (name: string) => (await jobQueueDepth()).find((d) => d.name === name && d.state === "created")?.count ?? 0;

beforeAll(async () => {
  db = await getDb();
  defineJob(NAME, async (p: unknown) => void ran.push((p as { tag: string }).tag), { retries: 0 });
});

afterAll(async () => {
  await closeJobs();
});

describe(`jobs written in a transaction on ${getConfig().provider}`, () => {
  it("leaves no job when the transaction rolls back", async () => {
    const before = await waiting(NAME);
    let id: string | null = null;
    await expect(
      inTransaction(db, async (tx) => {
        id = await enqueue(NAME, { tag: "rolled back" }, { tx });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(id).toBeTruthy(); // it was written, then rolled back with the transaction
    expect(await getJob(NAME, id!)).toBeNull();
    expect(await waiting(NAME)).toBe(before);
  });

  it("has the job once the transaction commits, even when nothing after the commit runs", async () => {
    const before = await waiting(NAME);
    // db.$transaction directly: no after-commit list, as if the process died right after COMMIT
    const id = await db.$transaction((tx) => enqueue(NAME, { tag: "committed" }, { tx }));
    expect(await getJob(NAME, id!)).toMatchObject({ id, name: NAME, state: "created", attempts: 0 });
    expect(await waiting(NAME)).toBe(before + 1);
    // through inTransaction as the services call it
    const seen = await inTransaction(db, (tx) => enqueue(NAME, { tag: "committed 2" }, { tx }));
    expect(await getJob(NAME, seen!)).toMatchObject({ state: "created" });
    expect(await waiting(NAME)).toBe(before + 2);
  });

  it("keeps singleton keys: a second enqueue with a waiting key is dropped, in or out of the transaction", async () => {
    const [first, second] = await inTransaction(db, async (tx) => [
      await enqueue(NAME, { tag: "s1" }, { tx, singletonKey: "outbox-key" }),
      await enqueue(NAME, { tag: "s2" }, { tx, singletonKey: "outbox-key" }),
    ]);
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(await enqueue(NAME, { tag: "s3" }, { singletonKey: "outbox-key" })).toBeNull();
    expect(await inTransaction(db, (tx) => enqueue(NAME, { tag: "s4" }, { tx, singletonKey: "outbox-key" }))).toBeNull();
    // a rolled-back keyed job does not block the key
    await expect(
      inTransaction(db, async (tx) => {
        await enqueue(NAME, { tag: "k" }, { tx, singletonKey: "outbox-key-2" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await enqueue(NAME, { tag: "k" }, { singletonKey: "outbox-key-2" })).toBeTruthy();
  });

  it("on the root client enqueues at once, as without tx", async () => {
    const id = await enqueue(NAME, { tag: "root" }, { tx: db });
    expect(await getJob(NAME, id!)).toMatchObject({ state: "created" });
  });

  it("writes a notification event's fan-out job with its change, and none when the change rolls back", async () => {
    const event = { repoId: "r", subjectType: "issue", subjectId: "i", kind: "opened", actorId: null } as const;
    const before = await waiting(NOTIFY_FAN_OUT);
    await expect(
      inTransaction(db, async (tx) => {
        await enqueueNotification(tx, event);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await waiting(NOTIFY_FAN_OUT)).toBe(before);
    await db.$transaction((tx) => enqueueNotification(tx, event)); // no after-commit phase
    expect(await waiting(NOTIFY_FAN_OUT)).toBe(before + 1);
  });

  it("runs the jobs that committed once a worker starts, and none that rolled back", async () => {
    await startJobWorker({ pollIntervalMs: 100, concurrency: 1 });
    // a claimed job has left "created" before its handler ran: wait for the handlers, not the queue
    await expect
      .poll(() => [...ran], { timeout: 30_000, interval: 50 })
      .toEqual(expect.arrayContaining(["committed", "committed 2", "s1", "root", "k"]));
    await expect.poll(() => waiting(NAME), { timeout: 30_000, interval: 50 }).toBe(0);
    expect(ran).not.toContain("rolled back");
    await stopJobWorker();
  });

  it("wakes this process's worker after the commit of a job written in a transaction", async () => {
    // a worker that polls once a minute: it looks at start, then sleeps
    await startJobWorker({ pollIntervalMs: 60_000, concurrency: 1 });
    await new Promise((r) => setTimeout(r, 500));
    const id = await inTransaction(db, (tx) => enqueue(NAME, { tag: "woken" }, { tx }));
    await expect.poll(async () => (await getJob(NAME, id!))?.state, { timeout: 20_000, interval: 50 }).toBe("completed");
    await stopJobWorker();
  });
});
