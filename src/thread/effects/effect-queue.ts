/**
 * The thread's effect queue (the engine's EffectQueue port): runs stored as rows of its SQLite, their
 * arguments scrubbed of its secrets like everything the thread keeps (EXE-8), and its alarm armed for
 * the soonest, shared with the turn, child waits and sidecar sweeps (the earliest of them wins).
 */
import type { EffectQueue, QueuedEffect } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { EffectDefinition } from '../../spec/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { EffectRow, EffectRows } from '../storage/index.js';

export function queued(row: EffectRow): QueuedEffect {
  return { id: row.id, name: row.name, args: row.args, dueAt: row.dueAt, createdAt: row.createdAt };
}

/** Sets the alarm for `due` unless one is set already for earlier. */
export async function armAlarmFor(ctx: DurableObjectState, due: number): Promise<void> {
  const alarm = await ctx.storage.getAlarm();
  if (alarm === null || alarm > due) await ctx.storage.setAlarm(due);
}

export class DurableEffectQueue implements EffectQueue {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly registry: Registry,
    private readonly variables: ThreadVariables,
    private readonly rows: () => EffectRows,
    /** Whether the thread was terminated (state.terminate): it schedules nothing more. */
    private readonly terminated: () => boolean = () => false,
  ) {}

  definition(name: string): EffectDefinition | undefined {
    return this.registry.effects.get(name);
  }

  async schedule(name: string, args: Record<string, unknown>, dueAt: number): Promise<string> {
    if (this.terminated()) throw new Error('scheduleEffect: the thread is terminated and runs no more effects');
    const id = crypto.randomUUID();
    const clean = this.variables.scrubber.value(args) as Record<string, unknown>;
    this.rows().insert({ id, name, args: clean, dueAt, createdAt: Date.now() });
    await armAlarmFor(this.ctx, dueAt);
    return id;
  }

  pending(name?: string): QueuedEffect[] {
    return this.rows().withStatus('pending', name).map(queued);
  }

  waiting(): number {
    return this.rows().count('pending');
  }

  cancel(id: string): boolean {
    return this.rows().cancel(id, Date.now());
  }
}
