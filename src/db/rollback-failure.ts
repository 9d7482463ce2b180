// A transaction whose body failed reports the body's error, even when the ROLLBACK after it failed too.

/** Anything with Drizzle's `transaction(fn, config?)`: the database handle, or a transaction (savepoints). */
interface Transactional {
  transaction: (...args: never[]) => Promise<unknown>;
}

/**
 * What a body's error carries when the ROLLBACK that followed it failed as well: the rollback's error, for
 * the logs (pino serialises it with the body's error). Never `cause`: the body's error keeps its own cause,
 * and what answers the request (core/http/error-handler.ts) stays the body's error's to decide. A bug's 500
 * stays a 500 with its stack in the log, not a 503 because the connection also went, and a terminated
 * connection's 503 comes from the body's own statement, which failed for that reason first.
 */
export interface RollbackFailed {
  rollbackError: unknown;
}

/**
 * Makes `db.transaction` (and the `transaction` of each transaction it opens, a savepoint) reject with the
 * body's error when the body throws and the ROLLBACK (or ROLLBACK TO SAVEPOINT) then fails too, with the
 * rollback's error attached as `rollbackError`.
 *
 * Why: Drizzle's node-postgres session awaits the ROLLBACK in its `catch` and PGlite's `transaction` does the
 * same, so a failed ROLLBACK replaces the error that caused it (drizzle-orm 0.45, pglite 0.5). On a
 * connection terminated mid-transaction the caller saw "Failed query: rollback" instead of the statement that
 * met the termination, or instead of its own error (a 409 became a 503). Nothing is lost by keeping the
 * body's error: a server rolls back a transaction whose connection ends, and one whose ROLLBACK failed on a
 * live connection is not committed either.
 *
 * @example
 * ```ts
 * const db = keepBodyErrors(drizzle({ client: pool }) as unknown as Db);
 * await db.transaction(async () => {
 *   throw conflict('taken'); // rejects with this 409, whatever the ROLLBACK does
 * });
 * ```
 */
export function keepBodyErrors<T extends Transactional>(db: T): T {
  const own = db.transaction.bind(db) as unknown as (fn: (tx: Transactional) => Promise<unknown>, config?: unknown) => Promise<unknown>;
  const transaction = async (fn: (tx: Transactional) => Promise<unknown>, config?: unknown) => {
    let failed: { error: unknown } | undefined;
    try {
      return await own(async (tx) => {
        keepBodyErrors(tx);
        try {
          return await fn(tx);
        } catch (error) {
          failed = { error };
          throw error;
        }
      }, config);
    } catch (error) {
      // The body's own error, after a ROLLBACK that worked; or a BEGIN or COMMIT that failed: theirs to report.
      if (!failed || error === failed.error) throw error;
      throw withRollbackError(failed.error, error);
    }
  };
  (db as unknown as { transaction: typeof transaction }).transaction = transaction;
  return db;
}

function withRollbackError(bodyError: unknown, rollbackError: unknown): unknown {
  // A thrown primitive or a frozen error cannot take it: the body's error still goes up as it is. Through a
  // savepoint, the first failure stays: the outer ROLLBACK fails after it, for the same reason.
  if (typeof bodyError === 'object' && bodyError !== null && Object.isExtensible(bodyError) && !('rollbackError' in bodyError)) {
    (bodyError as RollbackFailed).rollbackError = rollbackError;
  }
  return bodyError;
}
