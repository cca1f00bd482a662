/**
 * A table made on first use rather than with the object's schema: most threads never schedule an
 * effect or a message, and most turns write no file, so such an object keeps no table for them.
 * Whether the table exists is asked of SQLite once per instance, then known: the object is the only
 * writer of its storage and makes the table only through `ready(true)`.
 */
export class TableOnFirstUse {
  private made: boolean | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly name: string,
    /** The statements that make the table (and its indexes). */
    private readonly schema: string,
  ) {}

  /** Whether the table exists; made first when `create` is true. */
  ready(create: boolean): boolean {
    if (this.made === null) {
      const found = this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM sqlite_master WHERE name = ?', this.name);
      this.made = found.one().n > 0;
    }
    if (!this.made && create) {
      this.sql.exec(this.schema);
      this.made = true;
    }
    return this.made;
  }

  /** Forgets what was known: asked of SQLite again next time (after the table was dropped). */
  forget(): void {
    this.made = null;
  }
}
