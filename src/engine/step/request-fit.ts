/**
 * Before a model call (THR-4): the thread's budget, and the model's context window. When the
 * request would not fit, the conversation before the current turn is compacted into a summary
 * (request/compaction.ts) and the request built again; a request that still does not fit ends the run with
 * `context_overflow` instead of a request the provider would refuse.
 */
import type { Message, ModelMessage } from '../../spec/index.js';
import { budgetExceeded, recordUsage, stepCost, type TurnOutcome, threadBudget } from '../conversation/index.js';
import {
  buildModelMessages,
  compactConversation,
  estimateTokens,
  requestBudget,
  turnStartIndex,
} from '../request/index.js';
import { ATTR, activeSpan, providerName, spanNames, withSpan } from '../tracing/index.js';
import { requestHistory, requestWithSystem } from './request-hooks.js';
import { recordSummarySpend } from './spend-check.js';
import type { StepRequest, StepRun } from './step-types.js';

/**
 * The messages of the next request, or the outcome that ends the run instead: over budget, or a
 * history that does not fit even after compaction. `own` is the conversation's store as the step
 * began; `turnId` the turn its usage counts toward.
 */
export async function fitRequest(
  run: StepRun,
  request: StepRequest,
  own: readonly Message[],
  turnId: string,
): Promise<{ messages: ModelMessage[] } | { outcome: TurnOutcome }> {
  const { deps, model, conversation } = run;
  const overBudget = budgetExceeded(deps.store, threadBudget(deps.agent.budget, deps.store));
  if (overBudget) return { outcome: { kind: 'limit', code: 'budget_exceeded', message: overBudget } };
  // HOOK-8: the hooks shape this request (its history, its system text); the log stays as it is.
  const history = await requestHistory(run, conversation.history(own));
  const rendered = await requestWithSystem(run, request);
  let messages = rendered.render(history);
  const available = requestBudget(model, run.settings?.maxOutputTokens);
  if (available === null || estimateTokens(messages, request.tools) <= available) return { messages };
  if (await compact(run, history, turnId)) {
    messages = rendered.render(await requestHistory(run, conversation.history(conversation.store.messages())));
    if (estimateTokens(messages, request.tools) <= available) return { messages };
  }
  return {
    outcome: {
      kind: 'limit',
      code: 'context_overflow',
      message: `The current turn needs about ${estimateTokens(messages, request.tools)} tokens, more than the ${available} model "${model.name}" can take (contextWindow ${model.contextWindow}) even with the earlier conversation summarised.`,
    },
  };
}

/** Summarises the history before the current turn, by the model's `compactWith`; whether it did. */
async function compact(run: StepRun, history: readonly Message[], turnId: string): Promise<boolean> {
  const { deps, model, conversation } = run;
  const summariser = model.compactWith ? deps.registry.model(model.compactWith) : model;
  const { shown } = conversation;
  // TRACE-3: a compaction is a model call of its own, a span beside the step's.
  const span = activeSpan().child(spanNames.compaction, 'client', {
    [ATTR.operation]: 'chat',
    [ATTR.provider]: providerName(summariser.provider),
    [ATTR.requestModel]: summariser.model ?? summariser.name,
  });
  const compacted = await withSpan(span, () =>
    compactConversation({
      log: history,
      turnStart: turnStartIndex(history, shown),
      store: conversation.store,
      emit: deps.emit,
      model: summariser,
      provider: summariser === model ? run.provider : deps.provider(summariser),
      signal: deps.signal,
      prompt: run.prompt,
      shown,
      render: (slice) => buildModelMessages({ ...run.prompt, includeChat: true }, slice, undefined, '', shown),
    }),
  ).catch((error: unknown) => {
    span.fail(error, 'model_error').end();
    throw error;
  });
  span
    .setAll({
      [ATTR.inputTokens]: compacted?.usage?.promptTokens,
      [ATTR.outputTokens]: compacted?.usage?.completionTokens,
      [ATTR.cost]: compacted?.usage ? stepCost(compacted.usage, summariser.prices) : null,
      [ATTR.message]: compacted?.message.id,
    })
    .end();
  if (!compacted) return false;
  recordUsage(deps.store, deps.emit, {
    usage: compacted.usage,
    model: summariser,
    messageId: compacted.message.id,
    turnId,
  });
  await recordSummarySpend(run, summariser, compacted.usage);
  return true;
}
