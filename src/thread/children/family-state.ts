/**
 * The calling side of `getChildThread` / `getParentThread`: a ThreadState over another thread of the
 * family, whose methods are RPCs to that thread's object (family-calls.ts says what each side may
 * call, and checks it there). The calls carry the family's owner as a member principal, so the other
 * thread's access rule applies as for its owner, and nothing beyond: no approvals, no other thread.
 *
 * What cannot cross is resolved here or refused with the reason: the getters (`children`,
 * `terminated`, `context`) are a snapshot taken when the state was got; `execution` is null; the
 * definitions (`loadModel` and its kin) are this application's own, read locally; `env` and `tenvs`
 * are the other thread's variables and do not cross; running tools or code, fetching, starting or
 * messaging threads and reaching further relatives act only from a thread's own state.
 */

import type { ChildEntry } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { resourceMembers } from '../../engine/state/index.js';
import type { ThreadState } from '../../spec/index.js';
import { DEFAULT_TENANT, type Principal } from '../access/index.js';
import {
  type ApiError,
  type FamilyCall,
  type FamilySnapshot,
  type JsonValue,
  type RpcResult,
  type RuntimeEnv,
  threadStub,
} from '../bindings/index.js';
import type { ThreadRecord } from '../storage/index.js';
import { FAMILY_METHODS, mayCall } from './family-calls.js';

export interface FamilyStateHost {
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  /** The calling thread. */
  readonly record: ThreadRecord;
  /** The names it holds as scoped: they pass to its children (SCOPE-1). */
  scopedNames(): string[];
  logError(line: string): void;
}

/** A family call the other thread refused or failed: its message, for the tool. */
export class FamilyCallFailed extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'FamilyCallFailed';
  }
}

/** Members refused on another thread's state, with why; the synchronous ones throw, the rest reject. */
const REFUSED: Readonly<Record<string, string>> = {
  env: "its variables are its own (a parent's setEnv passes a value down); read your own with state.env",
  setContext: "the tool context belongs to the thread's own tools",
  invokeTool: "tools run only in a thread's own turn",
  runCode: "programs run only in a thread's own calls",
  queueTool: "tools run only in a thread's own turn",
  fetch: 'use your own state.fetch',
  spawnChild: 'a thread starts children only from its own state',
  messageChild: 'a thread messages its children only from its own state',
  notifyParent: 'a thread notifies its parent only from its own state',
  handoff: 'a thread is handed off only from its own state',
  getChildThread: 'reach your family from your own state',
  getParentThread: 'reach your family from your own state',
  setStatus: 'a thread sets its status only from its own state',
  updateMessage: "another thread's messages are changed only by that thread",
  deleteMessage: "another thread's messages are changed only by that thread",
  scheduleEffect: 'a thread schedules its effects only from its own state',
  removeScheduledEffect: 'a thread schedules its effects only from its own state',
  readFileStream: 'use readFile',
  authorize: 'authorize checks the running call: use your own state',
};
const SYNCHRONOUS: ReadonlySet<string> = new Set(['queueTool', 'authorize', 'emit']);

/** Who the calls act as: the family's owner, a member of its tenant (IDN-1, IDN-4). */
export function familyPrincipal(record: ThreadRecord): Principal {
  return { tenant: record.tenant ?? DEFAULT_TENANT, subject: record.userId ?? '', role: 'member', via: 'thread' };
}

type Call = (method: string, args: unknown[]) => Promise<unknown>;

/** Calls `method` of the state of `target`, to which this thread is `as`. */
function caller(host: FamilyStateHost, target: string, as: 'parent' | 'child'): Call {
  const { record } = host;
  const principal = familyPrincipal(record);
  return async (method, args) => {
    const request: FamilyCall = { from: record.id, relation: as, method, args: args as JsonValue[] };
    if (as === 'parent') request.scopedNames = host.scopedNames();
    const stub = threadStub(host.env, target);
    // RPC types lose the failure branch of the union; the value crossing is an RpcResult all the same.
    const answer = (await stub.familyCall(principal, target, request)) as unknown as RpcResult<{ value: unknown }>;
    if (!answer.ok) throw new FamilyCallFailed(answer.error);
    return answer.value.value;
  };
}

/**
 * `setEnv` passed down: every child not terminated stores the value, and passes it to its own. Best
 * effort, not atomic: a child that cannot be reached, or refuses (a name it declares scoped, a
 * secret it would have to hold as text), keeps what it had, and the failure is logged.
 */
export async function propagateEnv(
  host: FamilyStateHost,
  children: readonly ChildEntry[],
  name: string,
  value: string,
  type: 'text' | 'secret',
): Promise<void> {
  const active = children.filter((child) => child.status !== 'terminated');
  const results = await Promise.allSettled(
    active.map((child) => caller(host, child.id, 'parent')('setEnv', [name, value, { type }])),
  );
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      host.logError(`setEnv: child thread ${active[index]?.id} kept its value of ${name}: ${result.reason?.message}`);
    }
  });
}

/** The state over this thread's child `id`, or its parent; null when it is not family or is gone. */
export async function familyState(
  host: FamilyStateHost,
  relation: 'child' | 'parent',
  id: string | null,
): Promise<ThreadState | null> {
  const target = relation === 'child' ? id : host.record.parentId;
  if (!target) return null;
  // What this thread is to the one it calls.
  const as = relation === 'child' ? 'parent' : 'child';
  const call = caller(host, target, as);
  let snapshot: FamilySnapshot;
  try {
    snapshot = (await call('snapshot', [])) as FamilySnapshot;
  } catch (error) {
    if (error instanceof FamilyCallFailed && error.error.status === 404) return null;
    throw error;
  }
  return remoteState(host, snapshot, as, call);
}

function remoteState(host: FamilyStateHost, snapshot: FamilySnapshot, as: 'parent' | 'child', call: Call): ThreadState {
  const base: Record<string, unknown> = {
    ...snapshot,
    execution: null,
    tenvs: Object.freeze({}),
    ...resourceMembers(host.registry),
  };
  const relative = as === 'parent' ? 'child' : 'parent';
  return new Proxy(base, {
    get(target, property) {
      if (typeof property !== 'string') return undefined;
      if (Object.hasOwn(target, property)) return target[property];
      if (mayCall(property, as)) {
        if (property === 'emit') {
          return (...args: unknown[]) => {
            call(property, args).catch((error) => host.logError(`emit on the ${relative} thread: ${error.message}`));
          };
        }
        return (...args: unknown[]) => call(property, args);
      }
      const reason = Object.hasOwn(FAMILY_METHODS, property)
        ? `a child may read its parent and queue messages to it, not change it`
        : REFUSED[property];
      if (reason === undefined) return undefined;
      return (..._args: unknown[]) => {
        const error = new Error(`${property} is not available on the ${relative} thread's state: ${reason}`);
        if (SYNCHRONOUS.has(property)) throw error;
        return Promise.reject(error);
      };
    },
    set() {
      throw new TypeError("another thread's state cannot be changed by assignment");
    },
  }) as unknown as ThreadState;
}
