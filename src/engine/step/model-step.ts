/**
 * One model step, the same for a side's turn and a nested prompt run: the request fitted to the
 * budget and the context window (compacting when needed), the model called with streaming, the
 * round limit decided, the assistant message with its tool calls stored before anything runs
 * (THR-3), its usage recorded and a final answer held to the response format (THR-4). Before the
 * call its estimate is held against the payer's spend quotas, and settled after it (IDN-6).
 */
import type { Message } from '../../spec/index.js';
import { recordUsage, type TurnOutcome } from '../conversation/index.js';
import { appendWithHooks } from '../hooks/index.js';
import type { ModelResponse, NewMessage } from '../ports/index.js';
import { responseFormatProblem } from '../request/index.js';
import { withSpan } from '../tracing/index.js';
import { callModel } from './model-call.js';
import { fitRequest } from './request-fit.js';
import { prefilteredMessages } from './request-hooks.js';
import { roundDecision } from './round-limit.js';
import { holdSpend, settleSpend } from './spend-check.js';
import { endChatSpan, startChatSpan } from './step-span.js';
import type { StepEnd, StepRequest, StepRun } from './step-types.js';
import { streamingEnded } from './streamed-text.js';

const ended = (outcome: TurnOutcome): StepEnd => ({ kind: 'ended', outcome });

/** Runs one step; `own` is the conversation's store as the run last read it (THR-3: decided from the log). */
export async function runModelStep(run: StepRun, request: StepRequest, own: readonly Message[]): Promise<StepEnd> {
  const { deps, conversation } = run;
  const turnId = conversation.turnId(own);
  const fitted = await fitRequest(run, request, own, turnId);
  if ('outcome' in fitted) return ended(fitted.outcome);
  // IDN-6: a call the day's quota cannot take ends the run here, before anything is sent or stored.
  const messages = await prefilteredMessages(run, fitted.messages);
  const spend = await holdSpend(run, messages, request.tools);
  if ('outcome' in spend) return ended(spend.outcome);
  const messageId = crypto.randomUUID();
  // TRACE-3: the call and its retries run in the step's span.
  const span = startChatSpan(run, messages);
  const answer = await withSpan(span, () => callModel(run, request, messages, messageId));
  await settleSpend(run, spend.hold, 'response' in answer ? answer.response.usage : null);
  if ('outcome' in answer) {
    const { outcome } = answer;
    if (outcome.kind === 'failed') span.fail(outcome.message, 'model_error');
    span.set('standard_agents.outcome', outcome.kind).end();
    return ended(outcome);
  }
  const { response } = answer;
  endChatSpan(span, run, response, messageId);
  const round = await roundDecision(run, own, response.toolCalls);
  const draft: NewMessage = {
    id: messageId,
    role: 'assistant',
    content: response.text === '' && response.toolCalls.length > 0 ? null : response.text,
    tool_calls: response.toolCalls.length > 0 ? response.toolCalls : null,
    metadata: {
      model: response.model,
      usage: response.usage,
      finish_reason: response.finishReason,
      ...(round.refused ? { round_limit: true } : {}),
    },
  };
  // HOOK-8: the create hooks run around the stored step, its id and calls fixed.
  const message = run.hooks
    ? await appendWithHooks(conversation.store, run.hooks, draft)
    : conversation.store.append(draft);
  deps.emit({ type: 'message', message });
  if (answer.streamed) streamingEnded(deps.store);
  const refusedAnswer = accountStep(run, response, message, turnId);
  if (refusedAnswer) return ended(refusedAnswer);
  if (round.failure) return ended({ kind: 'failed', message: round.failure });
  return { kind: 'stored', message, toolCalls: response.toolCalls, refused: round.refused };
}

/** After a model step is stored: its usage counted, and a final answer held to the response format. */
function accountStep(run: StepRun, response: ModelResponse, message: Message, turnId: string): TurnOutcome | null {
  const { deps } = run;
  recordUsage(deps.store, deps.emit, { usage: response.usage, model: run.model, messageId: message.id, turnId });
  if (response.toolCalls.length > 0) return null;
  const problem = responseFormatProblem(run.model, run.prompt, response.text);
  return problem ? { kind: 'failed', code: 'response_format', message: problem } : null;
}
