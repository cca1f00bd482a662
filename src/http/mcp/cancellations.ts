/**
 * Cancellation across requests (THR-5). The endpoint is stateless: a client's
 * `notifications/cancelled` arrives in a POST of its own, answered by a fresh server that never saw
 * the call. Calls in flight are therefore registered here, per isolate, by caller and JSON-RPC
 * request id, with the thread they follow once it is known.
 *
 * Nothing crosses between the two requests but plain values: the cancelling request stops the
 * thread through a stub of its own, kept alive with `waitUntil` (a request cannot use I/O of
 * another, and a promise it resolves for another is not reliably continued there); a call
 * cancelled before its thread exists reads the mark once the thread is started, and stops it itself.
 */

import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../thread/access/index.js';

export interface InFlightCall {
  /** The thread the call follows, once started. */
  threadId: string | null;
  /** The client's reason, once cancelled. */
  cancelled: string | null;
}

const inFlight = new Map<string, Set<InFlightCall>>();

function key(principal: Principal, requestId: RequestId): string {
  // A request id is a string or a number: 1 and "1" are different requests.
  return `${principal.tenant}\n${principal.subject}\n${typeof requestId}:${String(requestId)}`;
}

/** Registers a call; `release` unregisters it once it has answered. */
export function registerCall(principal: Principal, requestId: RequestId): { call: InFlightCall; release(): void } {
  const id = key(principal, requestId);
  const call: InFlightCall = { threadId: null, cancelled: null };
  const calls = inFlight.get(id) ?? new Set<InFlightCall>();
  calls.add(call);
  inFlight.set(id, calls);
  return {
    call,
    release() {
      calls.delete(call);
      if (calls.size === 0 && inFlight.get(id) === calls) inFlight.delete(id);
    },
  };
}

/**
 * Marks the caller's call with this request id cancelled and returns it (its `threadId` is the
 * thread to stop, if started). Two clients of one key may use the same request id at the same time;
 * then which call is meant cannot be told, and none is cancelled rather than the wrong one.
 */
export function cancelCall(principal: Principal, requestId: RequestId, reason: string): InFlightCall | null {
  const calls = inFlight.get(key(principal, requestId));
  if (calls?.size !== 1) return null;
  const [call] = calls;
  if (!call || call.cancelled !== null) return null;
  call.cancelled = reason;
  return call;
}
