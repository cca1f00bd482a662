/**
 * What surrounds a model call in the loop (THR-4): before it, the thread's budget and the model's
 * context window (the conversation before the current turn is compacted into a summary when the
 * request would not fit); after it, the step's usage added to the totals and streamed, and a final
 * answer checked against the response format.
 */
import type { Message, ModelDefinition, ModelMessage, PromptDefinition } from '../../spec/index.js';
import {
  budgetExceeded,
  buildModelMessages,
  compactConversation,
  estimateTokens,
  recordUsage,
  requestBudget,
  responseFormatProblem,
  type TurnDeps,
  type TurnOutcome,
  threadBudget,
  turnIdOf,
  turnStartIndex,
} from '../conversation/index.js';
import type { ModelResponse, ModelTool, Provider, RequestSettings } from '../ports/index.js';

export interface StepSetting {
  deps: TurnDeps;
  prompt: PromptDefinition;
  model: ModelDefinition;
  provider: Provider;
  settings: RequestSettings | undefined;
  /** Builds the request's messages from the log (the prompt's system text and images included). */
  render(log: readonly Message[]): ModelMessage[];
}

/**
 * The messages of the next request, or the outcome that ends the turn instead: over budget, or a
 * history that does not fit even after compaction.
 */
export async function prepareRequest(
  setting: StepSetting,
  tools: readonly ModelTool[],
): Promise<{ messages: ModelMessage[] } | { outcome: TurnOutcome }> {
  const { deps, model } = setting;
  const overBudget = budgetExceeded(deps.store, threadBudget(deps.agent.budget, deps.store));
  if (overBudget) return { outcome: { kind: 'limit', code: 'budget_exceeded', message: overBudget } };
  let messages = setting.render(deps.store.messages());
  const available = requestBudget(model, setting.settings?.maxOutputTokens);
  if (available === null || estimateTokens(messages, tools) <= available) return { messages };
  const log = deps.store.messages();
  const summariser = model.compactWith ? deps.registry.model(model.compactWith) : model;
  const compacted = await compactConversation({
    log,
    turnStart: turnStartIndex(log),
    store: deps.store,
    emit: deps.emit,
    model: summariser,
    provider: summariser === model ? setting.provider : deps.provider(summariser),
    signal: deps.signal,
    prompt: setting.prompt,
    render: (slice) => buildModelMessages({ ...setting.prompt, includeChat: true }, slice, undefined, ''),
  });
  if (compacted) {
    recordUsage(deps.store, deps.emit, {
      usage: compacted.usage,
      model: summariser,
      messageId: compacted.message.id,
      turnId: turnIdOf(log),
    });
    messages = setting.render(deps.store.messages());
    if (estimateTokens(messages, tools) <= available) return { messages };
  }
  return {
    outcome: {
      kind: 'limit',
      code: 'context_overflow',
      message: `The current turn needs about ${estimateTokens(messages, tools)} tokens, more than the ${available} model "${model.name}" can take (contextWindow ${model.contextWindow}) even with the earlier conversation summarised.`,
    },
  };
}

/** After a model step is stored: its usage counted, and a final answer held to the response format. */
export function accountStep(
  setting: StepSetting,
  response: ModelResponse,
  message: Message,
  log: readonly Message[],
): TurnOutcome | null {
  const { deps } = setting;
  recordUsage(deps.store, deps.emit, {
    usage: response.usage,
    model: setting.model,
    messageId: message.id,
    turnId: turnIdOf(log),
  });
  if (response.toolCalls.length > 0) return null;
  const problem = responseFormatProblem(setting.model, setting.prompt, response.text);
  return problem ? { kind: 'failed', code: 'response_format', message: problem } : null;
}
