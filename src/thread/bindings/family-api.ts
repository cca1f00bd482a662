/**
 * What threads of one family tell each other over RPC (SUB-6, SUB-7): a child's outcome, a call of
 * a thread's state by a parent or child and the snapshot it gets, a deferred child as the API shows it.
 */
import type { AttachmentRef } from '../../spec/index.js';

/** A JSON value crossing RPC (its type is opaque to RPC's serialisation checks). */
export type JsonValue = string | number | boolean | null | object;

/** What a child's turn means to the tool call that waits for it (SUB-7). */
export interface ChildOutcome {
  status: 'success' | 'error';
  result?: string;
  error?: string;
  child_id: string;
  /** Files the child produced in its turn, copied into the parent: valid there (ATT-4). */
  attachments?: AttachmentRef[];
}

/**
 * A call of a thread's state by another thread of its family (`getChildThread`, `getParentThread`):
 * `from` is the calling thread, `relation` what it is to the thread called.
 */
export interface FamilyCall {
  from: string;
  relation: 'parent' | 'child';
  /** A ThreadState method, or `snapshot` for the identity and getters of the state as a whole. */
  method: string;
  args: JsonValue[];
  /** From a parent: the names it holds as scoped, which pass to its children whatever they declare (SCOPE-1). */
  scopedNames?: string[];
}

/** What a thread's state looks like to the family when it is got: a snapshot of its getters. */
export interface FamilySnapshot {
  threadId: string;
  agentId: string;
  userId: string | null;
  createdAt: number;
  children: JsonValue[];
  terminated: number | null;
  context: JsonValue;
}

/** What `GET .../variables/:requestId` answers. */
export interface DeferredChildView {
  request_id: string;
  agent: string;
  missing: string[];
  created_at: number;
}
