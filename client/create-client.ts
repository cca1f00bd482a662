/**
 * `createClient`: one object with a group of calls per resource of the API (the admins' keys, audit
 * log and limits among them) and `stream` for a
 * thread's frames, all sharing the base URL, the key and the platform's fetch and WebSocket.
 */
import { type AnswerCalls, answerCalls } from './answers.js';
import { type AuditCalls, auditCalls } from './audit.js';
import { type EffectCalls, effectCalls } from './effects.js';
import { type EndpointCalls, endpointCalls } from './endpoints.js';
import { type FileCalls, fileCalls } from './files.js';
import { typedApi } from './http.js';
import { type KeyCalls, keyCalls } from './keys.js';
import { type LimitCalls, limitCalls } from './limits.js';
import { type MessageCalls, messageCalls } from './messages.js';
import { type ClientOptions, resolvePlatform } from './options.js';
import {
  type TenantScheduleCalls,
  type ThreadScheduleCalls,
  tenantScheduleCalls,
  threadScheduleCalls,
} from './schedules.js';
import { type SpanCalls, spanCalls } from './spans.js';
import { openStream, type StreamOptions } from './stream.js';
import type { ThreadStream } from './thread-stream.js';
import { type AgentCalls, agentCalls, type ThreadCalls, threadCalls } from './threads.js';
import { type UsageCalls, usageCalls } from './usage.js';
import { type VariableCalls, variableCalls } from './variables.js';
import { type WaitCalls, waitCalls } from './waits.js';
import { type WebhookCalls, webhookCalls } from './webhooks.js';

export interface Client {
  readonly agents: AgentCalls;
  readonly threads: ThreadCalls;
  readonly messages: MessageCalls;
  readonly answers: AnswerCalls;
  readonly files: FileCalls;
  readonly variables: VariableCalls;
  /** A thread's scheduled effects: listed, and cancelled before they run. */
  readonly effects: EffectCalls;
  /** A thread's schedules: messages posted to it on a cron expression or once. */
  readonly schedules: ThreadScheduleCalls;
  /** The tenant's thread-starting schedules: each tick starts a new thread of an agent. */
  readonly tenantSchedules: TenantScheduleCalls;
  /** The inbox of waits: every open wait of the threads the key sees, answered through `answers`. */
  readonly waits: WaitCalls;
  /** Webhook endpoints, their deliveries and replays. */
  readonly webhooks: WebhookCalls;
  /** The application's thread endpoints (`defineThreadEndpoint`), called by path below a thread. */
  readonly endpoints: EndpointCalls;
  /** Admins: the tenant's API keys. */
  readonly keys: KeyCalls;
  /** Admins: the tenant's audit log. */
  readonly audit: AuditCalls;
  /** Admins: the tenant's rate limits and spend quotas. */
  readonly limits: LimitCalls;
  /** What models cost, by user, agent, model, day (an admin: the tenant's; others: their own). */
  readonly usage: UsageCalls;
  /** What a thread recorded of its turns: each turn's spans, for a timeline. */
  readonly spans: SpanCalls;
  /** The thread's frames, reconnecting after every drop; see ThreadStream. */
  stream(id: string, options?: StreamOptions): ThreadStream;
}

export function createClient(options: ClientOptions): Client {
  const platform = resolvePlatform(options);
  const api = typedApi(platform);
  const threads = threadCalls(api);
  return {
    agents: agentCalls(api),
    threads,
    messages: messageCalls(api, platform),
    answers: answerCalls(api),
    files: fileCalls(platform),
    variables: variableCalls(api),
    effects: effectCalls(api),
    schedules: threadScheduleCalls(api),
    tenantSchedules: tenantScheduleCalls(api),
    waits: waitCalls(api),
    webhooks: webhookCalls(api),
    endpoints: endpointCalls(platform),
    keys: keyCalls(api),
    audit: auditCalls(api),
    limits: limitCalls(api),
    usage: usageCalls(api),
    spans: spanCalls(api),
    stream: (id, streamOptions = {}) => openStream(platform, id, streamOptions, threads.get),
  };
}
