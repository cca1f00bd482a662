/**
 * The rate limits a route asks for before it acts (IDN-5): a thread start counts toward the
 * threads-per-hour limit, and whatever starts or resumes a turn (a thread started with messages, a
 * posted message, an answer to a waiting call) takes a turn slot first. A refusal is 429 `rate_limited` with `Retry-After`, before
 * anything is stored; a slot taken by a request that then fails is given back.
 */
import { z } from '@hono/zod-openapi';
import type { Principal } from '../../thread/access/index.js';
import type { Admission, RuntimeEnv } from '../../thread/bindings/index.js';
import { acquireTurnSlot, admitThreadCreation, releaseTurnSlot } from '../../thread/tenancy/index.js';
import { failure, HttpError } from '../contract/index.js';

/** The 429 of a route that starts or resumes a turn, documented. */
export const TURN_SLOT_REFUSED = {
  ...failure("`rate_limited`: the tenant's or your limit of turns running at once is reached; nothing is stored"),
  headers: z.object({ 'Retry-After': z.string().describe('Seconds to wait before trying again') }),
};

/** Throws the 429 of a refused admission. */
function admitted(admission: Admission): void {
  if (admission.ok) return;
  throw new HttpError({
    status: 429,
    code: admission.code,
    message: admission.message,
    retryAfter: admission.retryAfterSeconds,
  });
}

/**
 * Runs `act`, which starts a turn in `threadId`, holding a turn slot for it; the slot stays with the
 * thread (which gives it back when the turn ends) unless `act` fails.
 */
export async function withTurnSlot<T>(
  env: RuntimeEnv,
  principal: Principal,
  threadId: string,
  act: () => Promise<T>,
): Promise<T> {
  const slot = await acquireTurnSlot(env, principal, threadId);
  admitted(slot);
  try {
    return await act();
  } catch (error) {
    if (slot.ok && slot.fresh) await releaseTurnSlot(env, principal.tenant, threadId);
    throw error;
  }
}

/** Counts a thread start, then runs `create` (under a turn slot when the thread starts with a turn). */
export async function withThreadAdmission<T>(
  env: RuntimeEnv,
  principal: Principal,
  threadId: string,
  startsTurn: boolean,
  create: () => Promise<T>,
): Promise<T> {
  admitted(await admitThreadCreation(env, principal));
  return startsTurn ? withTurnSlot(env, principal, threadId, create) : create();
}
