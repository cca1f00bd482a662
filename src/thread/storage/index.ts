/**
 * A thread's SQLite storage (THR-1, THR-2): the message log and key-value store, the schema, the
 * numbered stream frames, the thread's own record, and the rows other rooms keep (idempotency keys,
 * variables, MCP servers, file sizes, scheduled effects, schedules), and the model steps its usage
 * frames record. Every SQL statement of the runtime is in this room.
 */
export type { EffectRow, EffectStatus } from './effect-rows.js';
export { EFFECT_HISTORY_KEPT, EffectRows } from './effect-rows.js';
export type { FileWriteRow } from './file-rows.js';
export { FileRows } from './file-rows.js';
export { FrameLog } from './frame-log.js';
export type { HistoryRow } from './history-rows.js';
export { HistoryRows } from './history-rows.js';
export type { IdempotencyRow } from './idempotency-rows.js';
export { IdempotencyRows } from './idempotency-rows.js';
export type { IndexOutbox, OutboxEntry } from './index-outbox-rows.js';
export { IndexOutboxRows } from './index-outbox-rows.js';
export type { McpServerColumn } from './mcp-rows.js';
export { McpServerRows } from './mcp-rows.js';
export type { NewScheduleRow, ScheduleRow, TickRecord } from './schedule-rows.js';
export { ScheduleRows } from './schedule-rows.js';
export { SPAN_BATCHES_KEPT, SpanRows } from './span-rows.js';
export { FILES_UNCOUNTED_KEY } from './sql-schema.js';
export type { SpendAmount } from './tenant-rows.js';
export { TenantRows } from './tenant-rows.js';
export type { ThreadRecord } from './thread-meta.js';
export { indexRowFor, ownershipOf, recordFor, ThreadMeta } from './thread-meta.js';
export type { ChildFacts } from './thread-store/index.js';
export { MAX_CHILD_STATUS_LENGTH, SqliteThreadStore } from './thread-store/index.js';
export type { UndoRow } from './undo-rows.js';
export { UndoRows } from './undo-rows.js';
export type { StoredUsageStep } from './usage-frames.js';
export { UsageFrames } from './usage-frames.js';
export type { VariableRow } from './variable-rows.js';
export { VariableRows } from './variable-rows.js';
export type { AttemptRow, DeliveryRow, DeliveryStatus, WebhookRow, WebhookScope } from './webhook-rows.js';
export { WebhookRows } from './webhook-rows.js';
