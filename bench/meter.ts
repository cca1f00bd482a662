/**
 * The benchmark Worker's meter of billable units: what a turn runs up on Cloudflare's bill, counted
 * where it is spent, for the bill scenario (bench/scenarios/bill.mjs). Only the benchmark build has
 * it, and only a wrangler dev started with `BENCH_METER=1` switches it on, so no other scenario, and
 * no deployed Worker, pays for counting. Wrapping the bindings in the benchmark Worker rather than
 * counting inside the runtime keeps the runtime's hot path free of any counter, switched off or not.
 *
 * Counted:
 * - requests to the Worker from outside;
 * - SQLite rows read and written by every `ctx.storage.sql.exec` of the Thread and Tenant objects,
 *   from the cursors' `rowsRead` / `rowsWritten` (read when the meter is read, so a cursor counts
 *   what it ended up reading), and alarms set or deleted (each stores a row);
 * - D1 queries and rows, from each result's `meta.rows_read` / `meta.rows_written` (`first()` is
 *   answered through `all()` so its meta is seen);
 * - R2 operations, class A (put, list, multipart) and class B (get, head);
 * - Durable Object requests: every call on a Thread or Tenant stub (a fetch or an RPC method, each
 *   billed as one request), every alarm run, every WebSocket message the object receives.
 *
 * Every Durable Object of the local workerd runs in the Worker's isolate, so the counts are plain
 * module state, read and reset by `GET /bench/meter`.
 */

/** What the meter has counted since it was last read. */
interface Counts {
  worker: { requests: number };
  sqlite: { queries: number; rowsRead: number; rowsWritten: number; alarmWrites: number };
  /** `calls`: round trips to D1 (a batch is one, whatever its statements). */
  d1: { queries: number; calls: number; rowsRead: number; rowsWritten: number };
  r2: { classA: number; classB: number };
  durableObjects: { calls: number; alarms: number; webSocketMessages: number };
}

const empty = (): Counts => ({
  worker: { requests: 0 },
  sqlite: { queries: 0, rowsRead: 0, rowsWritten: 0, alarmWrites: 0 },
  d1: { queries: 0, calls: 0, rowsRead: 0, rowsWritten: 0 },
  r2: { classA: 0, classB: 0 },
  durableObjects: { calls: 0, alarms: 0, webSocketMessages: 0 },
});

let counts = empty();
/** Cursors not yet read: their row counts are final only once the code using them is done. */
let cursors: { query: string; cursor: SqlStorageCursor<Record<string, SqlStorageValue>> }[] = [];
/** Rows written by each statement's text since the meter was last read: what writes them. */
export type WritesByStatement = Record<string, { runs: number; rowsWritten: number }>;

/** The counts so far, cursors included, and a fresh start. */
export function readMeter(): Counts & { writesByStatement: WritesByStatement; d1ByStatement: Record<string, number> } {
  const writesByStatement: WritesByStatement = {};
  for (const { query, cursor } of cursors) {
    counts.sqlite.rowsRead += cursor.rowsRead;
    counts.sqlite.rowsWritten += cursor.rowsWritten;
    if (cursor.rowsWritten === 0) continue;
    const text = query.replace(/\s+/g, ' ').trim().slice(0, 100);
    const entry = writesByStatement[text] ?? { runs: 0, rowsWritten: 0 };
    entry.runs++;
    entry.rowsWritten += cursor.rowsWritten;
    writesByStatement[text] = entry;
  }
  const read = { ...counts, writesByStatement, d1ByStatement };
  counts = empty();
  d1ByStatement = {};
  cursors = [];
  return read;
}

/** Counts what a Durable Object's storage is asked to do. */
export function meterStorage(storage: DurableObjectStorage): void {
  const sql = storage.sql;
  const exec = sql.exec.bind(sql);
  sql.exec = ((query: string, ...bindings: unknown[]) => {
    const cursor = exec(query, ...bindings);
    counts.sqlite.queries++;
    cursors.push({ query, cursor });
    return cursor;
  }) as typeof sql.exec;
  const setAlarm = storage.setAlarm.bind(storage);
  storage.setAlarm = (...args) => {
    counts.sqlite.alarmWrites++;
    return setAlarm(...args);
  };
  const deleteAlarm = storage.deleteAlarm.bind(storage);
  storage.deleteAlarm = (...args) => {
    counts.sqlite.alarmWrites++;
    return deleteAlarm(...args);
  };
}

/** The Worker received a request from outside (the meter's own reads are not counted). */
export function countRequest(): void {
  counts.worker.requests++;
}

/** A Durable Object received an alarm or a WebSocket message. */
export function countDelivery(kind: 'alarms' | 'webSocketMessages'): void {
  counts.durableObjects[kind]++;
}

type D1Meta = { meta?: { rows_read?: number; rows_written?: number } };

/** D1 statements run since the meter was last read, by their text. */
let d1ByStatement: Record<string, number> = {};
/** The text of each statement D1 was given. */
const statementText = new WeakMap<object, string>();

function countD1(result: D1Meta | undefined, statement: object | undefined): void {
  const text = (statement && statementText.get(statement)) ?? '(unknown)';
  d1ByStatement[text] = (d1ByStatement[text] ?? 0) + 1;
  counts.d1.queries++;
  counts.d1.rowsRead += result?.meta?.rows_read ?? 0;
  counts.d1.rowsWritten += result?.meta?.rows_written ?? 0;
}

/** A D1 statement whose runs are counted; kept unwrapped inside `batch`, which counts its own. */
const unwrapped = new WeakMap<object, D1PreparedStatement>();

function meterStatement(statement: D1PreparedStatement, text: string): D1PreparedStatement {
  const metered = {
    bind: (...values: unknown[]) => meterStatement(statement.bind(...values), text),
    run: async () => {
      counts.d1.calls++;
      const result = await statement.run();
      countD1(result, metered);
      return result;
    },
    all: async () => {
      counts.d1.calls++;
      const result = await statement.all();
      countD1(result, metered);
      return result;
    },
    first: async (column?: string) => {
      counts.d1.calls++;
      const result = await statement.all<Record<string, unknown>>();
      countD1(result, metered);
      const row = result.results[0] ?? null;
      return column === undefined ? row : (row?.[column] ?? null);
    },
    raw: async (options?: { columnNames?: boolean }) => {
      counts.d1.calls++;
      counts.d1.queries++;
      return statement.raw(options as { columnNames: true });
    },
  } as unknown as D1PreparedStatement;
  unwrapped.set(metered, statement);
  statementText.set(metered, text);
  return metered;
}

/**
 * One metered binding per D1 binding: the runtime remembers per binding object that it made the
 * index's tables, and each object instance is handed an env of its own whose D1 binding is the same
 * object; a proxy made per env would have it make them again for every thread.
 */
const meteredDatabases = new WeakMap<D1Database, D1Database>();

function meterD1(db: D1Database): D1Database {
  const known = meteredDatabases.get(db);
  if (known) return known;
  const metered = meterD1Calls(db);
  meteredDatabases.set(db, metered);
  return metered;
}

function meterD1Calls(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (query: string) => meterStatement(target.prepare(query), query.replace(/\s+/g, ' ').trim().slice(0, 90));
      }
      if (property === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          counts.d1.calls++;
          const results = await target.batch(statements.map((statement) => unwrapped.get(statement) ?? statement));
          for (const [index, result] of results.entries()) countD1(result, statements[index]);
          return results;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const R2_CLASS_A = new Set(['put', 'list', 'createMultipartUpload', 'resumeMultipartUpload']);
const R2_CLASS_B = new Set(['get', 'head']);

function meterR2(bucket: R2Bucket): R2Bucket {
  return new Proxy(bucket, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (R2_CLASS_A.has(String(property))) counts.r2.classA++;
        else if (R2_CLASS_B.has(String(property))) counts.r2.classB++;
        return Reflect.apply(value, target, args);
      };
    },
  });
}

/** A stub whose every method call (a fetch or an RPC method) is counted as one request. */
function meterStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function' || property === 'then') return value;
      return (...args: unknown[]) => {
        counts.durableObjects.calls++;
        return Reflect.apply(value, target, args);
      };
    },
  });
}

function meterNamespace<T extends DurableObjectNamespace>(namespace: T): T {
  return new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'get' || property === 'getByName') {
        return (...args: unknown[]) => meterStub(Reflect.apply(value, target, args));
      }
      return value.bind(target);
    },
  });
}

const wrappedEnvs = new WeakMap<object, object>();

/** The env with its billable bindings counted, when `BENCH_METER` is set; else as it is. */
export function meteredEnv<E extends { BENCH_METER?: string }>(env: E): E {
  if (env.BENCH_METER !== '1') return env;
  const known = wrappedEnvs.get(env);
  if (known) return known as E;
  const bindings = env as unknown as Record<string, unknown>;
  const wrapped: Record<string, unknown> = { ...bindings };
  if (bindings.DB) wrapped.DB = meterD1(bindings.DB as D1Database);
  if (bindings.FILES) wrapped.FILES = meterR2(bindings.FILES as R2Bucket);
  for (const name of ['THREADS', 'TENANTS']) {
    if (bindings[name]) wrapped[name] = meterNamespace(bindings[name] as DurableObjectNamespace);
  }
  wrappedEnvs.set(env, wrapped);
  return wrapped as unknown as E;
}
