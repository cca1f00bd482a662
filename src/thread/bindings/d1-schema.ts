/**
 * A D1 schema made on first use (THR-1): the statements run once per isolate, in one batch, before
 * the first query that needs them, so a fresh database needs no migration step. A batch that fails
 * is forgotten and run again by the next query, never cached as a failure.
 *
 * Once per isolate, not once per binding object: every Durable Object instance is handed an `env`
 * of its own, so a schema remembered by its binding was made again by each new thread's object, a
 * dozen statements before its index row. A Worker has one D1 binding, and nothing drops its tables.
 */

/** `then` runs after the batch, in the same promise (columns an older database lacks). */
export function schemaOnFirstUse(
  statements: readonly string[],
  then?: (db: D1Database) => Promise<unknown>,
): (db: D1Database) => Promise<unknown> {
  let ready: Promise<unknown> | null = null;
  return (db) => {
    if (!ready) {
      const made = db.batch(statements.map((statement) => db.prepare(statement)));
      ready = (then ? made.then(() => then(db)) : made).catch((error: unknown) => {
        ready = null;
        throw error;
      });
    }
    return ready;
  };
}
