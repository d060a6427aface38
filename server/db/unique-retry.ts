/**
 * Check-then-insert of content-addressed rows under concurrency (search blobs and vectors, which
 * two refreshes of different branches or processes may store at the same moment). Under
 * PostgreSQL's READ COMMITTED both transactions can see "not there" and both insert; the second
 * insert waits for the first transaction and then fails on the unique index (Prisma P2002). By
 * then the first has committed, so running the transaction again finds those rows and skips them.
 * SQLite serialises writers, so it never gets here.
 */
import { isUniqueViolation } from "./prisma-errors";

/**
 * Runs `write` (a whole transaction that checks before it inserts), again when it fails on a
 * unique constraint, at most `attempts` times in all; the last error propagates.
 */
export async function retryOnUniqueViolation<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await write();
    } catch (e) {
      if (i >= attempts || !isUniqueViolation(e)) throw e;
    }
  }
}
