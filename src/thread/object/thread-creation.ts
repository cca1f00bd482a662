/**
 * What creating a thread writes (THR-1, VAR-2, VAR-3, PERM-1), all or nothing: its variables sealed
 * (a secret too short to scrub, or no key to seal it, refuses the thread), its record, its session
 * rules and the rules it inherits, its first messages, the sizes of files its parent handed it
 * (ATT-6), a fork's copied log and key-value rows (FORK-2), and its row for the D1 index, in the
 * thread's outbox (index-writes.ts). The thread's own storage is the record: the answer and the
 * first turn do not wait for D1, which is told off their path and retried until it accepts.
 */

import { BUDGET_KEY } from '../../engine/conversation/index.js';
import { localContextKey } from '../../engine/execute/index.js';
import { INHERITED_RULES_KEY, SESSION_RULES_KEY } from '../../engine/permissions/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { scopedValueNames } from '../../spec/internal.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { type CreateThreadInput, fail, ok, type RpcResult } from '../bindings/index.js';
import { SCOPED_NAMES_KEY } from '../children/index.js';
import { FileHistory, FileLedger } from '../files/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import { type StoredVariables, storeRefusal, storeVariables } from '../secrets/index.js';
import type { SqliteThreadStore } from '../storage/index.js';
import { indexRowFor, recordFor, type ThreadMeta, type ThreadRecord } from '../storage/index.js';
import { holdTurn, ThreadTraces } from '../turn/index.js';
import type { IndexWrites } from './index-writes.js';

export interface CreationHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  readonly meta: ThreadMeta;
  readonly index: IndexWrites;
  readonly variables: ThreadVariables;
  store(): SqliteThreadStore;
  /** The thread is stored: its first frames go out and its first turn may start (true when it does). */
  started(): Promise<boolean>;
  /** Drops everything written, leaving an empty object. */
  erase(): Promise<void>;
  /** Installs the agent's schedules, inside the creation's transaction (throws to refuse the thread). */
  installSchedules?(): void;
}

export async function writeNewThread(host: CreationHost, input: CreateThreadInput): Promise<RpcResult<ThreadRecord>> {
  if (host.meta.get('thread'))
    return fail({ status: 409, code: 'thread_exists', message: `thread ${input.id} exists` });
  const agent = host.registry.agent(input.agent);
  if (!agent) return fail({ status: 400, code: 'unknown_agent', message: `no agent named "${input.agent}"` });
  let variables: StoredVariables;
  try {
    variables = await storeVariables(
      host.ctx.storage,
      input.id,
      input.variables,
      host.registry.variablesFor(agent),
      host.env.SECRETS_KEY,
      input.secretNames,
    );
  } catch (error) {
    // VAR-3: a secret too short to be scrubbed, or no key to seal it: refused, nothing written.
    const refused = storeRefusal(error);
    if (refused) return fail(refused);
    throw error;
  }
  const record = recordFor(input);
  // EXE-8: the scrubber is built from the plaintext at hand before the first message is stored.
  host.variables.use(variables.opened);
  // The object's tables are made only now: a refused thread leaves no storage behind.
  host.meta.prepare();
  try {
    host.ctx.storage.transactionSync(() => {
      host.meta.set('thread', record);
      host.meta.set('status', 'idle');
      variables.write();
      const store = host.store();
      store.startEmpty();
      // FORK-2: a fork starts from its source's log and key-value rows, as the source stored them.
      if (input.fork) {
        store.copyLog(input.fork.log);
        // FORK-7: a rewind of the fork reaches back to its fork point, no further.
        const forkPoint = input.fork.log.at(-1);
        if (forkPoint) FileHistory.startAt(host.meta, forkPoint.seq);
        for (const [key, text] of input.fork.values) store.setRawValue(key, text);
        // Idle whatever the copied log ends with, after any alarm or eviction too.
        holdTurn(host.meta, input.fork.log);
      }
      if (input.permissions?.length) store.setValue(SESSION_RULES_KEY, input.permissions);
      if (input.inheritedPermissions?.length) store.setValue(INHERITED_RULES_KEY, input.inheritedPermissions);
      if (input.budget) store.setValue(BUDGET_KEY, input.budget);
      // TRACE-2: the first turn continues the caller's trace, or the parent's tool call.
      ThreadTraces.remember(store, input.traceparent);
      const scoped = scopedValueNames(input.variables, host.registry.variablesFor(agent), input.scopedNames);
      if (scoped.length > 0) store.setValue(SCOPED_NAMES_KEY, scoped);
      // CTX-1: each tool starts from the context its creator gave it.
      for (const [tool, context] of Object.entries(input.context ?? {})) store.setValue(localContextKey(tool), context);
      // ATT-6: the files a parent copied in count against this thread's quota from the start.
      if (input.files?.length) new FileLedger(host.ctx.storage).record(input.files);
      for (const message of input.messages) {
        store.append({ role: message.role, content: message.content, metadata: message.metadata ?? null });
      }
      host.installSchedules?.();
      // THR-1: what the index has to learn is kept with the thread, in this transaction.
      host.index.recordRow(indexRowFor(record));
    });
  } catch (error) {
    // Rolled back: what memory holds of it goes too, and the object is empty again.
    await host.erase();
    throw error;
  }
  const turnStarts = await host.started();
  // The D1 round trip runs after the answer is ready, never before it.
  await host.index.created(turnStarts);
  return ok(record);
}
