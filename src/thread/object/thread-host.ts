/**
 * What a turn borrows from its thread (the engine's ThreadHost port), built once per object: child
 * threads and the parent through the thread's bindings (SUB-3, SUB-4, SUB-7), programs in isolates
 * (CODE-1), the tools of connected MCP servers (LOCK-4), the alarm that runs the loop, and the
 * spend quotas its model calls count against (IDN-6), and its scheduled effects.
 */
import type { ConnectedTool, EffectQueue, SpendPort, ThreadHost } from '../../engine/ports/index.js';
import type {
  McpServerConfig,
  RunCodeOptions,
  RunCodeResult,
  SpawnChildOptions,
  ThreadState,
} from '../../spec/index.js';
import { DEFAULT_TENANT } from '../access/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import {
  type FamilyStateHost,
  familyState,
  messageInstance,
  notifyParentThread,
  propagateEnv,
  SCOPED_NAMES_KEY,
  sendOwnStatus,
  spawnForTool,
} from '../children/index.js';
import type { AnswerDesk } from '../inbox/index.js';
import type { ThreadMcp } from '../mcp/index.js';
import type { ThreadPrograms } from '../sandbox/index.js';
import { storeThreadVariable } from '../secrets/index.js';
import type { ThreadRecord } from '../storage/index.js';
import { threadSpend } from '../tenancy/index.js';

export class DurableThreadHost implements ThreadHost {
  /** IDN-6: the thread's model calls count against its tenant's and its owner's daily quotas. */
  readonly spend: SpendPort | undefined;

  constructor(
    private readonly env: RuntimeEnv,
    private readonly programs: ThreadPrograms,
    private readonly mcp: ThreadMcp,
    /** The object's desk, asked for at each use: it holds the store, which exists once the thread does. */
    private readonly desk: () => AnswerDesk,
    /** The thread's scheduled effects (the Effects chapter). */
    readonly effects?: EffectQueue,
  ) {
    this.spend = threadSpend(env, () => {
      const record = this.record(this.desk());
      return { tenant: record.tenant ?? DEFAULT_TENANT, subject: record.userId ?? '' };
    });
  }

  /** The thread's record: a turn runs only in a thread that exists. */
  private record(desk: AnswerDesk): ThreadRecord {
    return desk.store.info as ThreadRecord;
  }

  wake(): void {
    void this.desk().driver.wake();
  }

  turnRunning(): boolean {
    return this.desk().driver.busy;
  }

  async terminate(options: { fromTurn: boolean }): Promise<void> {
    const desk = this.desk();
    if (!desk.terminate) throw new Error('terminate: this thread cannot be terminated from here');
    await desk.terminate(options.fromTurn);
  }

  /** Sets this thread's status in its parent's registry of children (state.setStatus). */
  async setStatus(status: string): Promise<void> {
    const desk = this.desk();
    const record = this.record(desk);
    if (!record.parentId) return;
    const delivered = await sendOwnStatus(desk.ctx, this.env, { ...record, parentId: record.parentId }, status);
    if (delivered === 'parent_gone') throw new Error('setStatus: the parent thread no longer exists');
  }

  /** `state.setEnv`: stored here (thread-env.ts), then passed to the children (family-state.ts). */
  async setEnv(name: string, value: string, type: 'text' | 'secret' | undefined): Promise<void> {
    const desk = this.desk();
    const record = this.record(desk);
    const stored = await storeThreadVariable({ ...desk, info: () => record }, name, value, type);
    await propagateEnv(this.family(desk), desk.store.childEntries(), name, value, stored);
  }

  /** `state.getChildThread` / `getParentThread`: a state over the other thread's object. */
  familyState(relation: 'child' | 'parent', id: string | null): Promise<ThreadState | null> {
    return familyState(this.family(this.desk()), relation, id);
  }

  private family(desk: AnswerDesk): FamilyStateHost {
    return {
      env: this.env,
      registry: desk.registry,
      record: this.record(desk),
      scopedNames: () => (desk.store.getValue(SCOPED_NAMES_KEY) as string[] | undefined) ?? [],
      logError: desk.variables.logError,
    };
  }

  spawnChild(options: SpawnChildOptions): Promise<{ id: string }> {
    const desk = this.desk();
    return spawnForTool(desk, this.record(desk), options);
  }

  messageChild(nameOrId: string, message: string): Promise<{ id: string }> {
    const desk = this.desk();
    return messageInstance(desk, this.record(desk), nameOrId, message);
  }

  notifyParent(message: string): Promise<void> {
    return notifyParentThread(this.env, this.record(this.desk()), message);
  }

  runCode(state: ThreadState, source: string, options: RunCodeOptions): Promise<RunCodeResult> {
    return this.programs.run(state, source, options);
  }

  connectedTools(
    servers: Readonly<Record<string, McpServerConfig>>,
    signal: AbortSignal,
  ): Promise<readonly ConnectedTool[]> {
    return this.mcp.connectedTools(servers, signal);
  }
}
