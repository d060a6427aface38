/**
 * Serializes a SQLite driver adapter's connection. @prisma/adapter-better-sqlite3 has one
 * connection and a mutex only around transactions, so a plain query from one request could run
 * *inside* another request's open interactive transaction and vanish when that transaction rolls
 * back (measured: test/integration/db.test.ts). Here every top-level query takes a FIFO lock
 * for its duration, and a transaction holds the same lock from start until commit or rollback;
 * queries made through the transaction object do not wait (they already hold it).
 * SQLite runs one writer at a time anyway, so nothing is lost in throughput.
 *
 * Other connections to the same file (a second svc process, the CLI; docs/data.md
 * "Adapter behaviour that matters"): transactions
 * start with BEGIN IMMEDIATE, not the adapter's BEGIN (deferred). A deferred transaction takes
 * the write lock only at its first write; if another connection committed after its first read,
 * SQLite refuses the upgrade at once with SQLITE_BUSY_SNAPSHOT ("database is locked") — the busy
 * timeout cannot help, since waiting cannot make the snapshot current (sqlite.org/lang_transaction.html,
 * "Read transactions versus write transactions"; measured: 13 of 100 concurrent board moves and
 * comments from two processes failed, test/integration/sqlite-concurrency.test.ts). BEGIN
 * IMMEDIATE takes the write lock first, waiting up to the connection's busy timeout
 * (sqliteBusyTimeoutMs in ./index.ts). better-sqlite3 is synchronous, so that wait blocks this
 * process's event loop while the other process holds the lock (usually milliseconds).
 */
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";

/** A FIFO async lock; `acquire` resolves to an idempotent release function. */
export class FifoLock {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => held);
    return previous.then(() => {
      let done = false;
      return () => {
        if (!done) {
          done = true;
          release();
        }
      };
    });
  }
}

function serializeConnection(inner: SqlDriverAdapter): SqlDriverAdapter {
  const lock = new FifoLock();
  const locked = async <T>(fn: () => Promise<T>): Promise<T> => {
    const release = await lock.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (q: SqlQuery) => locked(() => inner.queryRaw(q)),
    executeRaw: (q: SqlQuery) => locked(() => inner.executeRaw(q)),
    executeScript: (script: string) => locked(() => inner.executeScript(script)),
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => inner.dispose(),
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return inner.startTransaction(isolationLevel); // the adapter's own error
      const release = await lock.acquire();
      try {
        await inner.executeScript("BEGIN IMMEDIATE");
      } catch (e) {
        release();
        throw e;
      }
      return immediateTransaction(inner, release);
    },
  };
}

/**
 * The transaction object for a `BEGIN IMMEDIATE` already run on `conn`. Prisma ends it by sending
 * COMMIT or ROLLBACK through `executeRaw` and then calling commit()/rollback() (usePhantomQuery
 * false, as @prisma/adapter-better-sqlite3 does); those release the lock. Should that COMMIT or
 * ROLLBACK itself fail, Prisma never calls commit()/rollback(): the transaction is rolled back
 * here and the lock released, so the connection is never left locked.
 */
function immediateTransaction(conn: SqlDriverAdapter, release: () => void): Transaction {
  const ending = (q: SqlQuery) => /^\s*(COMMIT|ROLLBACK)\b/i.test(q.sql);
  return {
    provider: conn.provider,
    adapterName: conn.adapterName,
    options: { usePhantomQuery: false },
    queryRaw: (q: SqlQuery) => conn.queryRaw(q),
    async executeRaw(q: SqlQuery) {
      try {
        return await conn.executeRaw(q);
      } catch (e) {
        if (ending(q)) {
          await conn.executeScript("ROLLBACK").catch(() => {});
          release();
        }
        throw e;
      }
    },
    commit: async () => release(),
    rollback: async () => release(),
  };
}

/** Wraps an adapter factory so each connection it makes is serialized (see above). */
export function serializedSqlite(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => serializeConnection(await factory.connect()),
    connectToShadowDb: async () => serializeConnection(await factory.connectToShadowDb()),
  };
}
