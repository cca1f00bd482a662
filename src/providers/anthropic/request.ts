/**
 * A model step as a Messages API request body (THR-4): the conversation (messages.ts), the tools and
 * the tool choice, and the model settings in Anthropic's terms.
 *
 * - `max_tokens` is required: `maxOutputTokens`, else 4096 (plus the thinking budget, below).
 * - `temperature` is capped at 1, Anthropic's maximum; recent models refuse `temperature` and `top_p`
 *   together, so `top_p` is sent only without a temperature. `stop` is `stop_sequences`.
 * - `reasoningEffort` turns on extended thinking, `thinking: { type: 'enabled', budget_tokens }`, with
 *   a budget per level. Thinking counts toward `max_tokens`: without `maxOutputTokens` the budget is
 *   added to the default, so the answer keeps its 4096 tokens; with it, the budget fits under it,
 *   leaving at least 1024 for the answer, and a cap too small for the 1024-token minimum budget
 *   means no thinking. Thinking refuses a changed temperature, `top_p` below 0.95 and a forced tool
 *   choice: with thinking on, temperature and such a `top_p` are not sent, and a step that must call
 *   a tool (`toolChoice: 'required'`) is sent without thinking.
 * - A tool-use loop is one assistant turn, and with thinking on its last step must be sent back with
 *   its thinking blocks, unmodified. The provider keeps them by call id; when they are gone (another
 *   provider instance, a restart, a fallback model), that request is sent without thinking, which
 *   is the API's own advice.
 * - `responseFormat` is Anthropic's structured outputs, `output_config.format` with a JSON schema in
 *   the subset it accepts (strict-schema.ts): the answer is the JSON as text, as the runtime expects,
 *   it combines with tools and thinking, and decoding is constrained rather than merely asked for.
 *   (A forced tool would not combine with thinking or with a prompt's own tool choice.) Models
 *   before Claude Sonnet 4.5, Haiku 4.5 and Opus 4.5 do not have it.
 */
import type { ModelRequest, ModelTool, RequestSettings } from '../../engine/ports/index.js';
import { type ContentBlock, type ThinkingLookup, toConversation } from './messages.js';
import { strictSchema } from './strict-schema.js';

export const DEFAULT_MAX_TOKENS = 4096;

/** Thinking tokens per `reasoningEffort`; 1024 is the API's minimum. */
export const THINKING_BUDGETS = { low: 1024, medium: 4096, high: 16_384 } as const;

const MIN_THINKING_BUDGET = 1024;
/** What a capped answer keeps for its text when thinking shares the cap. */
const MIN_ANSWER_TOKENS = 1024;
/** The lowest `top_p` the API accepts with thinking on. */
const MIN_TOP_P_WITH_THINKING = 0.95;

/** The request body; `thinkingFor` gives the thinking blocks kept from earlier steps. */
export function requestBody(request: ModelRequest, thinkingFor: ThinkingLookup): Record<string, unknown> {
  const settings = request.settings ?? {};
  const tools = request.tools;
  const forcedTool = tools.length > 0 && request.toolChoice === 'required';
  let budget = forcedTool ? undefined : thinkingBudget(settings);
  // The last step of a tool-use loop must come back with its thinking; without it, no thinking.
  if (budget !== undefined && !lastStepHasThinking(request, thinkingFor)) budget = undefined;
  const thinking = budget !== undefined;
  const conversation = toConversation(request.messages, thinking ? thinkingFor : undefined);

  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: maxTokens(settings, budget),
  };
  if (conversation.system !== undefined) body.system = conversation.system;
  body.messages = conversation.messages;
  if (tools.length > 0) {
    body.tools = tools.map(toTool);
    const choice = toolChoice(request);
    if (choice) body.tool_choice = choice;
  }
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  // Anthropic's temperature runs 0 to 1 (the runtime's, OpenAI's, to 2).
  if (settings.temperature !== undefined && !thinking) body.temperature = Math.min(settings.temperature, 1);
  // Recent models take a temperature or a top_p, not both: the temperature wins.
  if (
    settings.topP !== undefined &&
    body.temperature === undefined &&
    (!thinking || settings.topP >= MIN_TOP_P_WITH_THINKING)
  ) {
    body.top_p = settings.topP;
  }
  if (settings.stop !== undefined && settings.stop.length > 0) body.stop_sequences = settings.stop;
  if (settings.responseFormat) {
    body.output_config = { format: { type: 'json_schema', schema: strictSchema(settings.responseFormat.schema) } };
  }
  body.stream = true;
  return body;
}

/** The thinking budget the settings ask for and the token cap allows, or undefined for none. */
function thinkingBudget(settings: RequestSettings): number | undefined {
  if (!settings.reasoningEffort) return undefined;
  const wanted = THINKING_BUDGETS[settings.reasoningEffort];
  if (settings.maxOutputTokens === undefined) return wanted;
  const room = settings.maxOutputTokens - MIN_ANSWER_TOKENS;
  return room >= MIN_THINKING_BUDGET ? Math.min(wanted, room) : undefined;
}

function maxTokens(settings: RequestSettings, budget: number | undefined): number {
  if (settings.maxOutputTokens !== undefined) return settings.maxOutputTokens;
  return DEFAULT_MAX_TOKENS + (budget ?? 0);
}

/**
 * Whether the request's last assistant step, when it called tools, has its thinking blocks to send
 * back. The API asks this of the final assistant turn of a tool-use loop only.
 */
function lastStepHasThinking(request: ModelRequest, thinkingFor: ThinkingLookup): boolean {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role !== 'assistant') continue;
    const first = message.tool_calls?.[0];
    if (!first) return true;
    const blocks: readonly ContentBlock[] | undefined = thinkingFor(first.id);
    return blocks !== undefined && blocks.length > 0;
  }
  return true;
}

function toTool(tool: ModelTool): Record<string, unknown> {
  const { name, description, parameters } = tool.function;
  return { name, description, input_schema: parameters };
}

/** `auto` / `none` / `any` (Anthropic's "must call one"), and whether calls may come in parallel. */
function toolChoice(request: ModelRequest): Record<string, unknown> | undefined {
  const single = request.parallelToolCalls === false;
  switch (request.toolChoice) {
    case 'none':
      return { type: 'none' };
    case 'required':
      return single ? { type: 'any', disable_parallel_tool_use: true } : { type: 'any' };
    default:
      if (single) return { type: 'auto', disable_parallel_tool_use: true };
      return request.toolChoice === 'auto' ? { type: 'auto' } : undefined;
  }
}
