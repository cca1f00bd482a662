/**
 * A thread's turn as the runtime drives it (DEF-6). An `ai_human` agent has one model side: its
 * turn is side A's. A `dual_ai` agent's two sides take turns, each in its own view of the log,
 * until a side's stop tool or `maxSessionTurns` ends the session (EXE-7); a turn marker stored after
 * every side turn says who goes next, so a restarted thread resumes with the right side (THR-3).
 */

import type { TurnDeps, TurnOutcome } from '../conversation/index.js';
import {
  nextSide,
  otherSide,
  recordTurnEnd,
  SESSION_TURNS_CEILING,
  SideStore,
  sessionTurns,
  sideOf,
  type TurnEnd,
  unmarkedAnswer,
} from '../conversation/index.js';
import { seedToolContexts, threadStates } from '../execute/index.js';
import { TurnFlow } from './execution-flow.js';
import { runSideTurn } from './loop.js';
import { deliverQueued } from './queue.js';
import { runThreadCreatedHooks } from './thread-created.js';

export async function runTurn(input: TurnDeps): Promise<TurnOutcome> {
  const { agent, store, emit } = input;
  // The execution every call of this run shares (ExecutionState: its id, steps, stop, forceTurn).
  const flow = new TurnFlow(store, agent);
  const deps: TurnDeps = { ...input, flow };
  const mark = (end: TurnEnd) => emit({ type: 'message', message: recordTurnEnd(store, end) });
  // Every call's state sees the whole thread, whichever side's view of the log the loop runs in.
  const states = threadStates(deps);
  // CTX-1: tools seed their context once, before the thread's first model step.
  const tools = deps.registry.contextTools(agent);
  if (tools.size > 0) await seedToolContexts({ store, emit, tools, state: () => states(null) });
  await runThreadCreatedHooks(deps);
  if (agent.type !== 'dual_ai') {
    const outcome = await runSideTurn(deps, states, 'a');
    // A stop tool ends the turn although the log ends in a tool result: the marker says so.
    if (outcome.kind === 'done' && outcome.reason === 'stop_tool') {
      mark({ side: 'a', reason: 'stop_tool', next: null, answer: outcome.answer });
    }
    // Stopped by a call, the turn is over although the log ends in its result: the marker says so.
    if (outcome.kind === 'done' && outcome.reason === 'execution_stopped') {
      mark({ side: 'a', reason: 'execution_stopped', next: null });
    }
    return outcome;
  }
  const maxTurns = Math.min(agent.maxSessionTurns ?? SESSION_TURNS_CEILING, SESSION_TURNS_CEILING);
  const views = { a: new SideStore(store, 'a'), b: new SideStore(store, 'b') };
  let outcome: TurnOutcome = { kind: 'done', reason: 'nothing_to_do' };
  for (;;) {
    const answered = unmarkedAnswer(store.messages());
    // The thread stopped between a side's answer and its marker: the marker is written now.
    const side = answered ? sideOf(answered) : nextSide(store.messages());
    if (side === null) {
      // The session is over: a message queued for after it starts the next one (SUB-4).
      if (deliverQueued(store, emit)) continue;
      return outcome;
    }
    if (!answered) {
      outcome = await runSideTurn({ ...deps, store: views[side] }, states, side);
      const ended = outcome.kind === 'done' && outcome.reason !== 'handoff' && outcome.reason !== 'round_limit';
      if (!ended || deps.signal.aborted) return outcome;
    }
    const turns = sessionTurns(store.messages()) + 1;
    if (outcome.kind === 'done' && outcome.reason === 'stop_tool') {
      mark({ side, reason: 'stop_tool', next: null, answer: outcome.answer });
      return outcome;
    }
    if (outcome.kind === 'done' && outcome.reason === 'execution_stopped') {
      mark({ side, reason: 'execution_stopped', next: null });
      return outcome;
    }
    if (turns >= maxTurns) {
      mark({ side, reason: 'session_turns', next: null });
      return { kind: 'done', reason: 'session_turns' };
    }
    mark({ side, reason: 'response', next: flow.takeForced() ?? otherSide(side) });
  }
}
