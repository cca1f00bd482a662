/**
 * Runs a suite's cases against a target, `concurrency` at a time: each case is checked
 * (validate-case.ts), recorded on a fresh thread under its time limit, then its assertions are
 * checked against the log. A malformed case, a case that throws and a case that times out each fail
 * alone, with the reason; the others run. Results come back in the suite's order.
 */
import { failureOf } from './assertions.js';
import type { EvalCase, EvalLog } from './suite.js';
import { caseLabel, checkCase } from './validate-case.js';

/** A case's thread, its log once the last turn ended, and how long each turn took. */
export interface CaseRecording {
  log: EvalLog;
  turnMs: number[];
}

/** Where cases run: a Worker reached over its API (api-target.ts), or a test's stand-in. */
export interface EvalTarget {
  /**
   * Starts a thread of the case's agent, sends its messages one turn after another and reads the
   * log. When `signal` aborts it stops the thread and rejects.
   */
  record(evalCase: EvalCase, signal: AbortSignal, onThread: (id: string) => void): Promise<CaseRecording>;
}

export interface CaseResult {
  name: string;
  agent: string | null;
  passed: boolean;
  failures: string[];
  /** Each turn's time, from posting the message to the end of the turn. */
  turnMs: number[];
  tokens: number;
  costUsd: number;
  threadId: string | null;
}

export interface RunOptions {
  concurrency: number;
  /** The time limit of a case that sets none, in seconds. */
  timeoutSeconds: number;
  /** Called as each case ends (for progress lines). */
  onResult?: (result: CaseResult) => void;
}

/** How long a timed-out case's target gets to stop its thread before the case is reported anyway. */
const STOP_GRACE_MS = 15_000;

class TimedOut extends Error {}

function failed(name: string, agent: string | null, failures: string[], threadId: string | null): CaseResult {
  return { name, agent, passed: false, failures, turnMs: [], tokens: 0, costUsd: 0, threadId };
}

async function recordWithin(target: EvalTarget, evalCase: EvalCase, seconds: number, onThread: (id: string) => void) {
  const controller = new AbortController();
  const recording = target.record(evalCase, controller.signal, onThread);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`timed out after ${seconds}s`)), seconds * 1000);
  });
  try {
    return await Promise.race([recording, deadline]);
  } catch (error) {
    if (error instanceof TimedOut) {
      controller.abort(error);
      // The target stops the thread; wait for that, within reason, so no turn is left running.
      const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref?.());
      await Promise.race([recording.catch(() => undefined), grace]);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function runCase(value: unknown, index: number, names: Set<string>, target: EvalTarget, options: RunOptions) {
  const name = caseLabel(value, index);
  const check = checkCase(value, names);
  if (!check.ok) {
    const agent = typeof (value as { agent?: unknown })?.agent === 'string' ? (value as { agent: string }).agent : null;
    return failed(
      name,
      agent,
      check.problems.map((problem) => `malformed case: ${problem}`),
      null,
    );
  }
  const { evalCase } = check;
  let threadId: string | null = null;
  const seconds = evalCase.timeout ?? options.timeoutSeconds;
  try {
    const { log, turnMs } = await recordWithin(target, evalCase, seconds, (id) => {
      threadId = id;
    });
    const failures: string[] = [];
    for (const assertion of evalCase.assertions) {
      const failure = await failureOf(assertion, log);
      if (failure !== null) failures.push(failure);
    }
    const { total_tokens: tokens, cost_usd: costUsd } = log.usage;
    return { name, agent: evalCase.agent, passed: failures.length === 0, failures, turnMs, tokens, costUsd, threadId };
  } catch (error) {
    return failed(name, evalCase.agent, [(error as Error)?.message ?? String(error)], threadId);
  }
}

export async function runSuite(cases: readonly unknown[], target: EvalTarget, options: RunOptions) {
  const results: CaseResult[] = new Array(cases.length);
  const names = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const result = await runCase(cases[index], index, names, target, options);
      results[index] = result;
      options.onResult?.(result);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, cases.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
