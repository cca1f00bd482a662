/**
 * What `GET /api/threads/:id` answers: the record, the status, the children, what the thread waits
 * for, its model usage and budget (THR-4), and what its files take of its storage quota (ATT-6).
 */

import { threadBudget, threadUsage, turnUsage } from '../../engine/conversation/index.js';
import type { AgentBudget, Interaction } from '../../spec/index.js';
import type { JsonValue, ThreadDetails, ThreadIndex, WaitingFor } from '../bindings/index.js';
import type { SqliteThreadStore, ThreadMeta, ThreadRecord } from '../storage/index.js';
import { INDEX_ERROR_KEY } from './index-refusal.js';

export function threadDetails(
  record: ThreadRecord,
  meta: ThreadMeta,
  store: SqliteThreadStore,
  lastFrameSeq: number,
  agentBudget: AgentBudget | undefined,
  storage: ThreadDetails['storage'],
): ThreadDetails {
  const budget = threadBudget(agentBudget, store);
  return {
    id: record.id,
    agent: record.agentId,
    status: meta.status(),
    created_at: record.createdAt,
    tags: record.tags,
    headless: record.headless,
    parent_id: record.parentId,
    owner: record.userId,
    shared: record.shared === true,
    children: store.children().map((id) => ({ id })),
    waiting_for: waitingFor(store.openInteractions()),
    last_error: meta.get<string>('last_error'),
    index_error: meta.get<string>(INDEX_ERROR_KEY),
    message_count: store.messageCount(),
    last_frame_seq: lastFrameSeq,
    usage: { thread: threadUsage(store), turn: turnUsage(store) },
    budget: budget.maxTokens === undefined && budget.maxCost === undefined ? null : budget,
    storage,
    forked_from: record.forkedFrom ?? null,
  };
}

/** Open waits as `waiting_for` shows them, and as the inbox of waits lists them (index-writes.ts). */
export function waitingFor(waits: readonly Interaction[]): WaitingFor[] {
  return waits.map((wait) => ({
    tool_call_id: wait.toolCallId,
    name: wait.toolName,
    kind: wait.kind,
    payload: wait.payload as JsonValue,
    created_at: wait.createdAt,
  }));
}

/** Adds each child's status as the thread index last recorded it (SUB-7). */
export async function withChildStatuses(details: ThreadDetails, index: ThreadIndex): Promise<ThreadDetails> {
  if (details.children.length === 0) return details;
  const statuses = await index.childStatuses(details.id);
  return { ...details, children: details.children.map((child) => ({ ...child, status: statuses.get(child.id) })) };
}
