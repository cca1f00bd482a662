/**
 * The `variables` table: a thread's variable values as stored, a secret's value sealed (thread/secrets
 * seals and opens them; this file only keeps the rows). Read when the variables are opened, once per
 * object lifetime and again when a value is stored mid-thread.
 */

/** One stored value: `value` is the sealed text when `secret` is true. */
export interface VariableRow {
  name: string;
  secret: boolean;
  value: string;
}

export class VariableRows {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
  }

  all(): VariableRow[] {
    return this.sql
      .exec<{ name: string; secret: number; value: string }>('SELECT name, secret, value FROM variables')
      .toArray()
      .map((row) => ({ name: row.name, secret: row.secret === 1, value: row.value }));
  }

  /** Writes `row`, replacing an older value of the same name. */
  put(row: VariableRow): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO variables (name, secret, value) VALUES (?, ?, ?)',
      row.name,
      row.secret ? 1 : 0,
      row.value,
    );
  }
}
