/**
 * The called side of `getChildThread` / `getParentThread`: a thread's state, at rest, used by a
 * thread of its family over RPC. What each may do is what a thread may already do to its family:
 *
 * - a parent reads its child and acts on it as its owner could (messages, files, values, variables,
 *   terminating it), as it starts it with messages, variables and files and stops it;
 * - a child reads its parent and queues messages to it (as `notifyParent` does) or emits to its
 *   stream; it changes nothing else of its parent.
 *
 * Every call is checked again here: the caller must still be this thread's parent or child, its
 * principal (the family's owner, as a member) must be allowed the act, and the state acts under this
 * thread's own permission rules, where a rule that denies or asks refuses (nobody is there to
 * approve) and what no rule covers goes ahead. What crosses back is scrubbed of this thread's
 * secrets; its variables never cross (`env` is refused on such a state).
 */
import { egressPolicy } from '../../engine/egress/index.js';
import { ThreadFiles } from '../../engine/files/index.js';
import { restingState } from '../../engine/guards/index.js';
import type { FileStore, FrameSink, ThreadHost } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { ThreadState } from '../../spec/index.js';
import { inheritVariableValues } from '../../spec/internal.js';
import {
  type FamilyCall,
  type FamilySnapshot,
  fail,
  type JsonValue,
  notFound,
  ok,
  type RpcResult,
  type RuntimeEnv,
  type ThreadIndex,
} from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { SqliteThreadStore, ThreadRecord } from '../storage/index.js';
import { SCOPED_NAMES_KEY } from './child-threads.js';

export interface FamilyHost {
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  store(): SqliteThreadStore;
  files(): FileStore;
  emit: FrameSink;
  readonly variables: ThreadVariables;
  readonly thread: ThreadHost;
  /** The thread index: a child met before this thread has recorded it is found there. */
  readonly index: Pick<ThreadIndex, 'childStatuses'>;
}

interface MethodRule {
  /** What the caller's principal must be allowed on this thread. */
  action: 'read' | 'write';
  /** Who may call it: any family member, or the parent only. */
  callers: 'family' | 'parent';
}

const READ: MethodRule = { action: 'read', callers: 'family' };
const TELL: MethodRule = { action: 'write', callers: 'family' };
const CHANGE: MethodRule = { action: 'write', callers: 'parent' };

/** The methods a family state forwards; any other is refused on the caller's side with a reason. */
export const FAMILY_METHODS: Readonly<Record<string, MethodRule>> = {
  getMessages: READ,
  getMessage: READ,
  getLogs: READ,
  readFile: READ,
  readdirFile: READ,
  statFile: READ,
  grepFiles: READ,
  findFiles: READ,
  getFileStats: READ,
  getFileThumbnail: READ,
  getValue: READ,
  envType: READ,
  getScheduledEffects: READ,
  queueMessage: TELL,
  emit: TELL,
  injectMessage: CHANGE,
  writeFile: CHANGE,
  unlinkFile: CHANGE,
  mkdirFile: CHANGE,
  rmdirFile: CHANGE,
  setValue: CHANGE,
  setEnv: CHANGE,
  terminate: CHANGE,
};

/** The principal's act a family call takes: `snapshot` and unknown methods read (and are refused later). */
export function familyAction(method: string): 'read' | 'write' {
  return Object.hasOwn(FAMILY_METHODS, method) ? (FAMILY_METHODS[method] as MethodRule).action : 'read';
}

export function mayCall(method: string, relation: 'parent' | 'child'): boolean {
  const rule = Object.hasOwn(FAMILY_METHODS, method) ? FAMILY_METHODS[method] : undefined;
  return rule !== undefined && (rule.callers === 'family' || relation === 'parent');
}

/**
 * Whether the caller is what it says it is to this thread. A child may call in its first step while
 * its parent still waits for the answer that creates it, before the parent has recorded it: the
 * index, where the child wrote itself (with this thread as its parent) as it was created, says so.
 */
async function isFamily(host: FamilyHost, record: ThreadRecord, call: FamilyCall): Promise<boolean> {
  if (call.relation === 'parent') return record.parentId === call.from;
  if (call.relation !== 'child') return false;
  if (host.store().children().includes(call.from)) return true;
  return (await host.index.childStatuses(record.id)).has(call.from);
}

/** This thread's state at rest, for `caller`, under this thread's rules. */
function stateFor(host: FamilyHost, relation: 'parent' | 'child'): ThreadState {
  const store = host.store();
  return restingState(
    {
      store,
      // EXE-8: what the family writes to files is scrubbed like everything else the thread keeps.
      files: new ThreadFiles(host.files(), host.variables.liveScrubber),
      variables: host.variables.live,
      emit: host.emit,
      host: host.thread,
      egress: egressPolicy(host.env.EGRESS_ALLOW_HOSTS ?? ''),
      registry: host.registry,
    },
    `family:${relation}`,
  );
}

function snapshotOf(state: ThreadState): FamilySnapshot {
  const terminated = (state as { terminated?: number | null }).terminated;
  return {
    threadId: state.threadId,
    agentId: state.agentId,
    userId: state.userId,
    createdAt: state.createdAt,
    children: state.children as unknown as JsonValue[],
    terminated: typeof terminated === 'number' ? terminated : null,
    context: JSON.parse(JSON.stringify(state.context ?? {})) as JsonValue,
  };
}

/**
 * SCOPE-1 for a parent's `setEnv`: a name this thread's agent declares scoped is not taken from
 * the parent unless the parent holds it as scoped, which then makes it scoped here too.
 */
function scopedRefusal(host: FamilyHost, call: FamilyCall): string | null {
  const name = call.args[0];
  if (call.method !== 'setEnv' || typeof name !== 'string') return null;
  const store = host.store();
  const agent = host.registry.agent(store.info.agentId);
  const declared = agent ? host.registry.variablesFor(agent) : [];
  const parentScoped = new Set(call.scopedNames ?? []);
  if (!(name in inheritVariableValues({ [name]: '' }, declared, parentScoped))) {
    return `setEnv: ${name} is declared scoped by this thread's agent: it does not take its parent's value`;
  }
  if (parentScoped.has(name)) {
    const held = new Set((store.getValue(SCOPED_NAMES_KEY) as string[] | undefined) ?? []);
    if (!held.has(name)) store.setValue(SCOPED_NAMES_KEY, [...held, name].sort());
  }
  return null;
}

/** What a family call answers: a value scrubbed of this thread's secrets, or why not. */
export async function answerFamilyCall(
  host: FamilyHost,
  record: ThreadRecord,
  call: FamilyCall,
): Promise<RpcResult<{ value: JsonValue | undefined }>> {
  if (!(await isFamily(host, record, call))) return fail(notFound(record.id));
  const scrubber = host.variables.liveScrubber;
  try {
    const state = stateFor(host, call.relation);
    if (call.method === 'snapshot') return ok({ value: scrubber.value(snapshotOf(state)) as unknown as JsonValue });
    if (!mayCall(call.method, call.relation)) {
      return fail({
        status: 403,
        code: 'forbidden',
        message: `${call.method} may not be called by a ${call.relation}`,
      });
    }
    const refused = scopedRefusal(host, call);
    if (refused) return fail({ status: 400, code: 'state_call_failed', message: refused });
    const method = (state as unknown as Record<string, unknown>)[call.method];
    if (typeof method !== 'function') {
      return fail({ status: 400, code: 'state_call_failed', message: `${call.method} is not provided` });
    }
    const value: unknown = await method.apply(state, call.args);
    const binary = value instanceof Uint8Array || value instanceof ArrayBuffer;
    return ok({ value: (binary ? value : scrubber.value(value)) as JsonValue | undefined });
  } catch (error) {
    return fail({ status: 400, code: 'state_call_failed', message: scrubber.text((error as Error).message) });
  }
}
