/**
 * The thread index's D1 as a test can switch it (test/workers/index-outbox.test.ts): the test
 * Worker's Thread class sees `env.DB` through `withSwitchableIndex`, which lets every call through
 * except the index writes (a batch writing the `threads` row) of threads of the `index_probe` agent.
 * Those are answered as the test sets: accepted, refused for now (a lost connection), refused for
 * good (a constraint D1 reports), or held until the test releases them. Nothing waits on a clock.
 * The Worker's own reads (the listing) use the real binding.
 */
import { defineAgent } from '../../src/index.js';

export const PROBE_AGENT = 'index_probe';

export type IndexMode = 'accept' | 'refuse' | 'refuse_for_good' | 'hold';

/** What D1 answers for a refusal, as it words them. */
export const TRANSIENT_REFUSAL = 'D1_ERROR: Network connection lost.';
export const LASTING_REFUSAL = 'D1_ERROR: UNIQUE constraint failed: threads.tenant: SQLITE_CONSTRAINT';

let mode: IndexMode = 'accept';
let held: Array<() => void> = [];
/** Index writes of probe threads that reached D1's door, whatever the answer. */
let attempts = 0;
/** The status each accepted write of a probe thread carried, in order. */
let accepted: string[] = [];

export const indexSwitch = {
  set(next: IndexMode): void {
    mode = next;
  },
  /**
   * Lets every held write go on to D1. Call it inside the thread's object (runInDurableObject): a
   * write is held by a promise of that object, which only it may settle.
   */
  release(): void {
    for (const go of held) go();
    held = [];
  },
  attempts: () => attempts,
  accepted: () => [...accepted],
  held: () => held.length,
  /** Writes still held are dropped: their object is gone, or the test is over. */
  reset(): void {
    mode = 'accept';
    held = [];
    attempts = 0;
    accepted = [];
  },
};

interface StatementFields {
  statement?: string;
  params?: unknown[];
}

/** Whether a batch writes the `threads` row of a probe thread (an insert or a status update). */
function probeIndexWrite(statements: D1PreparedStatement[]): boolean {
  const first = statements[0] as unknown as StatementFields | undefined;
  if (!first?.statement || !/^\s*(INSERT INTO|UPDATE) threads\b/.test(first.statement)) return false;
  return first.params?.[1] === PROBE_AGENT;
}

/** The status a `threads` write sets: the insert's seventh value, the update's first. */
function statusOf(statements: D1PreparedStatement[]): string {
  const first = statements[0] as unknown as StatementFields;
  const insert = first.statement?.trimStart().startsWith('INSERT');
  return String(first.params?.[insert ? 6 : 0]);
}

class SwitchableD1 {
  constructor(private readonly db: D1Database) {}

  prepare(query: string): D1PreparedStatement {
    return this.db.prepare(query);
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.db.exec(query);
  }

  dump(): Promise<ArrayBuffer> {
    return this.db.dump();
  }

  withSession(constraint?: string): D1DatabaseSession {
    return this.db.withSession(constraint);
  }

  async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    if (!probeIndexWrite(statements)) return this.db.batch<T>(statements);
    attempts++;
    if (mode === 'refuse') throw new Error(TRANSIENT_REFUSAL);
    if (mode === 'refuse_for_good') throw new Error(LASTING_REFUSAL);
    if (mode === 'hold') await new Promise<void>((resolve) => held.push(resolve));
    const results = await this.db.batch<T>(statements);
    accepted.push(statusOf(statements));
    return results;
  }
}

/** The env a thread of the test Worker receives, its index writes switchable. */
export function withSwitchableIndex<Env extends { DB: D1Database }>(env: Env): Env {
  return { ...env, DB: new SwitchableD1(env.DB) as unknown as D1Database };
}

export const agents = [defineAgent({ name: PROBE_AGENT, sideA: { prompt: 'general' } })];
