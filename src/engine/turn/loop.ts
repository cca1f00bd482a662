/**
 * The agent loop (docs/architecture.md, "How a turn flows"). One call runs a side's turn from
 * whatever the log says is next: pending tool calls are executed (side-calls.ts), queued messages
 * delivered, the model called one step at a time (side-step.ts, step/), until the side's stop
 * condition, a stop request or a step limit. Everything it decides comes from the persisted log,
 * so a restarted thread picks up exactly where it stopped (THR-3).
 */
import { pendingToolCalls, type Side, type TurnDeps, type TurnOutcome } from '../conversation/index.js';
import type { StateFactory } from '../guards/index.js';
import { abandonStreamedText } from '../step/index.js';
import { runPendingCalls } from './side-calls.js';
import { setUpSide } from './side-setup.js';
import { takeStep } from './side-step.js';

/**
 * One side's turn (DEF-6): `deps.store` is the log as that side sees it (see sides.ts); `states`
 * builds its calls' states over the whole thread. Runs until the side's stop condition, a pause, a
 * stop request or its step limit.
 */
export async function runSideTurn(deps: TurnDeps, states: StateFactory, sideName: Side = 'a'): Promise<TurnOutcome> {
  const turn = await setUpSide(deps, states, sideName);
  // THR-3: text a step streamed before a restart never became a message; clients drop it.
  abandonStreamedText(deps.store, deps.emit);
  // DEF-6: with stopOnResponse false, a side's text answer does not end its turn; the model goes on.
  let again = false;
  for (;;) {
    if (deps.signal.aborted) return { kind: 'stopped' };
    const log = deps.store.messages();
    const pending = pendingToolCalls(log);
    if (pending.length > 0) {
      const ended = await runPendingCalls(turn, log, pending);
      if (ended) return ended;
      // A call stopped the execution (ExecutionState.stop): it ends as an answer would.
      if (deps.flow?.stopped) return { kind: 'done', reason: 'execution_stopped' };
      continue;
    }
    const stepped = await takeStep(turn, again);
    if ('kind' in stepped) return stepped;
    again = stepped.again;
  }
}
