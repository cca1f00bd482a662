/**
 * The ThreadState a tool receives (THR-7), built per call over the thread's store and files. Its
 * tool context (KIND-6) is the running tool's, unvalidated: the loop binds it to the tool's schemas.
 * A running call's state carries its access gate (access-gate.ts): every file operation, child
 * thread and `authorize` passes through it; listings and searches never show what it refuses.
 * Its `fetch` goes through the egress policy and the host check (outbound-fetch.ts).
 */
import type {
  ExecutionContext,
  ExecutionState,
  GetMessagesOptions,
  Message,
  NewMessageInput,
  RunCodeOptions,
  ThreadState,
} from '../../spec/index.js';
import { canonicalHost, type EgressPolicy, type FetchTransport, outboundFetch } from '../egress/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { AccessGate } from '../permissions/index.js';
import type { FrameSink, ThreadHost, ThreadStore } from '../ports/index.js';
import {
  type DefinitionCatalog,
  effectMembers,
  hierarchyMembers,
  messageMembers,
  pageOfMessages,
  refuseTerminated,
  registryEntry,
  resourceMembers,
  stateFiles,
  terminatedAt,
} from '../state/index.js';
import { noteAuthStatus } from './credential-hint.js';
import { contextApi, executionContext, isContextKey, replaceScratch, scratchRecord } from './tool-context.js';

/** A thread's variables after the prompt → agent → thread merge (VAR-2), secrets decrypted. */
export interface ResolvedVariables {
  /** Names some definition declares. */
  declared: ReadonlySet<string>;
  values: Readonly<Record<string, string>>;
  /** Names whose values are secrets (`state.envType`). */
  secretNames?: ReadonlySet<string>;
}

export interface ThreadStateDeps {
  store: ThreadStore;
  files: ThreadFiles;
  variables: ResolvedVariables;
  emit: FrameSink;
  /** What the state borrows from its thread: children, the parent, programs, waking the loop. */
  host: ThreadHost;
  execution: ExecutionState | null;
  /** The running call's gate; absent outside a call, where no rule applies. */
  gate?: AccessGate;
  /** What `state.fetch` may contact on the model's behalf. */
  egress: EgressPolicy;
  /** Runs before each hop of `state.fetch`, after the egress policy; throws to refuse the URL. */
  checkHost?(url: URL): void;
  /** The network under `state.fetch`; the global `fetch` unless a test gives another. */
  transport?: FetchTransport;
  /** What `state.context` holds besides `local` and `shared`: one record per turn; absent, a new `{}`. */
  scratch?: Record<string, unknown>;
  /** The application's definitions, for `state.loadModel` and its kin; absent, none is known. */
  registry?: DefinitionCatalog;
}

/** What every call's state in a turn shares: all but the call's own execution and gate. */
export type TurnStateDeps = Omit<ThreadStateDeps, 'execution' | 'gate' | 'checkHost'>;

/**
 * The factory of a turn's call states, over the thread's whole store: a dual_ai side's view of the
 * log (conversation/sides.ts) or a nested run's changes what the loop sees, never what a tool sees.
 */
export function threadStates(
  deps: TurnStateDeps,
): (execution: ExecutionState | null, gate?: AccessGate) => ThreadState {
  const { store, files, variables, emit, host, egress, transport, registry } = deps;
  // `state.context`'s scratch keys: one record for the turn, shared by its calls, gone with it.
  const scratch = scratchRecord();
  return (execution, gate) =>
    createThreadState({
      store,
      files,
      variables,
      emit,
      host,
      egress,
      transport,
      registry,
      execution,
      gate,
      scratch,
    });
}

/**
 * `state._notPackableRuntimeContext`: where the code runs, and nothing more. The Worker's bindings,
 * variables and the thread's object stay out: a tool a model drives could misuse them.
 */
const RUNTIME_CONTEXT: Readonly<Record<string, unknown>> = Object.freeze({ runtime: 'cloudflare-workers' });

/** The state methods only a running call has: outside one there is nothing to invoke or pay for. */
function notInCall(what: string): never {
  throw new Error(`${what} is only available to a running tool call`);
}

const KV_PREFIX = 'user:';

/** The store key of a value tools set with `state.setValue(key)`: tools' keys never meet the runtime's. */
export function toolValueKey(key: string): string {
  return KV_PREFIX + key;
}

/**
 * Whether a store key holds what tools wrote (`state.setValue` values, tool contexts): scrubbed of
 * secrets when stored (EXE-8). The runtime's own keys hold structured state and are kept as they are.
 */
export function isToolWrittenKey(key: string): boolean {
  return key.startsWith(KV_PREFIX) || isContextKey(key);
}

export function createThreadState(deps: ThreadStateDeps): ThreadState {
  const { store, variables, emit, gate } = deps;
  const info = store.info;
  const contextual = contextApi(
    store,
    { toolName: deps.execution?.toolName ?? null, contextSchema: null, sharedContextSchema: null },
    emit,
  );
  const scratch = deps.scratch ?? scratchRecord();
  const context = executionContext(scratch, contextual.context);
  return {
    threadId: info.id,
    agentId: info.agentId,
    userId: info.userId,
    createdAt: info.createdAt,
    get children() {
      return store.childEntries().map(registryEntry);
    },
    execution: deps.execution,
    // Read at each use: `setEnv` changes them mid-call.
    get tenvs() {
      return variables.values;
    },
    get context(): ExecutionContext {
      return context;
    },
    set context(value: Record<string, unknown>) {
      replaceScratch(scratch, value);
    },
    setContext: contextual.setContext,
    _notPackableRuntimeContext: RUNTIME_CONTEXT,

    async env(name: string) {
      // Own values only: `toString` or `__proto__` is no variable of the thread.
      const value = Object.hasOwn(variables.values, name) ? variables.values[name] : undefined;
      if (value !== undefined) return value;
      if (!variables.declared.has(name)) {
        throw new Error(`unknown variable "${name}": no tool, prompt or agent of this thread declares it`);
      }
      throw new Error(`variable "${name}" has no value in this thread`);
    },

    async getMessages(options: GetMessagesOptions = {}) {
      return pageOfMessages(store.messages(), options);
    },
    async injectMessage(input: NewMessageInput): Promise<Message> {
      refuseTerminated(store, 'injectMessage');
      const message = store.append({
        role: input.role,
        content: input.content,
        silent: input.silent ?? false,
        metadata: input.metadata ?? null,
      });
      emit({ type: 'message', message });
      return message;
    },
    async queueMessage(input: NewMessageInput) {
      refuseTerminated(store, 'queueMessage');
      store.enqueue(input);
      deps.host.wake();
    },

    ...stateFiles(deps),

    authorize(act) {
      if (!gate) return;
      for (const path of act.read ?? []) gate.read(path);
      for (const path of act.write ?? []) gate.write(path);
      for (const host of act.hosts ?? []) gate.host(host);
      if (act.argv) gate.command(act.argv);
    },

    async getValue<T>(key: string) {
      return (store.getValue(toolValueKey(key)) ?? null) as T | null;
    },
    // null and undefined delete: a missing key and a stored null read back the same.
    async setValue(key: string, value: unknown) {
      store.setValue(toolValueKey(key), value ?? undefined);
    },

    // Each hop passes the egress policy, then the host check, then the call's net.fetch rules.
    fetch: async (input, init) => {
      const response = await outboundFetch(
        {
          ...deps,
          checkHost(url) {
            deps.checkHost?.(url);
            gate?.host(canonicalHost(url));
          },
        },
        input,
        init,
      );
      // CRED-1: a refused credential is told to the model with the call's error.
      if (deps.execution) noteAuthStatus(store, deps.execution.toolCallId, response.status);
      return response;
    },

    emit(event: string, data: unknown) {
      emit({ type: 'event', event, data });
    },

    async spawnChild(options) {
      if (gate) {
        gate.childAgent(options.agent);
        for (const path of options.files ?? []) gate.read(path);
      }
      return deps.host.spawnChild(options);
    },
    messageChild: (nameOrId, message) => deps.host.messageChild(nameOrId, message),

    async handoff(agentName: string) {
      store.handoff(agentName);
    },

    async notifyParent(message: string) {
      if (!info.parentId) throw new Error('this thread has no parent to notify');
      await deps.host.notifyParent(message);
    },

    // The executor gives each running call its own invokeTool (invoke-tool.ts).
    async invokeTool() {
      notInCall('invokeTool');
    },
    // `this` is the state the tool holds (fenced, with its invokeTool): the program acts through it.
    async runCode(this: ThreadState, source: string, options: RunCodeOptions = {}) {
      const { host } = deps;
      if (!deps.execution || !host.runCode) notInCall('runCode');
      return host.runCode(this, source, options);
    },
    // Messages, lifecycle, queued tools.
    get terminated() {
      return terminatedAt(store);
    },
    ...messageMembers(deps),

    // Resources, variables, the thread hierarchy.
    ...resourceMembers(deps.registry),
    ...hierarchyMembers(store, deps.host, variables),

    // Effects.
    ...effectMembers(deps.host.effects),
  };
}
