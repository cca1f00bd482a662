/**
 * The `mcp_servers` table: per MCP server a thread has listed, its listing and session (`record`,
 * JSON) and its OAuth credentials (`credentials`, sealed text). thread/mcp parses, seals and opens
 * them; this file only keeps the rows. Made on first use: most threads use no MCP server.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

/** The two values a server's row holds, each written on its own. */
export type McpServerColumn = 'record' | 'credentials';

const SCHEMA = 'CREATE TABLE IF NOT EXISTS mcp_servers (server TEXT PRIMARY KEY, record TEXT, credentials TEXT)';

export class McpServerRows {
  private readonly sql: SqlStorage;
  private readonly table: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.table = new TableOnFirstUse(storage.sql, 'mcp_servers', SCHEMA);
  }

  /** `column` of `server`'s row, or null when there is none. */
  read(server: string, column: McpServerColumn): string | null {
    if (!this.table.ready(false)) return null;
    const row = this.sql
      .exec(`SELECT ${columnName(column)} AS value FROM mcp_servers WHERE server = ?`, server)
      .toArray()[0];
    return (row?.value as string | null | undefined) ?? null;
  }

  /** Sets `column` of `server`'s row, creating the row, leaving its other column as it was. */
  write(server: string, column: McpServerColumn, value: string | null): void {
    const name = columnName(column);
    this.table.ready(true);
    this.sql.exec(
      `INSERT INTO mcp_servers (server, ${name}) VALUES (?, ?) ON CONFLICT (server) DO UPDATE SET ${name} = excluded.${name}`,
      server,
      value,
    );
  }

  /** The servers that hold credentials. */
  serversWithCredentials(): string[] {
    if (!this.table.ready(false)) return [];
    return this.sql
      .exec<{ server: string }>('SELECT server FROM mcp_servers WHERE credentials IS NOT NULL')
      .toArray()
      .map((row) => row.server);
  }
}

/** The column's name as SQL text, from the two the type allows and nothing else. */
function columnName(column: McpServerColumn): string {
  if (column !== 'record' && column !== 'credentials') throw new Error(`mcp_servers has no column "${column}"`);
  return column;
}
