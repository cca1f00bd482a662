/**
 * The records the API and the stream both carry — messages, tool envelopes, statuses, waits,
 * usage — named once for the whole client. Each is the schema of the served OpenAPI document
 * (client/openapi.ts, generated), so the REST answers and the stream frames share one definition;
 * only the ACP tool kind, which no route returns, is declared here. test/node/client/client-types.test.ts
 * checks at compile time that what the server's own types describe fits these.
 */
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/** A message of a thread's log. */
export type Message = Schemas['Message'];
export type MessageRole = Message['role'];
export type ToolCall = NonNullable<Message['tool_calls']>[number];
/** The stored result of a tool call. */
export type ToolEnvelope = NonNullable<Message['envelope']>;
export type EnvelopeMetadata = ToolEnvelope['metadata'];
/** A file in the thread filesystem, as tools and uploads hand it back. */
export type AttachmentRef = Schemas['AttachmentRef'];
/** `waiting`: a call waits for an answer; `awaiting_hitl`: for a human-in-the-loop tool. */
export type ThreadStatus = Schemas['ThreadStatus'];
/** A tool call that waits for an answer, as `waiting_for` lists it. */
export type WaitingFor = Schemas['WaitingFor'];
/** What a waiting call waits for. */
export type InteractionKind = WaitingFor['kind'];
/** Token counts and cost of a step, a turn or a whole thread. */
export type UsageTotals = Schemas['UsageTotals'];

/** Any JSON value: what a field the API leaves open (a payload, arguments, an event) can hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The ACP kind of a tool: drives a client's icon and renderer for a call. */
export type AcpToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';
