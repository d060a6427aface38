/**
 * Work to do once a transaction has committed — never before, never after a rollback (live
 * updates, docs/pulls.md "Live updates": a page must not be told of a comment that then rolls back).
 * `inTransaction` (server/db/transaction.ts) opens a list for its transaction client and
 * runs it after the commit; `afterCommit` on any other client (the root client: its writes are
 * already committed) runs the work at once.
 */
const pending = new WeakMap<object, (() => void)[]>();

/** Runs `work` after `client`'s transaction commits (at once outside a transaction). Errors in `work` are logged, not thrown. */
export function afterCommit(client: object, work: () => void): void {
  const list = pending.get(client);
  if (list) list.push(work);
  else runSafely(work);
}

/** Opens the after-commit list of transaction client `tx` (inTransaction). */
export function trackTransaction(tx: object): () => void {
  const list: (() => void)[] = [];
  pending.set(tx, list);
  /** Runs the list: call it once the transaction has committed. */
  return () => {
    pending.delete(tx);
    for (const work of list) runSafely(work);
  };
}

function runSafely(work: () => void): void {
  try {
    work();
  } catch (e) {
    console.error("after-commit work failed", e);
  }
}
