/**
 * Starting a fork (FORK-2, FORK-3) as the Worker's side of it: a fork is a new thread, so the caller
 * must be allowed to start threads and the start is counted against the tenant's limits like any
 * other, before the source's object is asked to make it. The fork starts no turn.
 */
import type { Principal } from '../../thread/access/index.js';
import { roleAtLeast } from '../../thread/access/index.js';
import {
  type ForkAnswer,
  type ForkRequest,
  type RpcResult,
  type RuntimeEnv,
  threadStub,
} from '../../thread/bindings/index.js';
import { HttpError, unwrap } from '../contract/index.js';
import { withThreadAdmission } from '../routes/index.js';

export async function startFork(
  env: RuntimeEnv,
  principal: Principal,
  sourceId: string,
  request: Omit<ForkRequest, 'forkId'>,
): Promise<ForkAnswer> {
  if (!roleAtLeast(principal.role, 'member')) {
    throw new HttpError({
      status: 403,
      code: 'forbidden',
      message: `the ${principal.role} role may not start threads`,
    });
  }
  const forkId = crypto.randomUUID();
  return withThreadAdmission(env, principal, forkId, false, async () => {
    const answer = await threadStub(env, sourceId).forkThread(principal, sourceId, { ...request, forkId });
    // RPC's serialisation types lose the answer's type: it is the object's RpcResult.
    return unwrap(answer as RpcResult<ForkAnswer>);
  });
}
