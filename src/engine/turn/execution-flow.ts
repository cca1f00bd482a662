/**
 * One execution of the loop (the specification's ExecutionState): what every call of a run of
 * `runTurn` shares. Its id, its model steps (read from the log: those since the newest message from
 * outside, per side, so a turn resumed after a restart counts the steps before it too), and
 * the two controls a tool has over it: `stop()`, which ends it once the running calls are done as
 * an answer would, and `forceTurn(side)`, which gives a dual_ai session's next side turn to `side`.
 */
import type { Message } from '../../spec/index.js';
import { lastUserIndex, type Side, sideOf } from '../conversation/index.js';
import type { ExecutionFlow } from '../execute/index.js';
import type { ThreadStore } from '../ports/index.js';
import { QUEUED_TOOL_KEY } from '../state/index.js';

export class TurnFlow implements ExecutionFlow {
  readonly flowId = crypto.randomUUID();
  stopped = false;
  stoppedBy: Side | undefined;
  private forced: Side | null = null;

  constructor(
    private readonly store: ThreadStore,
    private readonly agent: { name: string; type: string },
  ) {}

  steps(): { total: number; a: number; b: number } {
    const counts = { total: 0, a: 0, b: 0 };
    const log = this.store.messages();
    for (const message of log.slice(lastUserIndex(log) + 1)) {
      if (!isModelStep(message)) continue;
      counts.total++;
      counts[sideOf(message)]++;
    }
    return counts;
  }

  forceTurn(side: Side): void {
    if (this.agent.type !== 'dual_ai') {
      throw new Error(
        `forceTurn: agent "${this.agent.name}" has one model side; only a dual_ai agent's turn can go to a side`,
      );
    }
    if (side !== 'a' && side !== 'b') throw new TypeError("forceTurn: side must be 'a' or 'b'");
    this.forced = side;
  }

  /** The side a tool forced the next turn to, once: the marker after the side's turn names it. */
  takeForced(): Side | null {
    const side = this.forced;
    this.forced = null;
    return side;
  }

  stop(side: Side): void {
    this.stopped = true;
    this.stoppedBy ??= side;
  }
}

/** A model's step: an assistant message other than a queued call's (state.queueTool). */
function isModelStep(message: Message): boolean {
  return message.role === 'assistant' && message.metadata?.[QUEUED_TOOL_KEY] === undefined;
}
