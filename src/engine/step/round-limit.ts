/**
 * The round limit (KIND-7): before a step's calls are stored, the prompt's `maxToolRounds` decides
 * whether they may run. The decision is stored with the step (`metadata.round_limit`), so a refused
 * step is never executed, not by a restart nor by a later turn. A run counts its own rounds: a
 * side's turn since its newest user message, a nested prompt run since it started.
 */
import type { MaxToolRounds, Message, ToolCall, TurnContext } from '../../spec/index.js';
import { roundsThisTurn, stepsThisTurn } from '../conversation/index.js';
import { parsedArguments } from '../execute/index.js';
import type { StepRun } from './step-types.js';

/** What the model is told about calls a round limit left unexecuted. */
export const ROUND_LIMIT_MESSAGE = 'not executed: the round limit (maxToolRounds) was reached';

/** Whether the calls may run; `failure` when the limit itself threw (the calls are refused then). */
export interface RoundDecision {
  refused: boolean;
  failure: string | null;
}

async function roundAllowed(limit: MaxToolRounds, turn: TurnContext): Promise<boolean> {
  if (typeof limit === 'number') return turn.round < limit;
  return Boolean(await limit(turn));
}

/** KIND-7: the decision on a step's calls, `own` being the conversation's messages before the step. */
export async function roundDecision(
  run: StepRun,
  own: readonly Message[],
  toolCalls: readonly ToolCall[],
): Promise<RoundDecision> {
  const limit = run.prompt.maxToolRounds;
  if (toolCalls.length === 0 || limit === undefined) return { refused: false, failure: null };
  const { store, depth } = run.conversation;
  try {
    const allowed = await roundAllowed(limit, {
      threadId: store.info.id,
      round: roundsThisTurn(own, depth),
      stepCount: stepsThisTurn(own, depth) + 1,
      toolCalls: toolCalls.map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: parsedArguments(call.function.arguments),
      })),
    });
    return { refused: !allowed, failure: null };
  } catch (error) {
    const scrub = run.deps.scrub ?? ((text: string) => text);
    const failure = scrub(`maxToolRounds of prompt "${run.prompt.name}" failed: ${(error as Error).message}`);
    return { refused: true, failure };
  }
}
