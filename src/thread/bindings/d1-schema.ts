/**
 * A D1 schema made on first use (THR-1): the statements run once per database per isolate, in one
 * batch, before the first query that needs them, so a fresh database needs no migration step. A
 * batch that fails is forgotten and run again by the next query, never cached as a failure.
 */

/** `then` runs after the batch, in the same promise (columns an older database lacks). */
export function schemaOnFirstUse(
  statements: readonly string[],
  then?: (db: D1Database) => Promise<unknown>,
): (db: D1Database) => Promise<unknown> {
  const ready = new WeakMap<D1Database, Promise<unknown>>();
  return (db) => {
    let promise = ready.get(db);
    if (!promise) {
      const made = db.batch(statements.map((statement) => db.prepare(statement)));
      promise = (then ? made.then(() => then(db)) : made).catch((error: unknown) => {
        ready.delete(db);
        throw error;
      });
      ready.set(db, promise);
    }
    return promise;
  };
}
