/**
 * The events a thread publishes (WH-1): `thread.created` once it is stored; when a turn ends,
 * `turn.completed` (it answered, or was stopped), `turn.failed` (it failed, or a limit ended it),
 * `budget.exceeded` (the thread's budget or the tenant's spend quota ended it) and `wait.opened`,
 * once per wait a person or client must answer (question, approval, client tool, human in the loop,
 * secret, MCP authorization). Every payload passes the thread's scrubber: no secret value leaves.
 * Which waits were announced is kept in the thread's storage, so a wait still open when a later
 * turn ends waiting is not announced again.
 */
import type { TurnOutcome } from '../../engine/conversation/index.js';
import type { SecretScrubber } from '../../engine/secrets/index.js';
import type { Interaction, Message } from '../../spec/index.js';
import { HUMAN_INTERACTIONS } from '../../spec/internal.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { ownershipOf, type ThreadRecord } from '../storage/index.js';
import type { WebhookEventType } from './event-types.js';
import { knownUninterested } from './interest-cache.js';
import { publishEvent } from './publish-event.js';

/** The thread's key-value entry listing the waits already announced (those still open). */
export const ANNOUNCED_WAITS_KEY = 'webhooks:announced_waits';
/** The longest message text a payload carries; longer text is cut and says so. */
export const MAX_TEXT = 16_000;

export interface ThreadEventSource {
  ctx: { waitUntil(promise: Promise<unknown>): void };
  env: RuntimeEnv;
  record: ThreadRecord | null;
  scrubber: SecretScrubber;
  store: {
    messages(): readonly Message[];
    openInteractions(): Interaction[];
    getValue(key: string): unknown;
    setValue(key: string, value: unknown): void;
  };
}

/** Publishes `type` with the data `build` makes, built and scrubbed only when some endpoint may hear it. */
function publish(source: ThreadEventSource, type: WebhookEventType, build: () => Record<string, unknown>): void {
  const record = source.record;
  if (!record || !source.env.TENANTS) return;
  const tenant = ownershipOf(record).tenant;
  if (knownUninterested(tenant, type)) return;
  const data = source.scrubber.value({ agent: record.agentId, ...build() });
  publishEvent(source.ctx, source.env, { type, tenant, owner: record.userId ?? '', threadId: record.id, data });
}

export function publishThreadCreated(source: ThreadEventSource): void {
  const record = source.record;
  if (!record) return;
  publish(source, 'thread.created', () => ({
    tags: record.tags,
    parent_id: record.parentId,
    created_at: record.createdAt,
  }));
}

/** The newest assistant message's text, cut at MAX_TEXT. */
function lastAnswer(messages: readonly Message[]): Record<string, unknown> | null {
  const message = messages.findLast((candidate) => candidate.role === 'assistant' && candidate.content);
  if (!message?.content) return null;
  const content = message.content;
  const cut = content.length > MAX_TEXT;
  return { id: message.id, content: cut ? content.slice(0, MAX_TEXT) : content, truncated: cut };
}

/** What a turn's end publishes: see the header. */
export function publishTurnEnd(source: ThreadEventSource, outcome: TurnOutcome): void {
  if (outcome.kind === 'waiting') {
    announceWaits(source);
  } else if (outcome.kind === 'done' || outcome.kind === 'stopped') {
    const reason = outcome.kind === 'stopped' ? 'stopped' : outcome.reason;
    publish(source, 'turn.completed', () => ({ reason, last_message: lastAnswer(source.store.messages()) }));
  } else if (outcome.kind === 'failed') {
    const error = { code: outcome.code ?? 'turn_failed', message: outcome.message };
    publish(source, 'turn.failed', () => ({ error }));
  } else {
    const error = { code: outcome.code ?? 'step_limit', message: outcome.message };
    if (error.code === 'budget_exceeded' || error.code === 'quota_exceeded') {
      publish(source, 'budget.exceeded', () => error);
    }
    publish(source, 'turn.failed', () => ({ error }));
  }
}

/** `wait.opened` for each open wait not announced yet; the list kept is the open ones'. */
function announceWaits(source: ThreadEventSource): void {
  // Nothing to read or write while no endpoint may hear it: a wait still open when one is
  // registered is announced at the next turn that ends waiting.
  const record = source.record;
  if (!record || !source.env.TENANTS || knownUninterested(ownershipOf(record).tenant, 'wait.opened')) return;
  const open = source.store.openInteractions().filter((wait) => HUMAN_INTERACTIONS.includes(wait.kind));
  const stored = source.store.getValue(ANNOUNCED_WAITS_KEY);
  const announced = new Set(Array.isArray(stored) ? (stored as string[]) : []);
  for (const wait of open) {
    if (announced.has(wait.toolCallId)) continue;
    publish(source, 'wait.opened', () => ({
      kind: wait.kind,
      tool_call_id: wait.toolCallId,
      tool_name: wait.toolName,
      payload: wait.payload ?? null,
      created_at: wait.createdAt,
    }));
  }
  source.store.setValue(
    ANNOUNCED_WAITS_KEY,
    open.map((wait) => wait.toolCallId),
  );
}
