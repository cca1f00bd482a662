/**
 * The Thread Durable Object's SQLite schema. Statements are idempotent and run when the object
 * starts, so an object created by any earlier version is brought up to date.
 */
export const THREAD_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  // The store numbers messages itself, deleted ones' numbers never given again (SqliteThreadStore).
  `CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    content TEXT,
    name TEXT,
    tool_calls TEXT,
    tool_call_id TEXT,
    created_at INTEGER NOT NULL,
    parent_id TEXT,
    depth INTEGER NOT NULL DEFAULT 0,
    silent INTEGER NOT NULL DEFAULT 0,
    metadata TEXT,
    tool_status TEXT,
    attachments TEXT,
    envelope TEXT
  )`,
  // Every write here is billed by the row, and a table's every index is a row of its own. The frame
  // log numbers its frames itself and never deletes one, so AUTOINCREMENT (a write of sqlite_sequence
  // per frame) buys nothing; nor for messages, which the store numbers. Tables keyed by text are
  // WITHOUT ROWID, so a row is one write, not two (the row and its key's index). Threads made before
  // keep their tables: both shapes read alike.
  `CREATE TABLE IF NOT EXISTS frames (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS queue (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tool_journal (tool_call_id TEXT PRIMARY KEY, started_at INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS variables (name TEXT PRIMARY KEY, secret INTEGER NOT NULL, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS children (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)`,
  // The size of every file the thread holds in R2, and the writes under way (ATT-6: its quota).
  `CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS file_writes (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, size INTEGER NOT NULL)`,
  // Not here, made on first use by the few threads that need them: idempotency keys
  // (idempotency-rows.ts), MCP servers (mcp-rows.ts), the index outbox (index-outbox-rows.ts).
  `CREATE TABLE IF NOT EXISTS interactions (
    tool_call_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    answered INTEGER NOT NULL DEFAULT 0,
    answer TEXT,
    PRIMARY KEY (tool_call_id, kind)
  )`,
];

/** Columns added to tables that threads created earlier already have. */
const ADDED_COLUMNS: ReadonlyArray<{ table: string; column: string; type: string }> = [
  // A key's message fingerprint (THR-5): a key reused for another message is refused.
  { table: 'idempotency', column: 'body_hash', type: 'TEXT' },
];

/**
 * The schema's version, kept in `meta` once an object is up to date: every start of an object
 * costs one read instead of the whole schema. Raise it whenever THREAD_SCHEMA or ADDED_COLUMNS
 * change.
 */
export const SCHEMA_VERSION = 3;
const VERSION_KEY = 'schema_version';

/**
 * The meta key set to false in a thread created before its files were counted (schema 3): its
 * files are counted from R2 the first time they are needed (thread/files).
 */
export const FILES_UNCOUNTED_KEY = 'files_uncounted';

/**
 * Whether a thread was ever created in this object: until then it has no tables at all, so a
 * request for a thread that does not exist leaves no storage behind.
 */
export function hasSchema(sql: SqlStorage): boolean {
  return sql.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'meta'").one().n > 0;
}

function storedVersion(sql: SqlStorage): number {
  if (!hasSchema(sql)) return 0;
  const row = sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', VERSION_KEY).toArray()[0];
  return row ? Number(JSON.parse(row.value)) : 0;
}

export function migrate(sql: SqlStorage): void {
  const version = storedVersion(sql);
  if (version === SCHEMA_VERSION) return;
  const older = version < 3 && hasSchema(sql);
  // One call for the whole schema: a new object is created on the path of its first request.
  sql.exec(THREAD_SCHEMA.join(';\n'));
  if (older) sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', FILES_UNCOUNTED_KEY, 'true');
  for (const { table, column, type } of ADDED_COLUMNS) {
    const columns = sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).toArray();
    // A table made on first use and not used yet is made with the column when it is.
    if (columns.length > 0 && !columns.some((existing) => existing.name === column))
      sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
  sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', VERSION_KEY, JSON.stringify(SCHEMA_VERSION));
}
