/**
 * A message as a row of the `messages` table and back: JSON columns, the silent flag as 0 or 1, and
 * the seq SQLite kept for the table in threads made when it numbered messages itself.
 */
import type { Message } from '../../../spec/index.js';

export type Row = Record<string, SqlStorageValue>;

export function parseJson<T>(value: SqlStorageValue | undefined): T | null {
  return typeof value === 'string' ? (JSON.parse(value) as T) : null;
}

export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export function messageFromRow(row: Row): Message {
  return {
    id: row.id as string,
    seq: row.seq as number,
    role: row.role as Message['role'],
    content: (row.content as string | null) ?? null,
    name: (row.name as string | null) ?? null,
    tool_calls: parseJson(row.tool_calls),
    tool_call_id: (row.tool_call_id as string | null) ?? null,
    created_at: row.created_at as number,
    parent_id: (row.parent_id as string | null) ?? null,
    depth: row.depth as number,
    silent: row.silent === 1,
    metadata: parseJson(row.metadata),
    tool_status: (row.tool_status as Message['tool_status']) ?? null,
    attachments: parseJson(row.attachments),
    envelope: parseJson(row.envelope),
  };
}

/** One message's row, at the seq it carries. */
export function insertMessageRow(sql: SqlStorage, message: Message): void {
  sql.exec(
    `INSERT INTO messages (seq, id, role, content, name, tool_calls, tool_call_id, created_at, parent_id, depth,
         silent, metadata, tool_status, attachments, envelope)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    message.seq,
    message.id,
    message.role,
    message.content,
    message.name,
    jsonOrNull(message.tool_calls),
    message.tool_call_id,
    message.created_at,
    message.parent_id,
    message.depth,
    message.silent ? 1 : 0,
    jsonOrNull(message.metadata),
    message.tool_status,
    jsonOrNull(message.attachments),
    jsonOrNull(message.envelope),
  );
}

/** The seq SQLite's AUTOINCREMENT kept for `messages`, in a thread whose table was made with it; else 0. */
export function autoincrementSeq(sql: SqlStorage): number {
  const tables = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").toArray();
  if (tables.length === 0) return 0;
  const row = sql.exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").toArray()[0];
  return row?.seq ?? 0;
}
