/**
 * In-memory stand-ins for a thread's storage, faithful to the Durable Object's (SQLite log, kv, queue,
 * tool journal; R2 files), plus `createHarness`, which assembles everything `runTurn` needs from a
 * few definitions. Used by the engine tests in plain Node and reusable by benchmarks.
 *
 * Faithfulness notes: JSON columns are copied through JSON on the way in, as SQLite stores them, so a
 * test sees what a restarted thread would read; message ids are unique; `seq` only grows; the queue
 * drains in arrival order; listings follow R2's prefix + delimiter semantics.
 */
import { defineAgent, defineModel, definePrompt } from '@standardagents/spec';
import type { TurnDeps, TurnOutcome } from '../../src/engine/conversation/index.js';
import { type EgressPolicy, egressPolicy } from '../../src/engine/egress/egress-policy.js';
import type { FetchTransport } from '../../src/engine/egress/outbound-fetch.js';
import { type ResolvedVariables, threadStates } from '../../src/engine/execute/thread-state.js';
import { type CallExecution, executionState } from '../../src/engine/execute/tool-runner.js';
import { isDirectoryMarker } from '../../src/engine/files/directories.js';
import { ThreadFiles } from '../../src/engine/files/thread-files.js';
import { baseName } from '../../src/engine/files/thread-path.js';
import type { AccessGate } from '../../src/engine/permissions/access-gate.js';
import type { FileListing, FileStore, StoredFileMeta } from '../../src/engine/ports/file-store.js';
import type { Frame } from '../../src/engine/ports/frames.js';
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../src/engine/ports/provider.js';
import type { ThreadHost } from '../../src/engine/ports/thread-host.js';
import type {
  ChildEntry,
  NewMessage,
  QueuedMessage,
  ThreadInfo,
  ThreadStore,
} from '../../src/engine/ports/thread-store.js';
import { type AppDefinitions, Registry } from '../../src/engine/registry/index.js';
import { runTurn } from '../../src/engine/turn/session.js';
import { ScriptedProvider } from '../../src/providers/scripted/scripted.js';
import type {
  AgentDefinition,
  AnyToolDefinition,
  DefinePromptOptions,
  ExecutionState,
  FileStat,
  Interaction,
  InteractionKind,
  Message,
  ModelDefinition,
  PermissionRule,
  Script,
  SideConfigInput,
  SpawnChildOptions,
  ThreadState,
} from '../../src/spec/index.js';
import { agentTool } from '../../src/tools/subagents/agent-tool.js';
import { subagentLifecycleTools } from '../../src/tools/subagents/subagent-lifecycle.js';

function jsonCopy<T>(value: T | null | undefined): T | null {
  return value === null || value === undefined ? null : (JSON.parse(JSON.stringify(value)) as T);
}

export function threadInfo(overrides: Partial<ThreadInfo> = {}): ThreadInfo {
  return {
    id: overrides.id ?? crypto.randomUUID(),
    agentId: overrides.agentId ?? 'test_agent',
    userId: overrides.userId ?? 'user-1',
    createdAt: overrides.createdAt ?? 1_700_000_000_000,
    headless: overrides.headless ?? false,
    parentId: overrides.parentId ?? null,
  };
}

export class MemoryThreadStore implements ThreadStore {
  readonly info: ThreadInfo;
  private log: Message[] = [];
  private readonly ids = new Set<string>();
  private lastSeq = 0;
  /** Values kept as JSON text, like the kv table. */
  private readonly kv = new Map<string, string>();
  private readonly queue: QueuedMessage[] = [];
  private readonly journal = new Set<string>();
  private readonly childIds: string[] = [];

  constructor(
    info: Partial<ThreadInfo> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.info = threadInfo(info);
  }

  messages(): readonly Message[] {
    return this.log;
  }

  append(input: NewMessage): Message {
    const id = input.id ?? crypto.randomUUID();
    if (this.ids.has(id)) throw new Error(`UNIQUE constraint failed: messages.id (${id})`);
    const message: Message = {
      id,
      seq: ++this.lastSeq,
      role: input.role,
      content: input.content,
      name: input.name ?? null,
      tool_calls: jsonCopy(input.tool_calls),
      tool_call_id: input.tool_call_id ?? null,
      created_at: this.clock(),
      parent_id: input.parent_id ?? null,
      depth: input.depth ?? 0,
      silent: input.silent ?? false,
      metadata: jsonCopy(input.metadata),
      tool_status: input.tool_status ?? null,
      attachments: jsonCopy(input.attachments),
      envelope: jsonCopy(input.envelope),
    };
    this.ids.add(id);
    this.log.push(message);
    return message;
  }

  updateMessage(
    id: string,
    patch: { content?: string | null; metadata?: Record<string, unknown> | null },
  ): Message | null {
    const old = this.log.find((message) => message.id === id);
    if (!old) return null;
    const updated: Message = {
      ...old,
      ...(patch.content !== undefined ? { content: patch.content } : {}),
      ...(patch.metadata !== undefined ? { metadata: jsonCopy(patch.metadata) } : {}),
    };
    // A new array, as the SQLite store's: views of the log see the change.
    this.log = this.log.map((message) => (message.id === id ? updated : message));
    return updated;
  }

  deleteMessages(ids: readonly string[]): void {
    const doomed = new Set(ids);
    this.log = this.log.filter((message) => !doomed.has(message.id));
  }

  getValue(key: string): unknown {
    const raw = this.kv.get(key);
    return raw === undefined ? undefined : JSON.parse(raw);
  }

  /** Nothing kept in memory here: derived at each call. */
  derivedValue<T>(key: string, derive: (value: unknown) => T): T {
    return derive(this.getValue(key));
  }

  setValue(key: string, value: unknown): void {
    if (value === undefined) this.kv.delete(key);
    else this.kv.set(key, JSON.stringify(value));
  }

  enqueue(message: QueuedMessage): void {
    this.queue.push(jsonCopy(message) as QueuedMessage);
  }

  drainQueue(): QueuedMessage[] {
    return this.queue.splice(0);
  }

  hasQueued(): boolean {
    return this.queue.length > 0;
  }

  markToolStarted(toolCallId: string): void {
    this.journal.add(toolCallId);
  }

  clearToolStarted(toolCallId: string): void {
    this.journal.delete(toolCallId);
  }

  toolStarted(toolCallId: string): boolean {
    return this.journal.has(toolCallId);
  }

  children(): string[] {
    return [...this.childIds];
  }

  private readonly interactionsByKey = new Map<string, Interaction>();

  interactions(toolCallId: string): Interaction[] {
    return [...this.interactionsByKey.values()]
      .filter((i) => i.toolCallId === toolCallId)
      .map((i) => jsonCopy(i) as Interaction);
  }

  openInteraction(input: Omit<Interaction, 'answered' | 'answer' | 'createdAt'>): Interaction {
    const key = `${input.toolCallId}/${input.kind}`;
    const earlier = this.interactionsByKey.get(key);
    const interaction: Interaction = {
      ...(jsonCopy(input) as typeof input),
      createdAt: earlier?.createdAt ?? this.clock(),
      answered: earlier?.answered ?? false,
      answer: earlier?.answer ?? null,
    };
    this.interactionsByKey.set(key, interaction);
    return jsonCopy(interaction) as Interaction;
  }

  answerInteraction(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    const key = `${toolCallId}/${kind}`;
    const open = this.interactionsByKey.get(key);
    if (!open || open.answered) return false;
    this.interactionsByKey.set(key, { ...open, answered: true, answer: jsonCopy(answer ?? null) });
    return true;
  }

  recordAnswer(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    const key = `${toolCallId}/${kind}`;
    const earlier = this.interactionsByKey.get(key);
    if (earlier?.answered) return false;
    this.interactionsByKey.set(key, {
      toolCallId,
      kind,
      toolName: earlier?.toolName ?? '',
      payload: earlier?.payload ?? null,
      createdAt: earlier?.createdAt ?? this.clock(),
      answered: true,
      answer: jsonCopy(answer ?? null),
    });
    return true;
  }

  openInteractions(): Interaction[] {
    return [...this.interactionsByKey.values()].filter((i) => !i.answered).map((i) => jsonCopy(i) as Interaction);
  }

  handoff(agentId: string): void {
    (this.info as { agentId: string }).agentId = agentId;
  }

  addChild(id: string, facts: Omit<ChildEntry, 'id' | 'createdAt' | 'status'> = { name: '', description: '' }): void {
    if (!this.childIds.includes(id)) this.childIds.push(id);
    this.childRegistry.set(id, { id, ...facts, createdAt: Date.now(), status: 'running' });
  }

  private readonly childRegistry = new Map<string, ChildEntry>();

  childEntries(): ChildEntry[] {
    return this.childIds.flatMap((id) => {
      const entry = this.childRegistry.get(id);
      return entry ? [{ ...entry }] : [];
    });
  }

  setChildStatus(childId: string, status: string, fromTurn = false): boolean {
    const entry = this.childRegistry.get(childId);
    if (!entry || entry.status === 'terminated' || status.trim() === '') return false;
    const custom = !['running', 'idle', 'waiting', 'awaiting_hitl', 'error'].includes(entry.status);
    if (fromTurn && custom && status !== 'running' && status !== 'terminated') return false;
    entry.status = status.trim();
    return true;
  }
}

interface StoredFile {
  bytes: Uint8Array;
  meta: StoredFileMeta;
  uploadedAt: number;
}

async function readAll(data: Uint8Array | ReadableStream): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data.slice();
  return new Uint8Array(await new Response(data).arrayBuffer());
}

/** The thread filesystem in memory, keyed by normalised path, listed like R2 (prefix + `/` delimiter). */
export class MemoryFileStore implements FileStore {
  private readonly objects = new Map<string, StoredFile>();

  constructor(private readonly clock: () => number = Date.now) {}

  private stat(path: string, file: StoredFile): FileStat {
    return {
      path,
      name: baseName(path),
      size: file.bytes.byteLength,
      mimeType: file.meta.mimeType,
      uploadedAt: file.uploadedAt,
      ...(file.meta.width !== undefined ? { width: file.meta.width } : {}),
      ...(file.meta.height !== undefined ? { height: file.meta.height } : {}),
      ...(file.meta.metadata !== undefined ? { metadata: jsonCopy(file.meta.metadata) ?? {} } : {}),
    };
  }

  async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta): Promise<FileStat> {
    const file: StoredFile = { bytes: await readAll(data), meta: { ...meta }, uploadedAt: this.clock() };
    this.objects.set(path, file);
    return this.stat(path, file);
  }

  async get(path: string): Promise<{ stat: FileStat; body: ReadableStream } | null> {
    const file = this.objects.get(path);
    if (!file) return null;
    const bytes = file.bytes.slice();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    return { stat: this.stat(path, file), body };
  }

  async head(path: string): Promise<FileStat | null> {
    const file = this.objects.get(path);
    return file ? this.stat(path, file) : null;
  }

  async list(prefix: string, options: { recursive: boolean }): Promise<FileListing> {
    const files: FileStat[] = [];
    const directories = new Set<string>();
    for (const path of [...this.objects.keys()].sort()) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      // A directory's marker, as R2FileStore lists it: the directory it keeps (recursive), or nothing.
      if (isDirectoryMarker(path) && (options.recursive || rest === '')) {
        if (options.recursive) directories.add(path.slice(0, -1));
        continue;
      }
      const slash = rest.indexOf('/');
      if (!options.recursive && slash !== -1) {
        // R2's delimitedPrefixes, without the trailing slash (as R2FileStore reports them).
        directories.add(prefix + rest.slice(0, slash));
        continue;
      }
      files.push(this.stat(path, this.objects.get(path) as StoredFile));
    }
    return { files, directories: [...directories] };
  }

  async delete(path: string): Promise<boolean> {
    return this.objects.delete(path);
  }

  /** Every stored path, sorted: for assertions that nothing else was written. */
  paths(): string[] {
    return [...this.objects.keys()].sort();
  }
}

/** Wraps a provider and keeps every request it received, in order. */
export class RecordingProvider implements Provider {
  constructor(
    private readonly inner: Provider,
    readonly requests: ModelRequest[] = [],
  ) {}

  complete(request: ModelRequest, handlers?: StreamHandlers): Promise<ModelResponse> {
    this.requests.push({ ...request, messages: jsonCopy(request.messages) ?? [] });
    return this.inner.complete(request, handlers);
  }
}

/** A promise with its resolve exposed, for tools that wait on the test. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending microtask and I/O callback run: for asserting that something has NOT happened. */
export async function settle(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Project rules for tests that are not about permissions: every call is allowed. */
export const ALLOW_EVERYTHING: PermissionRule[] = [{ permission: '*', pattern: '*', action: 'allow' }];

export interface HarnessOptions {
  /** Function tools by name; the default prompt offers all of them. */
  tools?: Record<string, AnyToolDefinition>;
  /** The model's replies (default: one final text). */
  script?: Script;
  /** Overrides for the single prompt `main` (model `scripted`). */
  prompt?: Partial<DefinePromptOptions>;
  /** Overrides for side A of the agent `test_agent`. */
  side?: Partial<SideConfigInput>;
  /**
   * Project permission rules of the generated definitions (default: allow everything, so tests not
   * about permissions need none).
   */
  permissions?: PermissionRule[];
  /** Replaces the generated definitions entirely; `agent` then names the agent to run. */
  definitions?: AppDefinitions;
  agent?: string;
  builtinTools?: Record<string, AnyToolDefinition>;
  /** Variable values; `declared` defaults to the agent's declared names plus the keys of `values`. */
  variables?: { values?: Record<string, string>; declared?: string[] };
  info?: Partial<ThreadInfo>;
  /** Reuse storage from another harness: a thread restarted after eviction (THR-3). */
  store?: MemoryThreadStore;
  fileStore?: MemoryFileStore;
  scrub?(text: string): string;
  /** Streaming text cut before a secret's start (the scrubber's withoutSecretStart). */
  withoutSecretStart?(text: string): string;
  /** Clock for message timestamps and tool durations (default Date.now). */
  now?(): number;
  guards?: TurnDeps['guards'];
  /** Replaces the scripted provider. */
  provider?(model: ModelDefinition): Provider;
  /** What `state.fetch` may reach (default: the default policy, no development host). */
  egress?: EgressPolicy;
  /** The network under `state.fetch` (default: the global fetch). */
  transport?: FetchTransport;
}

export interface Harness {
  store: MemoryThreadStore;
  fileStore: MemoryFileStore;
  files: ThreadFiles;
  registry: Registry;
  agent: AgentDefinition;
  variables: ResolvedVariables;
  /** Every frame emitted, in order. */
  frames: Frame[];
  /** Aborting it stops the running turn, as `POST .../stop` does. */
  controller: AbortController;
  /** Every model request, in order. */
  requests: ModelRequest[];
  /** How many times a tool asked the thread to wake (queueMessage). */
  wakes: number;
  /** Messages tools sent to the parent thread (state.notifyParent). */
  notified: string[];
  /** Child threads tools started, in order (state.spawnChild). */
  spawned: (SpawnChildOptions & { id: string })[];
  /** Messages tools sent to child instances (state.messageChild), in order. */
  messagedChildren: { to: string; message: string }[];
  deps: TurnDeps;
  /** Appends a user message (as the HTTP API does) and returns it. */
  user(content: string, extra?: Partial<NewMessage>): Message;
  /** Runs one turn. */
  run(): Promise<TurnOutcome>;
  /** The user message followed by a turn. */
  send(content: string): Promise<TurnOutcome>;
  /** A ThreadState over this thread, as a tool would get it (`execution` null unless given). */
  /** A state at rest, or in a call: a call's own fields are enough, the rest is an execution of its own. */
  state(execution?: ExecutionState | CallExecution | null, gate?: AccessGate): ThreadState;
  /** Messages of a role, oldest first. */
  byRole(role: Message['role']): Message[];
  /** Frame types in order, without text deltas. */
  frameTypes(): string[];
}

export function createHarness(options: HarnessOptions = {}): Harness {
  const tools = options.tools ?? {};
  const script: Script = options.script ?? [{ text: 'done' }];
  const definitions: AppDefinitions = options.definitions ?? {
    tools,
    models: [defineModel({ name: 'scripted', provider: 'scripted', script })],
    prompts: [
      definePrompt({
        name: 'main',
        prompt: 'You are a test agent.',
        model: 'scripted',
        tools: Object.keys(tools),
        ...options.prompt,
      }),
    ],
    agents: [defineAgent({ name: 'test_agent', type: 'ai_human', sideA: { prompt: 'main', ...options.side } })],
    permissions: options.permissions ?? ALLOW_EVERYTHING,
  };
  const registry = new Registry(definitions, options.builtinTools ?? {}, agentTool, subagentLifecycleTools);
  const agentName = options.agent ?? 'test_agent';
  const agent = registry.agent(agentName);
  if (!agent) throw new Error(`harness: no agent "${agentName}"`);

  const now = options.now ?? Date.now;
  const store = options.store ?? new MemoryThreadStore({ agentId: agent.name, ...options.info }, now);
  const fileStore = options.fileStore ?? new MemoryFileStore(now);
  const files = new ThreadFiles(fileStore);
  const values = options.variables?.values ?? {};
  const variables: ResolvedVariables = {
    declared: new Set(
      options.variables?.declared ?? [...registry.variablesFor(agent).map((v) => v.name), ...Object.keys(values)],
    ),
    values,
  };
  const frames: Frame[] = [];
  const controller = new AbortController();
  const requests: ModelRequest[] = [];
  const emit = (frame: Frame) => {
    frames.push(frame);
  };

  const harness: Harness = {
    store,
    fileStore,
    files,
    registry,
    agent,
    variables,
    frames,
    controller,
    requests,
    wakes: 0,
    spawned: [],
    messagedChildren: [],
    notified: [],
    deps: undefined as unknown as TurnDeps,
    user(content, extra = {}) {
      const message = store.append({ role: 'user', content, ...extra });
      emit({ type: 'message', message });
      return message;
    },
    run: () => runTurn(harness.deps),
    send(content) {
      harness.user(content);
      return harness.run();
    },
    state(execution = null, gate) {
      // The state the loop gives a call: built by the engine from the turn's deps.
      const full = execution && !('flowId' in execution) ? executionState(execution) : execution;
      return threadStates(harness.deps)(full, gate);
    },
    byRole: (role) => store.messages().filter((message) => message.role === role),
    frameTypes: () =>
      frames
        .filter((frame) => frame.type !== 'message_delta' && frame.type !== 'tool_call_delta')
        .map((frame) => frame.type),
  };

  // What the thread would lend the turn: children and the parent are recorded, not started.
  const host: ThreadHost = {
    wake: () => {
      harness.wakes++;
    },
    notifyParent: async (message) => {
      harness.notified.push(message);
    },
    spawnChild: async (options) => {
      const id = crypto.randomUUID();
      harness.spawned.push({ id, ...options });
      store.addChild(id, { name: options.agent, description: '', blocking: options.reportTo !== undefined });
      return { id };
    },
    messageChild: async (nameOrId, message) => {
      const child = harness.spawned.find((spawned) => spawned.id === nameOrId || spawned.instance?.name === nameOrId);
      if (!child) throw new Error(`no subagent instance "${nameOrId}"`);
      harness.messagedChildren.push({ to: child.id, message });
      return { id: child.id };
    },
  };

  harness.deps = {
    variables,
    store,
    files,
    registry,
    agent,
    provider(model) {
      const inner = options.provider?.(model) ?? new ScriptedProvider(model.script ?? script, model.name);
      return new RecordingProvider(inner, requests);
    },
    emit,
    signal: controller.signal,
    host,
    egress: options.egress ?? egressPolicy(),
    transport: options.transport,
    guards: options.guards,
    scrub: options.scrub,
    withoutSecretStart: options.withoutSecretStart,
    now,
  };
  return harness;
}
