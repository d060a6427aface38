/**
 * The transaction helper every service writes through (`inTransaction`), its client type (`Tx`)
 * (errors mapped by server/db/prisma-errors.ts `mapPrismaErrors`).
 */
import type { Db, Prisma } from "@/server/db";
import { mapPrismaErrors } from "@/server/db/prisma-errors";
import { trackTransaction } from "@/server/db/after-commit";
import { getConfig } from "@/server/config";

/** The client an interactive transaction's callback gets (same queries as Db, no $transaction). */
export type Tx = Prisma.TransactionClient;

/**
 * Runs `fn` in one interactive transaction and returns its result. EVERY write of the services
 * goes through here: on SQLite the better-sqlite3 adapter has one connection and serialises
 * transactions with a mutex, but a query outside a transaction runs on that connection even while
 * another request's transaction is open — a write would join that transaction and vanish if it
 * rolls back. Generous waits (60 s to start, 60 s to run): on SQLite transactions queue on the
 * mutex, on PostgreSQL for a pool connection and row locks, so 200 concurrent creates must be
 * able to wait their turn. Work registered with `afterCommit(tx, …)` (after-commit.ts) runs after
 * the commit, never after a rollback. Errors: whatever `fn` throws (the transaction is rolled
 * back), with Prisma's P2002/P2025 mapped by `mapPrismaErrors`.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committed = () => {};
  const result = await mapPrismaErrors(
    db.$transaction(
      (tx) => {
        committed = trackTransaction(tx); // afterCommit work (server/db/after-commit.ts) runs below, once committed
        return fn(tx);
      },
      { maxWait: 60_000, timeout: 60_000 },
    ),
  );
  committed();
  return result;
}

/**
 * Serialises the transactions that pass the same `key` (any string, e.g. "status:<repo>:<sha>:<context>")
 * until each commits or rolls back, so a count followed by an insert (a limit per commit) cannot be
 * overtaken by a concurrent one. PostgreSQL: a transaction-scoped advisory lock on the key's 64-bit
 * hash (`pg_advisory_xact_lock(hashtextextended(key, 0))`; a collision only makes two unrelated keys
 * wait for each other). SQLite: nothing to take, its transactions already run one at a time.
 */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  if (getConfig().provider !== "postgresql") return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}
