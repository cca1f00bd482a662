/**
 * The thread's family RPCs (SUB-3 to SUB-7, VAR-4, ATT-4): children started, deferred and booted,
 * what a child tells its parent (its outcome, its message, its status, its files), a call to a
 * thread of the family, and a message from the parent. Their bodies are thread/children's and
 * thread/inbox's; this class gives them the object's parts.
 */

import type { AttachmentRef } from '../../spec/index.js';
import type { Principal } from '../access/index.js';
import {
  type ChildDelivery,
  type ChildOutcome,
  type DeferredChildView,
  type FamilyCall,
  fail,
  type JsonValue,
  notFound,
  type PostMessageAnswer,
  type RpcResult,
  type SpawnChildInput,
  type ThreadDetails,
} from '../bindings/index.js';
import {
  answerFamilyCall,
  bootDeferredChild,
  familyAction,
  receiveChildFiles,
  startChild,
  viewDeferredChild,
} from '../children/index.js';
import { acceptMessage, answerFromChild, messageFromChild } from '../inbox/index.js';
import { ThreadAutomation } from './thread-automation.js';
import { DurableThreadHost } from './thread-host.js';

export abstract class ThreadFamily extends ThreadAutomation {
  /**
   * Creates a child thread of this one: its own Durable Object, owned by the same user, inheriting
   * this thread's variables except those the child declares scoped (VAR-4).
   */
  async spawnChild(principal: Principal, id: string, input: SpawnChildInput): Promise<RpcResult<ThreadDetails>> {
    return this.asPrincipal(principal, id, 'write', (record) => startChild(this.answerDesk(), record, input));
  }

  /** SUB-6: the deferred child request `requestId`, or 404. */
  async deferredChild(principal: Principal, id: string, requestId: string): Promise<RpcResult<DeferredChildView>> {
    return this.asPrincipal(principal, id, 'read', () => viewDeferredChild(this.store(), requestId));
  }

  /** SUB-6: stores the values and boots the deferred child; 400 while required values are missing. */
  async bootDeferredChild(
    principal: Principal,
    id: string,
    requestId: string,
    values: Record<string, string>,
  ): Promise<RpcResult<{ child_id: string }>> {
    return this.asPrincipal(principal, id, 'write', (record) =>
      bootDeferredChild(this.answerDesk(), record, requestId, values),
    );
  }

  /** A child started for one of this thread's tool calls finished (SUB-7): its outcome answers the call. */
  async childFinished(childId: string, toolCallId: string, outcome: ChildOutcome): Promise<ChildDelivery> {
    if (!this.record()) return 'parent_gone';
    await answerFromChild(this.answerDesk(), childId, toolCallId, outcome);
    return 'delivered';
  }

  /** A non-blocking child finished: its answer is queued here as a message (SUB-3, SUB-7). */
  async childMessage(childId: string, content: string): Promise<ChildDelivery> {
    if (!this.record()) return 'parent_gone';
    await messageFromChild(this.answerDesk(), childId, content);
    return 'delivered';
  }

  /** A child's status for `state.children` (its turns, `setStatus`, its termination). */
  async childStatus(childId: string, status: string, fromTurn?: boolean): Promise<ChildDelivery> {
    if (!this.record()) return 'parent_gone';
    this.store().setChildStatus(childId, status, fromTurn === true);
    return 'delivered';
  }

  /** `getChildThread` / `getParentThread` of a thread of this one's family (family-calls.ts). */
  async familyCall(
    principal: Principal,
    id: string,
    call: FamilyCall,
  ): Promise<RpcResult<{ value: JsonValue | undefined }>> {
    const host = {
      env: this.env,
      registry: this.registry,
      store: () => this.store(),
      files: () => this.files(),
      emit: this.emit,
      variables: this.variables,
      thread: new DurableThreadHost(this.env, this.programs, this.mcp, () => this.answerDesk()),
      index: this.index,
    };
    return this.asPrincipal(principal, id, familyAction(call.method), (record) => answerFamilyCall(host, record, call));
  }

  /** A child hands over the files it produced: copied here under this thread's quota (ATT-4, ATT-6). */
  async takeChildFiles(childId: string, paths: string[]): Promise<RpcResult<AttachmentRef[]>> {
    if (!this.record()) return fail(notFound(this.ctx.id.toString()));
    return receiveChildFiles(this.env.FILES, childId, paths, this.files());
  }

  /**
   * A message from this thread's parent (SUB-4 `subagent_message`), addressed to the side the
   * parent's config names; refused from any other thread.
   */
  async messageFromParent(
    parentId: string,
    content: string,
    side: 'a' | 'b',
    traceparent?: string,
  ): Promise<RpcResult<PostMessageAnswer>> {
    const record = this.record();
    if (!record || record.parentId !== parentId) return fail(notFound(record?.id ?? 'unknown'));
    const metadata = { from_parent: parentId, ...(side === 'b' ? { to_side: 'b' } : {}) };
    return acceptMessage(this.answerDesk(), { content, metadata, ownTurn: true, traceparent });
  }
}
