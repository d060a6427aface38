/**
 * Serializes a SQLite driver adapter's connection. @prisma/adapter-better-sqlite3 has one
 * connection and a mutex only around transactions, so a plain query from one request could run
 * *inside* another request's open interactive transaction and vanish when that transaction rolls
 * back (measured: test/integration/db.test.ts). Here every top-level query takes a FIFO lock
 * for its duration, and a transaction holds the same lock from start until commit or rollback;
 * queries made through the transaction object do not wait (they already hold it).
 * SQLite runs one writer at a time anyway, so nothing is lost in throughput.
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
      const release = await lock.acquire();
      let tx: Transaction;
      try {
        tx = await inner.startTransaction(isolationLevel);
      } catch (e) {
        release();
        throw e;
      }
      const finish = (fn: () => Promise<void>) => async () => {
        try {
          await fn();
        } finally {
          release();
        }
      };
      return {
        provider: tx.provider,
        adapterName: tx.adapterName,
        options: tx.options,
        queryRaw: (q: SqlQuery) => tx.queryRaw(q),
        executeRaw: (q: SqlQuery) => tx.executeRaw(q),
        commit: finish(() => tx.commit()),
        rollback: finish(() => tx.rollback()),
      };
    },
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
