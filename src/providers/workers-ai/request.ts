/**
 * The `inputs` of one `env.AI.run` call (THR-4): the conversation in the binding's shape
 * (messages.ts), the tools in the OpenAI function shape, and the model's settings under the
 * binding's own names.
 *
 * - JSON mode (`response_format: { type: 'json_schema', json_schema }`) takes the bare JSON Schema,
 *   its name as the schema's `title`; the docs say it "currently doesn't support streaming", so a
 *   request with a response format runs unstreamed.
 * - `stop`, `tool_choice`, `parallel_tool_calls` and `reasoning_effort` are sent when set; the
 *   models with the Chat Completions input schema (GLM, Kimi, gpt-oss, Gemma 4, ...) honour them,
 *   the others ignore what their schema lacks.
 */
import type { ModelRequest, RequestSettings } from '../../engine/ports/index.js';
import type { JsonSchema } from '../../spec/index.js';
import { bindingMessages } from './messages.js';

export function runInputs(request: ModelRequest): Record<string, unknown> {
  const inputs: Record<string, unknown> = { messages: bindingMessages(request.messages) };
  // JSON mode does not stream.
  if (request.settings?.responseFormat === undefined) inputs.stream = true;
  if (request.tools.length > 0) inputs.tools = request.tools;
  if (request.toolChoice !== undefined) inputs.tool_choice = request.toolChoice;
  if (request.parallelToolCalls !== undefined) inputs.parallel_tool_calls = request.parallelToolCalls;
  Object.assign(inputs, settingsInputs(request.settings));
  return inputs;
}

/** The model settings under the binding's input names (THR-4). */
function settingsInputs(settings: RequestSettings | undefined): Record<string, unknown> {
  if (!settings) return {};
  const inputs: Record<string, unknown> = {};
  if (settings.maxOutputTokens !== undefined) inputs.max_tokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) inputs.temperature = settings.temperature;
  if (settings.topP !== undefined) inputs.top_p = settings.topP;
  if (settings.stop !== undefined) inputs.stop = settings.stop;
  if (settings.reasoningEffort !== undefined) inputs.reasoning_effort = settings.reasoningEffort;
  if (settings.responseFormat) {
    const { name, schema } = settings.responseFormat;
    inputs.response_format = { type: 'json_schema', json_schema: titled(schema, name) };
  }
  return inputs;
}

/** The schema with the format's name as its `title`, unless it has one. */
function titled(schema: JsonSchema, name: string): JsonSchema {
  return 'title' in schema || name === '' ? schema : { ...schema, title: name };
}
