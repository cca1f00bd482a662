/**
 * A side's turn when no call is pending (THR-3, DEF-6): queued messages delivered, the turn ended
 * when the side has answered or reached its step limit, immediate subagents started (SUB-3), else
 * one model step (step/), whose stored calls the loop runs next.
 */
import type { Message } from '../../spec/index.js';
import {
  lastUserIndex,
  lastVisible,
  pendingToolCalls,
  stepsThisTurn,
  type TurnOutcome,
} from '../conversation/index.js';
import { buildModelMessages, inMainConversation, sentFrom } from '../request/index.js';
import { runModelStep } from '../step/index.js';
import { startImmediateSubagents } from '../subagents/index.js';
import { deliverQueued } from './queue.js';
import type { SideTurn } from './side-setup.js';

/** The turn goes on: `again` when its step answered with text and the side does not stop on a response (DEF-6). */
export interface GoOn {
  again: boolean;
}

/** The outcome that ends the turn, or how it goes on; `again` as the previous step left it. */
export async function takeStep(turn: SideTurn, again: boolean): Promise<TurnOutcome | GoOn> {
  const { deps, prompt, tools } = turn;
  const { store, emit } = deps;
  deliverQueued(store, emit);
  const current = store.messages();
  // A queued call (state.queueTool) was delivered as a step's call: the loop runs it first.
  if (pendingToolCalls(current).length > 0) return { again };
  // An ai_human turn ended by its stop tool is over: its marker comes after the tool result.
  const last = lastVisible(current, true);
  if (!last || (last.role === 'assistant' && !again) || last.role === 'system') {
    return { kind: 'done', reason: last ? 'response' : 'nothing_to_do' };
  }
  if (stepsThisTurn(current) >= turn.maxSteps) {
    return { kind: 'limit', message: `The turn reached its limit of ${turn.maxSteps} model steps.` };
  }
  // SUB-3: immediate subagents start before the prompt's first model step.
  if (turn.anyImmediate && startImmediateSubagents(prompt.name, tools.list, store, deps.variables.values, emit)) {
    return { again };
  }
  deps.onProgress?.();
  if (tools.dynamic) await tools.refresh();
  const { system } = tools;
  const requestTools = tools.requestTools(store);
  const imageParts = turn.images ? await turn.images.partsFor(current.slice(lastUserIndex(current) + 1)) : undefined;
  const userParts = await turn.messageFiles.partsFor(current, sentFrom(prompt, current), inMainConversation);
  const request = {
    tools: requestTools,
    system,
    render: (history: readonly Message[]) =>
      buildModelMessages(prompt, history, imageParts, system, inMainConversation, userParts),
  };
  const step = await runModelStep(turn.run, request, current);
  if (step.kind === 'ended') return step.outcome;
  if (step.refused) return { kind: 'done', reason: 'round_limit', pendingToolCalls: step.toolCalls };
  if (step.toolCalls.length === 0 && turn.side.stopOnResponse) return { kind: 'done', reason: 'response' };
  return { again: step.toolCalls.length === 0 };
}
