/**
 * The calls a side's turn finds pending in the log (THR-3): run through the executor in order, or,
 * when the round limit held them (KIND-7), never run. Held calls wait for the next user message
 * (posted, or queued and delivered), which answers each with an error tool message before the
 * model is called, so the log stays well-formed for the Chat Completions protocol.
 */
import type { Message, SideConfig, ToolCall } from '../../spec/index.js';
import {
  cancelPendingCalls,
  heldByRoundLimit,
  repeatedFailure,
  stepsThisTurn,
  type TurnOutcome,
  userAfter,
} from '../conversation/index.js';
import { executeToolCalls, parsedArguments } from '../execute/index.js';
import { rememberAllowed } from '../guards/index.js';
import { ROUND_LIMIT_MESSAGE } from '../step/index.js';
import { deliverQueued } from './queue.js';
import type { SideTurn } from './side-setup.js';

/**
 * Runs the pending calls, or answers held ones; the outcome that ends the turn (a wait, a handoff,
 * the stop tool, a doom loop, calls still held), or null to go on.
 */
export async function runPendingCalls(
  turn: SideTurn,
  log: readonly Message[],
  pending: ToolCall[],
): Promise<TurnOutcome | null> {
  const { deps, side } = turn;
  const { store, registry, agent, emit } = deps;
  const held = heldByRoundLimit(log);
  if (held) return answerHeldCalls(turn, held, pending);
  deps.onProgress?.();
  const executed = await executeToolCalls(pending, {
    tools: turn.tools.map,
    store,
    files: deps.files,
    emit,
    guards: turn.guards,
    createState: turn.createState,
    signal: deps.signal,
    ...(deps.toolSignal ? { toolSignal: deps.toolSignal } : {}),
    stepCount: stepsThisTurn(log),
    side: turn.sideName,
    scrub: deps.scrub ?? ((text: string) => text),
    now: deps.now ?? Date.now,
    heartbeatMs: registry.toolHeartbeatMs,
    onAlwaysAllowed: (call) => rememberAllowed(turn.guardSetup, call),
    hooks: turn.hooks,
    ...(deps.flow ? { flow: { flow: deps.flow, promptPath: [turn.prompt.name], history: () => log } } : {}),
  });
  if (executed.waiting) return { kind: 'waiting' };
  if (store.info.agentId !== agent.name) {
    // SUB-2: a handoff to an agent that exists ends this turn; the new owner takes the next one.
    if (registry.agent(store.info.agentId)) return { kind: 'done', reason: 'handoff' };
    store.handoff(agent.name);
  }
  const stopCall = side.stopTool ? pending.find((call) => call.function.name === side.stopTool) : undefined;
  if (stopCall) return { kind: 'done', reason: 'stop_tool', answer: stopAnswer(stopCall, store.messages(), side) };
  const doomLoop = repeatedFailure(store.messages());
  return doomLoop ? { kind: 'limit', message: doomLoop } : null;
}

/** KIND-7: held calls never run; a new user message answers them (the answers first), then the model is called. */
function answerHeldCalls(turn: SideTurn, held: Message, pending: ToolCall[]): TurnOutcome | null {
  const { store, emit } = turn.deps;
  const queue = store.drainQueue();
  if (queue.length === 0 && !userAfter(store.messages(), held)) {
    return { kind: 'done', reason: 'round_limit', pendingToolCalls: pending };
  }
  cancelPendingCalls(store, emit, ROUND_LIMIT_MESSAGE);
  deliverQueued(store, emit, queue);
  return null;
}

/**
 * What a stop tool's call answers (DEF-6): its `stopToolResponseProperty`, read from the call's
 * arguments or else from its JSON result; without the property, the result itself.
 */
function stopAnswer(call: ToolCall, log: readonly Message[], side: SideConfig): string {
  const result = log.find((message) => message.role === 'tool' && message.tool_call_id === call.id)?.content ?? '';
  const property = side.stopToolResponseProperty;
  if (!property) return result;
  for (const source of [call.function.arguments, result]) {
    const parsed = parsedArguments(source);
    if (typeof parsed === 'object' && parsed !== null && property in parsed) {
      const value = (parsed as Record<string, unknown>)[property];
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return result;
}
